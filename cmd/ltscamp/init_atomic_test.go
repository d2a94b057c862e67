package main

import (
	"bytes"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runDB invokes Main in-process on the campaign file db.
func runDB(t *testing.T, db string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{
		Args:   append([]string{"--db", db, "--actor", "gm"}, args...),
		Stdin:  strings.NewReader(""),
		Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" },
		Now:    func() time.Time { return time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC) },
	}
	code = Main(env)
	return code, out.String(), errb.String()
}

// ltscampCommand returns a command that runs this test binary as ltscamp
// (TestMain's testscript.Main dispatches on the name it is run by).
func ltscampCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Args[0] = "ltscamp"
	cmd.Env = append(os.Environ(), "LTSCAMP_DB=", "LTSCAMP_ACTOR=gm", "NO_COLOR=1")
	return cmd
}

// TestInitKilledNeverLeavesAStuckFile kills `ltscamp init` at random
// moments of its run, 20 times, and checks each path it was given: either
// it holds a campaign that verify passes, or init succeeds there now.
// Before init built the file under a temporary name, a kill could leave
// an empty file or a schema without campaign.created, which every command
// refused and init would not replace.
func TestInitKilledNeverLeavesAStuckFile(t *testing.T) {
	dir := t.TempDir()
	// How long a whole init takes here, start to exit: the kills fall
	// anywhere in it.
	start := time.Now()
	if out, err := ltscampCommand(t, "--db", filepath.Join(dir, "whole.ltscamp"), "init").CombinedOutput(); err != nil {
		t.Fatalf("init: %v: %s", err, out)
	}
	whole := time.Since(start)
	seed := uint64(time.Now().UnixNano())
	t.Logf("a whole init takes %v; kill times drawn with seed %d", whole, seed)
	rng := rand.New(rand.NewPCG(seed, 13))
	var left, empty int
	for i := range 20 {
		path := filepath.Join(dir, "c"+string(rune('a'+i))+".ltscamp")
		cmd := ltscampCommand(t, "--db", path, "init")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(whole) + 1)))
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if _, err := os.Lstat(path); err == nil {
			left++
			if code, _, stderr := runDB(t, path, "verify"); code != ExitOK {
				t.Errorf("kill %d left %s, which verify refuses (exit %d): %s", i, filepath.Base(path), code, stderr)
			}
			continue
		} else if !os.IsNotExist(err) {
			t.Fatal(err)
		}
		empty++
		if code, _, stderr := runDB(t, path, "init"); code != ExitOK {
			t.Errorf("kill %d left nothing at %s, but init there fails (exit %d): %s", i, filepath.Base(path), code, stderr)
		} else if code, _, stderr := runDB(t, path, "verify"); code != ExitOK {
			t.Errorf("init after kill %d: verify exit %d: %s", i, code, stderr)
		}
	}
	t.Logf("%d kills left a whole campaign, %d left nothing", left, empty)
}

// TestInitRefusesSymlinks: init on a symbolic link, to an empty file or to
// nothing, exits 2 saying so, and writes nothing through it.
func TestInitRefusesSymlinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.ltscamp")
	if err := os.WriteFile(target, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, to := range map[string]string{"to-empty": target, "dangling": filepath.Join(dir, "nowhere.ltscamp")} {
		link := filepath.Join(dir, name+".ltscamp")
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runDB(t, link, "init")
		if code != ExitUsage || !strings.Contains(stderr, "is a symbolic link") {
			t.Errorf("%s: exit %d, %q; want 2 and the symbolic link named", name, code, stderr)
		}
		if got, err := os.Readlink(link); err != nil || got != to {
			t.Errorf("%s: the link is now %q, %v", name, got, err)
		}
	}
	if st, err := os.Stat(target); err != nil || st.Size() != 0 {
		t.Error("init wrote through a link into its target")
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere.ltscamp")); !os.IsNotExist(err) {
		t.Error("init created the file a dangling link points to")
	}
}

// TestInitReplacesAnEmptyFile: an empty file at the path (touch, mktemp)
// becomes the campaign, with the campaign's mode.
func TestInitReplacesAnEmptyFile(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.ltscamp")
	if err := os.WriteFile(db, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runDB(t, db, "init"); code != ExitOK {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runDB(t, db, "verify"); code != ExitOK {
		t.Fatalf("verify: exit %d: %s", code, stderr)
	}
	assertMode(t, db, 0o600)
}

func assertMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != want {
		t.Errorf("%s has mode %v, want %v", filepath.Base(path), st.Mode().Perm(), want)
	}
}

// TestFilesAreTheOwners: the campaign file and every file ltscamp writes
// from it (backups, exports, a restored campaign) have mode 0600, whatever
// the umask: they hold the campaign, which is its owner's.
func TestFilesAreTheOwners(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "c.ltscamp")
	for _, args := range [][]string{
		{"init"},
		{"char", "new", "Ajax", "--st", "12", "--dx", "11", "--iq", "9"},
		{"backup", filepath.Join(dir, "backup.ltscamp")},
		{"export", "log", "-o", filepath.Join(dir, "log.ndjson")},
		{"export", "sheet", "Ajax", "-o", filepath.Join(dir, "ajax.md")},
		{"export", "party", "-o", filepath.Join(dir, "party.json")},
	} {
		if code, _, stderr := runDB(t, db, args...); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	if code, _, stderr := runDB(t, filepath.Join(dir, "restored.ltscamp"), "import", "log", filepath.Join(dir, "log.ndjson")); code != ExitOK {
		t.Fatalf("import log: exit %d: %s", code, stderr)
	}
	for _, name := range []string{"c.ltscamp", "backup.ltscamp", "log.ndjson", "ajax.md", "party.json", "restored.ltscamp"} {
		assertMode(t, filepath.Join(dir, name), 0o600)
	}
}
