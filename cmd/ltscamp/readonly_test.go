package main

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fileState is what a reader must leave as it was: a file's bytes and
// modification time.
type fileState struct {
	sum   [32]byte
	mtime time.Time
}

func stateOf(t *testing.T, path string) fileState {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fileState{sum: sha256.Sum256(b), mtime: st.ModTime()}
}

// readCommands are commands that only read, each of which must work on a
// campaign its user cannot write.
var readCommands = [][]string{
	{"sheet", "Ajax"}, {"log"}, {"party"}, {"verify"}, {"audit", "xp", "Ajax"}, {"export", "log"},
}

// smallCampaign makes a campaign with Ajax and an award in dir/c.ltscamp.
func smallCampaign(t *testing.T, dir string) string {
	t.Helper()
	db := filepath.Join(dir, "c.ltscamp")
	for _, args := range [][]string{
		{"init", "--name", "Kit-Kat"},
		{"char", "new", "Ajax", "--st", "12", "--dx", "11", "--iq", "9"},
		{"xp", "award", "Ajax", "20", "--reason", "rescue"},
	} {
		if code, _, stderr := runDB(t, db, args...); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	return db
}

// TestReadOnlyCampaignAsAnotherUser: a campaign its user can read but not
// write (the file 0444 in a folder 0555: another user's file, a read-only
// share) can be read, verified and backed up, which leaves the file's
// bytes and mtime as they were and makes nothing beside it; a command
// that writes exits 2, saying the file is read-only.
//
// File modes do not stop root. Run as root, the test runs ltscamp as
// user 65534 with setpriv (util-linux); run as any other user, chmod is
// enough and ltscamp runs in-process. As root without setpriv there is no
// honest way to be another user: CI fails then, and elsewhere the test
// checks only what root can (the readers work and change nothing), and
// says so in its log.
func TestReadOnlyCampaignAsAnotherUser(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "share")
	out := filepath.Join(base, "out")
	for _, d := range []string{dir, out} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	db := smallCampaign(t, dir)

	runAs := func(args ...string) (int, string, string) { return runDB(t, db, args...) }
	canWrite := false // whether the runner can write the file after all
	if os.Geteuid() == 0 {
		setpriv, err := exec.LookPath("setpriv")
		switch {
		case err == nil:
			runAs = asNobody(t, setpriv, base, db)
		case os.Getenv("CI") != "":
			t.Fatalf("running as root without setpriv: cannot check a campaign as a user who cannot write it (install util-linux)")
		default:
			canWrite = true
			t.Log("running as root without setpriv: root ignores file modes, so only the readers are checked (they work and change nothing); run as another user, or install setpriv, for the whole check")
		}
	}
	for _, p := range []string{base, out} {
		if err := os.Chmod(p, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(db, 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
	before, listed := stateOf(t, db), listDir(t, dir)

	for _, args := range append(slices.Clone(readCommands), []string{"backup", filepath.Join(out, "copy.ltscamp")}) {
		if code, _, stderr := runAs(args...); code != ExitOK {
			t.Errorf("%v on a read-only campaign: exit %d: %s", args, code, stderr)
		}
	}
	if code, _, stderr := runDB(t, filepath.Join(out, "copy.ltscamp"), "verify"); code != ExitOK {
		t.Errorf("the backup does not verify: exit %d: %s", code, stderr)
	}
	if !canWrite {
		code, _, stderr := runAs("xp", "award", "Ajax", "5", "--reason", "denied")
		if code != ExitUsage || !strings.Contains(stderr, "c.ltscamp is read-only to you") || !strings.Contains(stderr, "nothing was changed") {
			t.Errorf("a write to a read-only campaign: exit %d, %q; want 2 and the read-only message", code, stderr)
		}
	}
	if after := stateOf(t, db); after != before {
		t.Errorf("the campaign file changed: %+v, was %+v", after, before)
	}
	if got := listDir(t, dir); !slices.Equal(got, listed) {
		t.Errorf("the folder now holds %v, was %v", got, listed)
	}
}

// asNobody returns a runner of ltscamp on db as user and group 65534,
// through setpriv: a copy of this test binary named ltscamp, in base,
// which it makes readable by that user.
func asNobody(t *testing.T, setpriv, base, db string) func(args ...string) (int, string, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(base, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(bin, "ltscamp")
	src, err := os.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(prog, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	// Every folder above base must let the other user through.
	for d := filepath.Dir(base); d != filepath.Dir(d); d = filepath.Dir(d) {
		if st, err := os.Stat(d); err == nil && st.Mode().Perm()&0o001 == 0 {
			if err := os.Chmod(d, st.Mode().Perm()|0o005); err != nil {
				t.Fatal(err)
			}
		}
	}
	return func(args ...string) (int, string, string) {
		var stdout, stderr strings.Builder
		cmd := exec.Command(setpriv, append([]string{"--reuid=65534", "--regid=65534", "--clear-groups", prog, "--db", db, "--actor", "gm"}, args...)...)
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + base, "NO_COLOR=1", "TMPDIR=" + base}
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("setpriv: %v", err)
		}
		return code, stdout.String(), stderr.String()
	}
}

// TestReadersLeaveAKilledWritersFileAlone: a writer killed with its last
// events still in the -wal leaves a file that readers read as it stands,
// without folding the -wal into it: verify and the other readers leave the
// file's bytes and mtime, and the -wal's, as they were. (A writer's last
// close folds it in; readers used to open the file for writing.)
func TestReadersLeaveAKilledWritersFileAlone(t *testing.T) {
	src := t.TempDir()
	db := smallCampaign(t, src)
	// Held open, this connection keeps the next writer's close from
	// folding its -wal in: a copy taken now is what a kill leaves.
	hold := openSQL(t, db)
	var n int
	if err := hold.QueryRow(`SELECT count(*) FROM events`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runDB(t, db, "xp", "award", "Ajax", "5", "--reason", "late"); code != ExitOK {
		t.Fatalf("xp award: exit %d: %s", code, stderr)
	}
	dir := copyCampaign(t, src)
	_ = hold.Close()
	img := filepath.Join(dir, "c.ltscamp")
	if st, err := os.Stat(img + "-wal"); err != nil || st.Size() == 0 {
		t.Fatalf("no -wal with events in the copy: %v", err)
	}
	file, wal := stateOf(t, img), stateOf(t, img+"-wal")
	for _, args := range readCommands {
		code, stdout, stderr := runDB(t, img, args...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		if args[0] == "verify" && !strings.Contains(stdout, "4 events") {
			t.Errorf("verify did not read the events in the -wal: %s", stdout)
		}
		if stateOf(t, img) != file || stateOf(t, img+"-wal") != wal {
			t.Fatalf("%v changed the campaign file or its -wal", args)
		}
	}
}

// TestReadersAnswerWhileAWriterHoldsTheLock: with another process holding
// the write lock (BEGIN IMMEDIATE, held open), readers answer at once; a
// campaign that needs migrating is not migrated by a reader (which would
// wait for the lock) but refused at once, exit 6, saying what to run. The
// 2 s bound is a liveness check, not a timing: a reader that waited would
// wait the 10 s busy timeout.
func TestReadersAnswerWhileAWriterHoldsTheLock(t *testing.T) {
	dir := t.TempDir()
	db := smallCampaign(t, dir)
	old := filepath.Join(dir, "old.ltscamp")
	if code, _, stderr := runDB(t, old, "init"); code != ExitOK {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	// An older ltscamp made this one: schema version 1, no snapshots.
	odb := openSQL(t, old)
	for _, q := range []string{`DROP TABLE snapshots`, `DELETE FROM schema_migrations WHERE version > 1`} {
		if _, err := odb.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	_ = odb.Close()

	within := func(path string, args ...string) (int, string) {
		t.Helper()
		type result struct {
			code   int
			stderr string
		}
		done := make(chan result, 1)
		go func() {
			code, _, stderr := runDB(t, path, args...)
			done <- result{code, stderr}
		}()
		select {
		case r := <-done:
			return r.code, r.stderr
		case <-time.After(2 * time.Second):
			t.Fatalf("%v is still waiting for the write lock after 2 s", args)
		}
		return 0, ""
	}
	for _, path := range []string{db, old} {
		release := holdWriteLock(t, path)
		if path == db {
			for _, args := range readCommands {
				if code, stderr := within(path, args...); code != ExitOK {
					t.Errorf("%v while the lock is held: exit %d: %s", args, code, stderr)
				}
			}
		} else {
			code, stderr := within(path, "sheet", "Ajax")
			if code != ExitNotCampaign || !strings.Contains(stderr, "needs upgrading") || !strings.Contains(stderr, "rebuild") {
				t.Errorf("a reader of an older campaign: exit %d, %q; want 6, saying it needs upgrading by rebuild", code, stderr)
			}
		}
		release()
	}
	// Once the lock is free, a write (rebuild) upgrades the old campaign,
	// and it reads.
	if code, _, stderr := runDB(t, old, "rebuild"); code != ExitOK {
		t.Fatalf("rebuild: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runDB(t, old, "log"); code != ExitOK {
		t.Fatalf("log after rebuild: exit %d: %s", code, stderr)
	}
}

// holdWriteLock takes the write lock of the campaign at path, as another
// process in the middle of a write does, and returns what lets it go.
func holdWriteLock(t *testing.T, path string) (release func()) {
	t.Helper()
	db := openSQL(t, path)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(fmt.Errorf("take the write lock: %w", err))
	}
	return func() {
		_, _ = conn.ExecContext(ctx, "ROLLBACK")
		_ = conn.Close()
		_ = db.Close()
	}
}
