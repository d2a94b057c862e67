//go:build !unix

package sqlitestore

import (
	"io/fs"
	"os"
)

// devIno returns 0, 0 where stat has no device and inode: the size and
// modification time are compared alone.
func devIno(fs.FileInfo) (dev, ino uint64) { return 0, 0 }

// writeAt writes b at the start of the file at path, creating it (mode
// 0600), never truncating it (open has no O_NOFOLLOW here).
func writeAt(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.WriteAt(b, 0)
	cerr := f.Close()
	if werr != nil {
		return werr
	}
	return cerr
}
