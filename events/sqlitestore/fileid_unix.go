//go:build unix

package sqlitestore

import (
	"io/fs"
	"syscall"
)

// devIno returns the device and inode of a file stat'ed.
func devIno(st fs.FileInfo) (dev, ino uint64) {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Dev), uint64(s.Ino) //nolint:unconvert // int32 on some systems
	}
	return 0, 0
}

// noFollow makes an open refuse a symbolic link in the last place of the
// path: the guard's record is written over in place, never through a
// link planted where it goes.
const noFollow = syscall.O_NOFOLLOW
