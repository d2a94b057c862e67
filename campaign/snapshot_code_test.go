package campaign

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/projections"
)

// foldSources records, for each projections.SnapshotCode, a digest of the
// code whose folds snapshots hold: the projections snapshotted, the XP
// audit, and the rules they apply. A build that is not stamped with a VCS
// revision or a release keys its snapshots by SnapshotCode alone, so a
// change to that code without a new SnapshotCode would let the new build
// trust a snapshot the old one folded.
var foldSources = map[string]string{
	"1": "424208df74b363004e405ad4e087b4f0a40fd7a2b9bbd8847d36aa2b2246660d",
	"2": "5a880ab9240c46398709c3dffe5b35133a9f098d8a37bace193706d53cf88c1b",
	"3": "6ab3060c9b8c0a7c5fbaeea6809ee9a3083f6426ae10e660a43066fa60cf6ddc",
	"4": "857b2252547ed6008bb2000664fd050d03807a530bf166b42ef9b58937c9e55c",
	"5": "42b346d01718b3eb516e711d6be8f3e8becf9a9b121142fede1c054010e0a4f8",
	"6": "56302fc571a962f969c69fec80269faf9ae9cc7e2b7891e632be6f6a4ed9d938",
}

// foldSourceFiles are the files foldSources digests, from this package.
func foldSourceFiles(t *testing.T) []string {
	t.Helper()
	files := []string{
		"../projections/sheet.go", "../projections/ledger.go", "../projections/campaign.go",
		"../projections/reverts.go", "../projections/reverts_base.go", "../projections/snapshot.go", "audit.go",
	}
	rulesFiles, err := filepath.Glob("../rules/*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rulesFiles {
		if !strings.HasSuffix(f, "_test.go") {
			files = append(files, f)
		}
	}
	sort.Strings(files)
	return files
}

// TestSnapshotCodeFollowsTheFolds fails when the folds' code changed but
// projections.SnapshotCode did not: bump SnapshotCode, and record the new
// digest (the failure prints it) under the new code in foldSources.
func TestSnapshotCodeFollowsTheFolds(t *testing.T) {
	h := sha256.New()
	for _, f := range foldSourceFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		h.Write([]byte(filepath.ToSlash(f) + "\n"))
		h.Write([]byte(strings.ReplaceAll(string(b), "\r\n", "\n")))
	}
	got := hex.EncodeToString(h.Sum(nil))
	code := projections.SnapshotCode
	want, ok := foldSources[code]
	if !ok {
		t.Fatalf("snapshot code %q has no digest: add to foldSources in campaign/snapshot_code_test.go\n\t%q: %q,", code, code, got)
	}
	if want != got {
		t.Fatalf("the folds' code changed since snapshot code %q (digest %s, was %s).\n"+
			"Snapshots folded by the old code must not be trusted: in projections/snapshot.go set\n"+
			"\tconst SnapshotCode = %q\nthen run this test again for the digest to record.",
			code, got, want, nextSnapshotCode(code))
	}
}

// nextSnapshotCode is the code after code: one more when it is a number,
// else code with ".1" added.
func nextSnapshotCode(code string) string {
	if n, err := strconv.Atoi(code); err == nil {
		return strconv.Itoa(n + 1)
	}
	return code + ".1"
}
