//go:build !unix

package sqlitestore

import "io/fs"

// devIno returns 0, 0 where stat has no device and inode: the size and
// modification time are compared alone.
func devIno(fs.FileInfo) (dev, ino uint64) { return 0, 0 }

// noFollow is 0 where open has no O_NOFOLLOW.
const noFollow = 0
