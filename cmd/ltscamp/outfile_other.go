//go:build !windows

package main

// diskFullErrno reports whether err is the system saying the disk is full
// in words other than ENOSPC and EDQUOT: on Unix there are none.
func diskFullErrno(error) bool { return false }
