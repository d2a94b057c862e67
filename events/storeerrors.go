package events

import "errors"

// Sentinel errors of a store's medium: what the file or the disk under a
// store did, as opposed to what a command asked. A store wraps the error
// its medium gave in one of these (errors.Is finds the sentinel, the
// message keeps the medium's own words), so that callers can tell the
// user what happened and what to do without knowing the medium.
var (
	// ErrDamaged means the store's file is damaged: truncated, with pages
	// overwritten, or not the database it claims to be. Nothing can be
	// appended to it; it must be restored from a backup.
	ErrDamaged = errors.New("the campaign file is damaged")
	// ErrDiskFull means the disk or the file system has no room left for
	// the write.
	ErrDiskFull = errors.New("the disk is full")
	// ErrReadOnly means the store's file, its folder or its side files
	// cannot be written.
	ErrReadOnly = errors.New("the campaign file cannot be written")
	// ErrBusy means another process held the store locked for longer than
	// the store waits.
	ErrBusy = errors.New("the campaign file is locked by another process")
	// ErrIO means the operating system failed to read or write the file.
	ErrIO = errors.New("the operating system could not read or write the campaign file")
	// ErrUnreachable means the database server that holds the campaign
	// could not be reached, or the connection to it was lost.
	ErrUnreachable = errors.New("the database server cannot be reached")
	// ErrDenied means the database server refused the user: a wrong
	// password, an unknown role, or a role without the rights the
	// command needs.
	ErrDenied = errors.New("the database server refused access")
	// ErrBrokenHead means the last events of the log do not chain: the log
	// was changed, and nothing may be appended to it until it is verified.
	ErrBrokenHead = errors.New("the head of the log fails its hash check")
)

// Classified is a store's error that tells of its medium, classified: it
// matches Sentinel (errors.Is) and still unwraps to Err, the medium's own
// error, whose words it keeps. The stores' Classify functions return it.
type Classified struct {
	Sentinel error
	Err      error
}

func (e *Classified) Error() string        { return e.Err.Error() }
func (e *Classified) Unwrap() error        { return e.Err }
func (e *Classified) Is(target error) bool { return target == e.Sentinel }
