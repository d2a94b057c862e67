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

// writeAt writes b at the start of the file at path, creating it (mode
// 0600) but never following a symbolic link there (the guard's record is
// written over in place, never through a link planted where it goes), and
// never truncating it. It goes straight to the system calls: os.OpenFile would register
// the file with the runtime's poller, which costs more than the write on
// a write made after every append.
func writeAt(path string, b []byte) error {
	fd, err := syscall.Open(path, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return err
	}
	_, werr := syscall.Pwrite(fd, b, 0)
	cerr := syscall.Close(fd)
	if werr != nil {
		return werr
	}
	return cerr
}
