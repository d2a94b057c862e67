package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFilesThisUserMayNotUse: a campaign file this user may not read, and
// an -o folder this user may not write in, are the user's to sort out:
// exit 2, said in words, never exit 1 (kept for bugs). Reading the
// campaign once exited 1 with "open FILE: open FILE: permission denied".
//
// File modes do not stop root: as root the test runs ltscamp as user
// 65534 with setpriv, as TestReadOnlyCampaignAsAnotherUser does.
func TestFilesThisUserMayNotUse(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "share")
	locked := filepath.Join(base, "locked")
	for _, d := range []string{dir, locked} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	db := smallCampaign(t, dir)
	runAs := func(args ...string) (int, string, string) { return runDB(t, db, args...) }
	if os.Geteuid() == 0 {
		setpriv, err := exec.LookPath("setpriv")
		if err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("running as root without setpriv: cannot be a user the file modes stop (install util-linux)")
			}
			t.Skip("running as root without setpriv: root ignores file modes; run as another user, or install setpriv")
		}
		runAs = asNobody(t, setpriv, base, db)
	}
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(locked, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(locked, 0o755) })

	if err := os.Chmod(db, 0o000); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"sheet", "Ajax"}, {"verify"}, {"xp", "award", "Ajax", "1", "--reason", "r"}} {
		code, _, stderr := runAs(args...)
		if code != ExitUsage || !strings.Contains(stderr, "cannot read "+db+": this user may not read it") {
			t.Errorf("%v on a file this user may not read: exit %d, %q; want %d, said in words", args, code, stderr, ExitUsage)
		}
	}

	if err := os.Chmod(db, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(locked, "ajax.md")
	code, _, stderr := runAs("export", "sheet", "Ajax", "-o", out)
	if code != ExitUsage || !strings.HasPrefix(stderr, "ltscamp: cannot write "+out+": permission denied; nothing was written") || strings.Contains(stderr, ".tmp") {
		t.Errorf("export -o into a folder this user may not write in: exit %d, %q", code, stderr)
	}
}
