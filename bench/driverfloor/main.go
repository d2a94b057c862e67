// Command driverfloor is the floor of a logged action for a Go program on
// the mandated SQLite driver (modernc.org/sqlite): it opens a WAL file with
// synchronous=FULL, as ltscamp does, inserts one 300-byte row, and exits.
// bench/long-campaign.sh sets it beside the stock sqlite3 CLI doing the
// same insert, and beside `ltscamp roll`: the gap between it and sqlite3
// is the driver's and the Go runtime's, not ltscamp's.
//
//	go run ./bench/driverfloor FILE   (FILE holds a table t(x))
package main

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"

	_ "modernc.org/sqlite"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: driverfloor FILE")
		os.Exit(2)
	}
	if err := insert(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "driverfloor:", err)
		os.Exit(1)
	}
}

func insert(path string) error {
	u := url.URL{Scheme: "file", Path: path, RawQuery: "_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return err
	}
	if _, err := db.Exec("INSERT INTO t VALUES (randomblob(300))"); err != nil {
		db.Close()
		return err
	}
	return db.Close()
}
