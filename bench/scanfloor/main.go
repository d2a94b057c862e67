// Command scanfloor is the floor of a read of the whole log for a Go
// program on the mandated SQLite driver (modernc.org/sqlite): it opens a
// campaign file read-only, reads every row of its events, every column, in
// seq order, through database/sql, and exits. bench/long-campaign.sh sets
// the reads that fold the whole log beside it (party and char list on a
// campaign with no snapshots): what they take beyond it is ltscamp's.
//
//	go run ./bench/scanfloor FILE
package main

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: scanfloor FILE")
		os.Exit(2)
	}
	n, err := scan(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "scanfloor:", err)
		os.Exit(1)
	}
	fmt.Println(n, "events")
}

func scan(path string) (int, error) {
	path, err := filepath.Abs(path) // a file: URI takes no relative path
	if err != nil {
		return 0, err
	}
	u := url.URL{Scheme: "file", Path: path, RawQuery: "mode=ro"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return 0, err
	}
	defer db.Close()
	rows, err := db.Query(`SELECT seq, id, command_id, stream, stream_version, type, payload_version, payload, actor, recorded_at, prev_hash, hash FROM events ORDER BY seq`)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var seq, version, payloadVersion int64
		var id, command, stream, typ, actor, recorded, prev, hash string
		var payload []byte
		if err := rows.Scan(&seq, &id, &command, &stream, &version, &typ, &payloadVersion, &payload, &actor, &recorded, &prev, &hash); err != nil {
			return n, err
		}
		n++
	}
	return n, rows.Err()
}
