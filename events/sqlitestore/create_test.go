package sqlitestore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// createSteps are the steps CreateWith reports to Options.step, in order.
var createSteps = []string{"temp", "schema", "filled", "closed", "synced", "placed", "published"}

// fillOne is a CreateWith fill that appends one command, standing for
// the campaign.created event.
func fillOne(s *Store) error {
	_, err := s.Append(cmd("C1", "campaign"))
	return err
}

// copyDir copies every regular file of src into a new directory: the
// files as a process killed at that moment would leave them (the kernel
// keeps what was written; only a power cut loses unsynced data).
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// assertUsable checks the state a create left at path: either a whole
// campaign, whose log holds fillOne's event, or nothing that stops a new
// create there.
func assertUsable(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		s, err := CreateWith(path, testOpts, fillOne)
		if err != nil {
			t.Fatalf("nothing at %s, but a new create fails: %v", filepath.Base(path), err)
		}
		_ = s.Close()
		return
	}
	s, err := OpenReadOnly(path)
	if err != nil {
		t.Fatalf("%s is there but does not open: %v", filepath.Base(path), err)
	}
	defer s.Close()
	if n, err := s.Count(); err != nil || n != 1 {
		t.Fatalf("%s is there with %d events (%v), want the whole campaign's 1", filepath.Base(path), n, err)
	}
}

// initTemps lists the temporary files of a create of path left in its
// folder.
func initTemps(t *testing.T, path string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+InitTempPrefix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCreateKilledAtEveryStep: a process killed at any step of a create
// leaves, under the campaign's name, nothing or the whole campaign with
// its first events; never an empty file, a bare schema or a file a new
// create refuses. The kill is simulated by copying the folder as it is
// when each step is done.
func TestCreateKilledAtEveryStep(t *testing.T) {
	for _, stop := range createSteps {
		t.Run(stop, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "c.ltscamp")
			var image string
			opts := testOpts
			opts.step = func(name string) error {
				if name == stop {
					image = copyDir(t, dir)
				}
				return nil
			}
			s, err := CreateWith(path, opts, fillOne)
			if err != nil {
				t.Fatal(err)
			}
			_ = s.Close()
			if image == "" {
				t.Fatalf("step %q was never reached", stop)
			}
			assertUsable(t, filepath.Join(image, "c.ltscamp"))
		})
	}
}

// TestCreateFailingAtEveryStep: a create that fails at any step returns
// the error and leaves nothing at the path (before the file is placed) or
// the whole campaign (after), and no temporary file before it is placed.
func TestCreateFailingAtEveryStep(t *testing.T) {
	for i, stop := range createSteps {
		t.Run(stop, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "c.ltscamp")
			boom := errors.New("boom at " + stop)
			opts := testOpts
			opts.step = func(name string) error {
				if name == stop {
					return boom
				}
				return nil
			}
			if _, err := CreateWith(path, opts, fillOne); !errors.Is(err, boom) {
				t.Fatalf("err = %v, want %v", err, boom)
			}
			placed := i >= 5 // "placed" and after
			if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) == placed {
				t.Fatalf("after a failure at %q, a file at the path: %v (want one: %v)", stop, err == nil, placed)
			}
			if tmps := initTemps(t, path); !placed && len(tmps) > 0 {
				t.Fatalf("temporary files left: %v", tmps)
			}
			assertUsable(t, path)
		})
	}
	t.Run("fill", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "c.ltscamp")
		boom := errors.New("the first event is refused")
		if _, err := CreateWith(path, testOpts, func(*Store) error { return boom }); !errors.Is(err, boom) {
			t.Fatalf("err = %v, want %v", err, boom)
		}
		if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("a failed fill left a file at the path: %v", err)
		}
		if tmps := initTemps(t, path); len(tmps) > 0 {
			t.Fatalf("temporary files left: %v", tmps)
		}
	})
}

// TestCreateIgnoresStaleTemporaryFiles: the temporary file of a killed
// create is never reused, and does not stop the next one.
func TestCreateIgnoresStaleTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.ltscamp")
	stale := filepath.Join(dir, ".c.ltscamp"+InitTempPrefix+"123456")
	if err := os.WriteFile(stale, []byte("SQLite format 3\x00half a campaign"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := CreateWith(path, testOpts, fillOne)
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	assertUsable(t, path)
	if b, _ := os.ReadFile(stale); !strings.HasSuffix(string(b), "half a campaign") {
		t.Fatal("the stale temporary file was reused")
	}
}

// TestCreateRefusesSymlinks: a symbolic link at the path, to an empty file
// or to nothing, is refused with ErrSymlink and left as it was, and
// nothing is written where it points.
func TestCreateRefusesSymlinks(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "elsewhere.ltscamp")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"to-empty": empty, "dangling": filepath.Join(dir, "nowhere.ltscamp")} {
		t.Run(name, func(t *testing.T) {
			link := filepath.Join(dir, name+".ltscamp")
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
			_, err := Create(link, testOpts)
			if !errors.Is(err, ErrSymlink) || !strings.Contains(err.Error(), link) {
				t.Fatalf("err = %v, want ErrSymlink naming the link", err)
			}
			if got, err := os.Readlink(link); err != nil || got != target {
				t.Fatalf("the link is now %q, %v", got, err)
			}
			if st, err := os.Stat(empty); err != nil || st.Size() != 0 {
				t.Fatal("the file the link points to was written")
			}
			if _, err := os.Lstat(filepath.Join(dir, "nowhere.ltscamp")); !errors.Is(err, fs.ErrNotExist) {
				t.Fatal("a file was created where the dangling link points")
			}
			if tmps := initTemps(t, link); len(tmps) > 0 {
				t.Fatalf("temporary files left: %v", tmps)
			}
		})
	}
}

// TestCreateReplacesAnEmptyFileWhole: an empty regular file at the path
// (touch, mktemp) is replaced by the new campaign, not written in place:
// another name for it (a hard link) still sees an empty file.
func TestCreateReplacesAnEmptyFileWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.ltscamp")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other-name")
	if err := os.Link(path, other); err != nil {
		t.Fatal(err)
	}
	s, err := CreateWith(path, testOpts, fillOne)
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	assertUsable(t, path)
	if st, err := os.Stat(other); err != nil || st.Size() != 0 {
		t.Fatalf("the empty file's other name changed: %v", err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", st.Mode().Perm())
	}
}

// TestCreatedFileMode: a new campaign file is its owner's alone, and so
// are the -wal and -shm SQLite makes beside it, whatever the umask.
func TestCreatedFileMode(t *testing.T) {
	s := newTestStore(t)
	mustAppend(t, s, cmd("C1", "a")) // the -wal and -shm exist now
	for _, suffix := range []string{"", "-wal", "-shm"} {
		st, err := os.Stat(s.Path() + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", filepath.Base(s.Path()+suffix), st.Mode().Perm())
		}
	}
}

// TestCreateFailsWithoutLeavingTemporaryFiles: a path that cannot hold a
// campaign (a folder in the way, a missing folder) fails with nothing
// left behind.
func TestCreateFailsWithoutLeavingTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub.ltscamp")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{sub, filepath.Join(dir, "missing", "c.ltscamp")} {
		if _, err := Create(path, testOpts); err == nil {
			t.Fatalf("Create(%s) succeeded", path)
		}
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("files left: %v", fmt.Sprint(ents))
	}
}
