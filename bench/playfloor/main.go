// Command playfloor is the floor of a thousand logged actions in one
// process, which `ltscamp play` is measured against (issue 23: an action
// inside play costs at most twice a bare insert on the same driver in the
// same process). It opens a fresh SQLite file with the mandated driver
// (modernc.org/sqlite) in WAL mode with synchronous=FULL, as ltscamp does,
// makes N single-row inserts of a 300-byte row (about an event's size),
// each its own transaction, and prints the elapsed milliseconds of the
// inserts (the open is not counted) on standard output.
//
//	go run ./bench/playfloor [-n 1000] FILE   (FILE must not exist)
package main

import (
	"crypto/rand"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite"
)

func main() {
	n := flag.Int("n", 1000, "how many inserts, each its own transaction")
	flag.Parse()
	if flag.NArg() != 1 || *n < 1 {
		fmt.Fprintln(os.Stderr, "usage: playfloor [-n N] FILE")
		os.Exit(2)
	}
	ms, err := inserts(flag.Arg(0), *n)
	if err != nil {
		fmt.Fprintln(os.Stderr, "playfloor:", err)
		os.Exit(1)
	}
	fmt.Printf("%.1f\n", ms)
}

// inserts makes n single-row inserts into a new file at path and returns
// how long they took, in milliseconds.
func inserts(path string, n int) (float64, error) {
	path, err := filepath.Abs(path) // a file: URI takes no relative path
	if err != nil {
		return 0, err
	}
	if _, err := os.Lstat(path); err == nil {
		return 0, errors.New(path + " exists: give the path of a new file")
	}
	u := url.URL{Scheme: "file", Path: path, RawQuery: "_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return 0, err
	}
	defer db.Close()
	// One connection, as ltscamp's writer holds: the pragmas hold on it.
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("CREATE TABLE t(seq INTEGER PRIMARY KEY, x BLOB NOT NULL)"); err != nil {
		return 0, err
	}
	row := make([]byte, 300)
	start := time.Now()
	for i := 0; i < n; i++ {
		if _, err := rand.Read(row); err != nil {
			return 0, err
		}
		if _, err := db.Exec("INSERT INTO t(x) VALUES (?)", row); err != nil {
			return 0, err
		}
	}
	return float64(time.Since(start).Microseconds()) / 1000, nil
}
