package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// Permissions of the files ltscamp writes. A backup holds the whole
// campaign, and a document (a sheet, a ledger) a part of it: both are the
// owner's alone, as the campaign file is, until the owner shares them
// (chmod, or a copy). docs/file-format.md lists the modes.
const (
	permDocument fs.FileMode = 0o600
	permBackup   fs.FileMode = 0o600
)

// openInput opens the file a command reads: standard input for "-". The
// caller closes it.
func (a *app) openInput(cmd, file string) (io.ReadCloser, error) {
	if file == "-" {
		return io.NopCloser(a.env.Stdin), nil
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, usagef("%s: %v", cmd, err)
	}
	return f, nil
}

// checkOutput refuses, before any work is done, to write over an existing
// file without force, to a directory, or into a folder that does not
// exist.
func checkOutput(path string, force bool) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return checkFolder(path)
	case err != nil:
		return outputError(path, err)
	case st.IsDir():
		return usagef("-o %s is a directory: name a file", path)
	case !force:
		return rules.Errorf(rules.CodeConflict, "%s already exists: pass --force to replace it, or choose another -o FILE (nothing was written)", path)
	}
	return nil
}

// checkFolder refuses path when the folder it names is not there: the
// user's to make, so it is said in the user's terms (exit 2), never as
// the name of a temporary file that could not be created in it.
func checkFolder(path string) error {
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR), err == nil && !st.IsDir():
		return noFolder(path)
	case err != nil:
		return outputError(path, err)
	}
	return nil
}

// noFolder is the usage error of an output path whose folder is missing.
// backup checks its FILE with checkFolder too.
func noFolder(path string) error {
	dir := filepath.Dir(path)
	return usagef("cannot write %s: there is no folder %s: make it first (mkdir -p %s), or name a file in a folder that exists (nothing was written)", path, dir, dir)
}

// outputError says why the output file path could not be written, in
// the user's terms and without the name of the temporary file it was
// written through. A full disk and a failing one are the system's
// failures (events.ErrDiskFull, events.ErrIO: exit 8); a missing folder,
// a read-only one or one this user may not write in are the user's to
// fix (exit 2).
func outputError(path string, err error) error {
	cause := err
	var pe *fs.PathError
	if errors.As(err, &pe) {
		cause = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		cause = le.Err
	}
	switch sentinel := diskFailure(cause); {
	case sentinel == events.ErrDiskFull:
		return systemError(sentinel, cause, "cannot write %s: the disk is full; nothing was written: free some space and run the command again", path)
	case sentinel == events.ErrIO:
		return systemError(sentinel, cause, "cannot write %s: the operating system could not write it (a failing disk, a network share gone); nothing was written: check the disk and run the command again", path)
	case errors.Is(cause, fs.ErrNotExist), errors.Is(cause, syscall.ENOTDIR):
		if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
			return noFolder(path)
		}
		// The folder is there but takes no new file (/proc).
		return usagef("cannot write %s: %v: its folder takes no new file; nothing was written: choose another -o FILE in a folder you can write", path, cause)
	case errors.Is(cause, fs.ErrPermission), errors.Is(cause, syscall.EROFS):
		return usagef("cannot write %s: %v; nothing was written: choose another -o FILE in a folder you can write", path, cause)
	case errors.Is(cause, syscall.ENAMETOOLONG):
		return usagef("cannot write %.60s…: %v; nothing was written: choose a shorter -o FILE", path, cause)
	}
	return fmt.Errorf("cannot write %s: %w", path, cause)
}

// diskFailure returns the events sentinel of a system error that tells
// of a full disk (ENOSPC, EDQUOT) or a failing one (EIO), nil for any
// other.
func diskFailure(err error) error {
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT), diskFullErrno(err):
		return events.ErrDiskFull
	case errors.Is(err, syscall.EIO):
		return events.ErrIO
	}
	return nil
}

// systemError is the failure of a disk under something ltscamp writes
// other than the campaign file: coded, so that it is not taken for the
// campaign file's own failure (campaign.MediumError); its sentinel, not
// its code, makes its exit status (exitCode).
func systemError(sentinel, cause error, format string, a ...any) error {
	return &rules.Error{Code: rules.CodeInternal, Message: fmt.Sprintf(format, a...) + fmt.Sprintf(" (%v)", cause), Err: mediumFailure{sentinel, cause}}
}

// writeStdout writes a document to standard output through write. A full
// or failing disk under a standard output sent to a file is the system's
// failure (exit 8), said as such, never the campaign file's or a broken
// log's.
func (a *app) writeStdout(write func(io.Writer) error) error {
	rw := &recordingWriter{w: a.env.Stdout}
	err := write(rw)
	if err == nil || rw.err == nil {
		return err
	}
	switch sentinel := diskFailure(rw.err); sentinel {
	case events.ErrDiskFull:
		return systemError(sentinel, rw.err, "cannot write to standard output: the disk is full: free some space and run the command again")
	case events.ErrIO:
		return systemError(sentinel, rw.err, "cannot write to standard output: the operating system could not write it (a failing disk, a network share gone): check the disk and run the command again")
	}
	return fmt.Errorf("cannot write to standard output: %w", rw.err)
}

// stdoutError is the error of a command that did its work but whose
// output met a full or failing disk under standard output (exit 8); nil
// for any other error writing it, and for none.
func stdoutError(err error) error {
	switch sentinel := diskFailure(err); sentinel {
	case events.ErrDiskFull:
		return systemError(sentinel, err, "standard output could not be written: the disk is full. The command itself was done (one that records, as xp award or roll, recorded it: `ltscamp log` shows it, so do not run it again)")
	case events.ErrIO:
		return systemError(sentinel, err, "standard output could not be written: the operating system failed to write it. The command itself was done (one that records, as xp award or roll, recorded it: `ltscamp log` shows it, so do not run it again)")
	}
	return nil
}

// mediumFailure is a failure of the disk under an output file or standard
// output: it matches its events sentinel and unwraps to the system's
// error.
type mediumFailure struct {
	sentinel error
	err      error
}

func (e mediumFailure) Error() string        { return e.err.Error() }
func (e mediumFailure) Unwrap() error        { return e.err }
func (e mediumFailure) Is(target error) bool { return target == e.sentinel }

// recordingWriter passes writes to w and keeps the first error w gave, so
// that a failed write is told as the disk's failure however the document
// writer above it words (or codes) the error.
type recordingWriter struct {
	w   io.Writer
	err error
}

func (r *recordingWriter) Write(p []byte) (int, error) {
	n, err := r.w.Write(p)
	if err != nil && r.err == nil {
		r.err = err
	}
	return n, err
}

// writeFileAtomic writes a file through write: into a temporary file in
// the same folder, synced, then renamed into place, so an interrupted
// write never leaves half a file under path. Without force it never
// replaces a file, even one that appeared while it wrote. On failure the
// temporary file is removed and path is untouched.
//
// A failure of the disk under it (full, failing) is an events.ErrDiskFull
// or events.ErrIO error that names path (exit 8), however write words
// the error its writer gave it.
func writeFileAtomic(path string, force bool, perm fs.FileMode, write func(w io.Writer) error) error {
	return writeFileAtomicThrough(path, force, perm, nil, write)
}

// writeFile is writeFileAtomic through the environment's output seam
// (Env.outputThrough), which tests use to put a full disk under the file.
func (a *app) writeFile(path string, force bool, perm fs.FileMode, write func(w io.Writer) error) error {
	return writeFileAtomicThrough(path, force, perm, a.env.outputThrough, write)
}

// writeFileAtomicThrough is writeFileAtomic; through, when not nil, is
// given the temporary file and returns the writer write writes to.
func writeFileAtomicThrough(path string, force bool, perm fs.FileMode, through func(io.Writer) io.Writer, write func(w io.Writer) error) (err error) {
	if err := checkOutput(path, force); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return outputError(path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	var w io.Writer = f
	if through != nil {
		w = through(f)
	}
	rw := &recordingWriter{w: w}
	if err := write(rw); err != nil {
		if rw.err != nil {
			return outputError(path, rw.err)
		}
		return err
	}
	if err := f.Chmod(perm); err != nil {
		return outputError(path, err)
	}
	if err := f.Sync(); err != nil {
		return outputError(path, err)
	}
	if err := f.Close(); err != nil {
		return outputError(path, err)
	}
	if force {
		if err := os.Rename(tmp, path); err != nil {
			return outputError(path, err)
		}
		return nil
	}
	// A hard link, unlike a rename, fails when path exists.
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return rules.Errorf(rules.CodeConflict, "%s appeared while it was being written: nothing was replaced (pass --force to replace it)", path)
		}
		if _, serr := os.Lstat(path); serr == nil {
			return rules.Errorf(rules.CodeConflict, "%s already exists: pass --force to replace it", path)
		}
		if err := os.Rename(tmp, path); err != nil {
			return outputError(path, err)
		}
		return nil
	}
	return os.Remove(tmp)
}
