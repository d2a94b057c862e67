package importers

import (
	"bufio"
	"bytes"
	"io"
)

// BackupKind is what a file to restore holds, told by its first bytes and
// never by its name.
type BackupKind int

const (
	// BackupUnknown is neither kind.
	BackupUnknown BackupKind = iota
	// BackupCampaign is an SQLite file: a campaign, as `ltscamp backup`
	// copies it.
	BackupCampaign
	// BackupLog is an NDJSON log, as `ltscamp export log` writes it,
	// gzip-compressed or not.
	BackupLog
)

// sqliteHeader opens every SQLite 3 database file.
const sqliteHeader = "SQLite format 3\x00"

// SniffBackup tells what kind of backup r holds from its first bytes,
// and returns a reader that gives all of r again from its start (for a
// log, decompressed when it was gzip-compressed). A log starts with a JSON
// object (its header); a campaign file with SQLite's header.
func SniffBackup(r io.Reader) (BackupKind, io.Reader, error) {
	br := bufio.NewReader(r)
	head, err := br.Peek(len(sqliteHeader))
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return BackupUnknown, br, err
	}
	if string(head) == sqliteHeader {
		return BackupCampaign, br, nil
	}
	dr, err := Decompress(br)
	if err != nil {
		return BackupUnknown, br, err
	}
	lr := bufio.NewReader(dr)
	first, _ := lr.Peek(64)
	if t := bytes.TrimLeft(first, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		return BackupLog, lr, nil
	}
	return BackupUnknown, lr, nil
}
