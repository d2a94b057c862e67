package sqlitestore

import (
	"errors"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/ltscamp/ltscamp/events"
)

// Classify is the one place where the SQLite driver's errors become the
// store errors of package events: an error that is, or wraps, a driver
// error telling of the file or the disk (damaged, full, read-only, locked,
// failing) comes back wrapped so that errors.Is matches events.ErrDamaged,
// events.ErrDiskFull, events.ErrReadOnly, events.ErrBusy or events.ErrIO.
// Any other error, and nil, comes back as it is. The store's Append
// returns its errors classified; callers that hold other errors of the
// store (opening a file, reading it) pass them through Classify.
func Classify(err error) error {
	if err == nil {
		return nil
	}
	sentinel := mediumSentinel(err)
	if sentinel == nil || errors.Is(err, sentinel) {
		return err
	}
	return &events.Classified{Sentinel: sentinel, Err: err}
}

// mediumSentinel returns the events sentinel of err's driver error, or nil
// when err is none of the medium's.
func mediumSentinel(err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return nil
	}
	// SQLite could not grow the -shm a WAL file is read and written
	// through: "this error may indicate that the underlying filesystem
	// volume is out of space" (sqlite.org/rescode.html), and on a disk
	// with no room left that is what it is.
	if se.Code() == sqlite3.SQLITE_IOERR_SHMSIZE {
		return events.ErrDiskFull
	}
	// Extended result codes keep the primary code in their low byte
	// (SQLITE_IOERR_SHORT_READ is SQLITE_IOERR | 2<<8).
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return events.ErrDamaged
	case sqlite3.SQLITE_FULL:
		return events.ErrDiskFull
	case sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_AUTH:
		return events.ErrReadOnly
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return events.ErrBusy
	case sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_NOLFS:
		return events.ErrIO
	}
	return nil
}
