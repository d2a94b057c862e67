package main

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
)

// runThrough is run with every output file's contents sent through
// through (Env.outputThrough).
func runThrough(t *testing.T, dir string, through func(io.Writer) io.Writer, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{
		Args:   append([]string{"--db", filepath.Join(dir, "c.ltscamp"), "--actor", "gm"}, args...),
		Stdin:  strings.NewReader(""),
		Stdout: &out, Stderr: &errb,
		Getenv:        func(string) string { return "" },
		Now:           func() time.Time { return time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC) },
		outputThrough: through,
	}
	code = Main(env)
	return code, out.String(), errb.String()
}

// devFull opens /dev/full, the device every write to fails with ENOSPC:
// a full disk without mounting one.
func devFull(t *testing.T) *os.File {
	t.Helper()
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full on this system to stand for a full disk: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// outputCampaign makes a campaign with one character for the export tests.
func outputCampaign(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"init"},
		{"char", "new", "Kira", "--st", "10", "--dx", "12", "--iq", "10"},
		{"xp", "award", "Kira", "3", "--reason", "a good night"},
	} {
		if code, _, stderr := run(t, dir, args...); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	return dir
}

// noFilesBut fails when dir holds a file not named in keep: a failed
// export leaves neither its file nor a temporary one behind.
func noFilesBut(t *testing.T, dir string, keep ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		// The campaign's own files: the file, its -wal and -shm, and the
		// record of its last write (.c.ltscamp.checked).
		campaignFile := strings.HasPrefix(e.Name(), "c.ltscamp") || e.Name() == ".c.ltscamp.checked"
		if !campaignFile && !contains(keep, e.Name()) {
			t.Errorf("%s left behind", e.Name())
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestExportFullDisk: an export whose file meets a full disk exits 8 and
// says the disk is full, naming the file it was asked for (not a
// temporary one), whatever the format: `export log -o` once exited 7 (its
// writer's error was taken for a broken log) and a PDF 1. The disk is
// /dev/full, whose every write fails with the kernel's own ENOSPC.
func TestExportFullDisk(t *testing.T) {
	dir := outputCampaign(t)
	full := devFull(t)
	through := func(io.Writer) io.Writer { return full }
	for _, args := range [][]string{
		{"export", "log", "-o"},
		{"export", "sheet", "Kira", "-o"},
		{"export", "party", "-o"},
		{"export", "audit", "Kira", "-o"},
	} {
		for _, ext := range []string{".ndjson", ".ndjson.gz", ".pdf", ".md", ".json"} {
			if (args[1] == "log") != strings.HasPrefix(ext, ".ndjson") {
				continue
			}
			out := filepath.Join(dir, "out"+ext)
			argv := append(append([]string{}, args...), out)
			code, _, stderr := runThrough(t, dir, through, argv...)
			if code != ExitSystem {
				t.Errorf("%v: exit %d, want %d (%s)", argv, code, ExitSystem, stderr)
			}
			want := "ltscamp: cannot write " + out + ": the disk is full; nothing was written"
			if !strings.HasPrefix(stderr, want) || strings.Contains(stderr, ".tmp") || strings.Contains(stderr, "appended") {
				t.Errorf("%v: stderr %q, want it to begin %q and name no temporary file", argv, stderr, want)
			}
			noFilesBut(t, dir)
		}
	}
	// The same command with room on the disk writes the file.
	if code, _, stderr := run(t, dir, "export", "log", "-o", filepath.Join(dir, "ok.ndjson")); code != ExitOK {
		t.Fatalf("export log with room: exit %d: %s", code, stderr)
	}
	noFilesBut(t, dir, "ok.ndjson")
}

// TestExportMissingFolder: -o into a folder that is not there is the
// user's to fix: exit 2, the folder named, no temporary file's name shown
// (it once exited 1 with "open DIR/.x.md.123.tmp: no such file"), and
// so is backup's FILE (which said "no campaign at FILE", exit 6).
func TestExportMissingFolder(t *testing.T) {
	dir := outputCampaign(t)
	if err := os.WriteFile(filepath.Join(dir, "plain"), []byte("a file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ out, folder string }{
		{filepath.Join(dir, "no", "such", "kira.md"), filepath.Join(dir, "no", "such")},
		{filepath.Join(dir, "no", "such", "kira.pdf"), filepath.Join(dir, "no", "such")},
		{filepath.Join(dir, "plain", "kira.md"), filepath.Join(dir, "plain")},
	} {
		for _, args := range [][]string{{"export", "sheet", "Kira", "-o", c.out}, {"export", "log", "-o", c.out}, {"backup", c.out}} {
			code, _, stderr := run(t, dir, args...)
			if code != ExitUsage {
				t.Errorf("%v: exit %d, want %d (%s)", args, code, ExitUsage, stderr)
			}
			if !strings.Contains(stderr, "no folder "+c.folder+":") || strings.Contains(stderr, ".tmp") {
				t.Errorf("%v: stderr %q does not name the folder %s, or names a temporary file", args, stderr, c.folder)
			}
		}
	}
}

// TestOutputOddPlaces: an -o FILE in a folder that takes no file (/proc),
// or with a name too long for the file system, is the user's to change:
// exit 2, never 1.
func TestOutputOddPlaces(t *testing.T) {
	dir := outputCampaign(t)
	outs := []string{filepath.Join(dir, strings.Repeat("x", 300)+".md")}
	if st, err := os.Stat("/proc/self"); err == nil && st.IsDir() {
		outs = append(outs, "/proc/ltscamp-test.md")
	}
	for _, out := range outs {
		code, _, stderr := run(t, dir, "export", "sheet", "Kira", "-o", out)
		if code != ExitUsage || strings.Contains(stderr, ".tmp") || strings.Contains(stderr, "no folder") {
			t.Errorf("-o %.40s…: exit %d, %q; want %d, and no missing folder", out, code, stderr, ExitUsage)
		}
	}
}

// TestOutputError: each failure of an output file's disk or folder has
// its row of the exit-code table and names the file, never the temporary
// one it was written through.
func TestOutputError(t *testing.T) {
	full := devFull(t)
	_, enospc := full.Write([]byte("x"))
	if !errors.Is(enospc, syscall.ENOSPC) {
		t.Fatalf("a write to /dev/full gave %v, not ENOSPC", enospc)
	}
	tmp := func(errno error) error {
		return &fs.PathError{Op: "write", Path: "/d/.x.pdf.123.tmp", Err: errno}
	}
	cases := []struct {
		err      error
		code     int
		sentinel error
		words    string
	}{
		{enospc, ExitSystem, events.ErrDiskFull, "cannot write /d/x.pdf: the disk is full; nothing was written"},
		{tmp(syscall.ENOSPC), ExitSystem, events.ErrDiskFull, "cannot write /d/x.pdf: the disk is full; nothing was written"},
		{tmp(syscall.EDQUOT), ExitSystem, events.ErrDiskFull, "cannot write /d/x.pdf: the disk is full; nothing was written"},
		{tmp(syscall.EIO), ExitSystem, events.ErrIO, "cannot write /d/x.pdf: the operating system could not write it"},
		{tmp(syscall.ENOENT), ExitUsage, nil, "cannot write /d/x.pdf: there is no folder /d:"},
		{tmp(syscall.EACCES), ExitUsage, nil, "cannot write /d/x.pdf: permission denied; nothing was written"},
		{tmp(syscall.EROFS), ExitUsage, nil, "cannot write /d/x.pdf: read-only file system; nothing was written"},
		{tmp(syscall.ENAMETOOLONG), ExitUsage, nil, "cannot write /d/x.pdf…: file name too long; nothing was written"},
	}
	for _, c := range cases {
		err := outputError("/d/x.pdf", c.err)
		if got := exitCode(err); got != c.code {
			t.Errorf("%v: exit %d, want %d", c.err, got, c.code)
		}
		if !strings.HasPrefix(err.Error(), c.words) || strings.Contains(err.Error(), ".tmp") {
			t.Errorf("%v: message %q, want it to begin %q", c.err, err, c.words)
		}
		if c.sentinel != nil && !errors.Is(err, c.sentinel) {
			t.Errorf("%v: %q does not match %v", c.err, err, c.sentinel)
		}
	}
}

// TestExportStdoutFullDisk: an export sent to standard output, itself a
// file on a full disk, exits 8 and says standard output could not be
// written: `export log > x.ndjson` once exited 7 (a broken log), and
// `export sheet > x.md` 1.
func TestExportStdoutFullDisk(t *testing.T) {
	dir := outputCampaign(t)
	full := devFull(t)
	for _, args := range [][]string{
		{"export", "log"},
		{"export", "sheet", "Kira"},
		{"export", "party", "--format", "json"},
		{"export", "timeline"},
	} {
		code, errb := runToStdout(dir, full, args...)
		if code != ExitSystem {
			t.Errorf("%v > /dev/full: exit %d, want %d (%s)", args, code, ExitSystem, errb.String())
		}
		if want := "ltscamp: cannot write to standard output: the disk is full"; !strings.HasPrefix(errb.String(), want) {
			t.Errorf("%v > /dev/full: %q, want it to begin %q", args, errb.String(), want)
		}
	}
}

// runToStdout runs ltscamp on the campaign in dir with its standard
// output sent to out, and returns the exit status and standard error.
func runToStdout(dir string, out io.Writer, args ...string) (int, *bytes.Buffer) {
	var errb bytes.Buffer
	env := &Env{
		Args:   append([]string{"--db", filepath.Join(dir, "c.ltscamp"), "--actor", "gm"}, args...),
		Stdin:  strings.NewReader(""),
		Stdout: out, Stderr: &errb,
		Getenv: func(string) string { return "" },
		Now:    func() time.Time { return time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC) },
	}
	return Main(env), &errb
}

// TestStdoutFullDisk: any command whose standard output, sent to a file,
// meets a full disk exits 8 and says so; one that records says its work
// was done, so that it is not run twice. `log > FILE` and the other read
// commands once exited 0 with the file cut short, and `--json` ones 1.
func TestStdoutFullDisk(t *testing.T) {
	dir := outputCampaign(t)
	full := devFull(t)
	for _, args := range [][]string{
		{"log"}, {"sheet", "Kira"}, {"party"}, {"char", "list", "--json"}, {"timeline"}, {"verify"},
		{"xp", "award", "Kira", "2", "--reason", "kept", "--json"},
	} {
		code, errb := runToStdout(dir, full, args...)
		want := "ltscamp: standard output could not be written: the disk is full. The command itself was done"
		if code != ExitSystem || !strings.Contains(errb.String(), want) {
			t.Errorf("%v > /dev/full: exit %d, %q; want %d and %q", args, code, errb.String(), ExitSystem, want)
		}
	}
	if out := mustRun(t, dir, "log"); !strings.Contains(out, "kept") {
		t.Errorf("the award whose output met the full disk is not in the log:\n%s", out)
	}
}
