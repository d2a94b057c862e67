package main

import (
	"errors"
	"syscall"
)

// diskFullErrno reports whether err is Windows saying the disk is full:
// ERROR_HANDLE_DISK_FULL (39) or ERROR_DISK_FULL (112), which Go does not
// match with syscall.ENOSPC.
func diskFullErrno(err error) bool {
	var errno syscall.Errno
	return errors.As(err, &errno) && (errno == 39 || errno == 112)
}
