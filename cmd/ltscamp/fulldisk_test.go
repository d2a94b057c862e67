package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// fullDisk mounts a small tmpfs over a new folder and returns it; fill
// then takes its last byte. It needs Linux and the right to mount (root);
// the test is skipped, saying why, where it has neither.
// TestExportFullDisk covers the output files without either (/dev/full).
func fullDisk(t *testing.T) (dir string, fill func(), free func()) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("a real full disk is a small tmpfs, which only Linux mounts")
	}
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs to fill needs root; TestExportFullDisk and TestOutputError cover output files with /dev/full")
	}
	dir = t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here (a container without CAP_SYS_ADMIN?): %v: %s", err, out)
	}
	// Cleanups run last first: unmounted before TempDir removes dir.
	t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	ballast := filepath.Join(dir, "ballast")
	fill = func() {
		t.Helper()
		f, err := os.Create(ballast)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		buf := make([]byte, 4096)
		for {
			if _, err := f.Write(buf); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatalf("filling the disk: %v", err)
				}
				break
			}
		}
		// Whatever a block's worth of room is left, take it byte by byte.
		for {
			if _, err := f.Write(buf[:1]); err != nil {
				break
			}
		}
	}
	free = func() {
		t.Helper()
		if err := os.Remove(ballast); err != nil {
			t.Fatal(err)
		}
	}
	return dir, fill, free
}

// TestFullDisk: with no byte free on the campaign's disk, commands that
// only read still answer; every command that needs room exits 8 and says
// the disk is full (init once exited 2, reads 8 with "disk I/O error");
// nothing is appended, and once room is made the campaign goes on.
func TestFullDisk(t *testing.T) {
	dir, fill, free := fullDisk(t)
	for _, args := range [][]string{
		{"init"},
		{"char", "new", "Kira", "--st", "10", "--dx", "12", "--iq", "10"},
		{"xp", "award", "Kira", "3", "--reason", "a good night"},
	} {
		if code, _, stderr := run(t, dir, args...); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	// A campaign whose writer was killed with its last events in the
	// -wal, and no -shm beside it: SQLite can read it only through a -shm
	// there is no room to make.
	killed := killedWriter(t, filepath.Join(dir, "k.ltscamp"))
	fill()
	code, _, stderr := run(t, dir, "--db", killed, "sheet", "Kira")
	if code != ExitSystem || !strings.Contains(stderr, "is full") || !strings.Contains(stderr, "k.ltscamp-wal") {
		t.Errorf("a read of a -wal with events on a full disk: exit %d, %q; want %d, the disk full and the -wal named", code, stderr, ExitSystem)
	}
	for _, args := range [][]string{
		{"sheet", "Kira"}, {"party"}, {"char", "list"}, {"log"}, {"timeline"},
		{"audit", "xp", "Kira"}, {"verify"}, {"export", "sheet", "Kira"}, {"export", "log"},
		{"backup", filepath.Join(t.TempDir(), "elsewhere.ltscamp")},
	} {
		if code, _, stderr := run(t, dir, args...); code != ExitOK {
			t.Errorf("%v on a full disk: exit %d, want 0: a read needs no room (%s)", args, code, stderr)
		}
	}
	for _, args := range [][]string{
		{"xp", "award", "Kira", "1", "--reason", "no room"},
		{"--db", filepath.Join(dir, "new.ltscamp"), "init"},
		{"export", "sheet", "Kira", "-o", filepath.Join(dir, "kira.pdf")},
		{"export", "log", "-o", filepath.Join(dir, "c.ndjson")},
	} {
		code, _, stderr := run(t, dir, args...)
		if code != ExitSystem {
			t.Errorf("%v on a full disk: exit %d, want %d (%s)", args, code, ExitSystem, stderr)
		}
		if !strings.Contains(stderr, "is full") || strings.HasPrefix(stderr, "ltscamp: disk I/O error") {
			t.Errorf("%v on a full disk: %q does not say the disk is full", args, stderr)
		}
	}
	free()
	if _, err := os.Stat(filepath.Join(dir, "new.ltscamp")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed init left new.ltscamp behind (%v)", err)
	}
	code, stdout, stderr := run(t, dir, "verify")
	if code != ExitOK || !strings.Contains(stdout, "3 events") {
		t.Errorf("verify after the full disk: exit %d, %q %q: want the 3 events and no more", code, stdout, stderr)
	}
	if code, _, stderr := run(t, dir, "xp", "award", "Kira", "1", "--reason", "room again"); code != ExitOK {
		t.Errorf("xp award once room is made: exit %d (%s)", code, stderr)
	}
}

// killedWriter makes, at path, a campaign whose last events are in its
// -wal with no -shm beside it, as a writer killed before its last close
// leaves it: built elsewhere with a connection held open (so the writer's
// close does not fold the -wal in), the file and its -wal copied to path.
func killedWriter(t *testing.T, path string) string {
	t.Helper()
	src := t.TempDir()
	db := filepath.Join(src, "c.ltscamp")
	for _, args := range [][]string{
		{"init"},
		{"char", "new", "Kira", "--st", "10", "--dx", "12", "--iq", "10"},
	} {
		if code, _, stderr := runDB(t, db, args...); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	hold := openSQL(t, db)
	defer hold.Close()
	var n int
	if err := hold.QueryRow(`SELECT count(*) FROM events`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runDB(t, db, "xp", "award", "Kira", "2", "--reason", "late"); code != ExitOK {
		t.Fatalf("xp award: exit %d: %s", code, stderr)
	}
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(db + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if suffix == "-wal" && len(b) == 0 {
			t.Fatal("the -wal holds no events: the held connection did not keep it")
		}
		if err := os.WriteFile(path+suffix, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return path
}
