package sqlitestore

import (
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
)

// TestClassify makes SQLite fail for real in each way Classify sorts, and
// checks the sentinel it wraps the driver's error in, words kept.
func TestClassify(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.db")
	open := func(params string) *sql.DB {
		t.Helper()
		dsn, err := fileURI(path, params)
		if err != nil {
			t.Fatal(err)
		}
		db, err := sql.Open("sqlite", dsn)
		if err != nil {
			t.Fatal(err)
		}
		db.SetMaxOpenConns(1)
		t.Cleanup(func() { db.Close() })
		return db
	}
	rw := open("mode=rwc&_pragma=journal_mode(WAL)")
	if _, err := rw.Exec(`CREATE TABLE t (x TEXT)`); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		fail func() error
		want error
	}{
		{"disk full (max_page_count reached)", func() error {
			db := open("mode=rw&_pragma=max_page_count(3)")
			_, err := db.Exec(`INSERT INTO t VALUES (?)`, strings.Repeat("x", 64<<10))
			return err
		}, events.ErrDiskFull},
		{"read-only", func() error {
			db := open("mode=ro")
			_, err := db.Exec(`INSERT INTO t VALUES ('x')`)
			return err
		}, events.ErrReadOnly},
		{"locked too long", func() error {
			holder := open("mode=rw")
			if _, err := holder.Exec(`BEGIN EXCLUSIVE`); err != nil {
				return fmt.Errorf("the lock itself: %w", err)
			}
			defer holder.Exec(`ROLLBACK`)
			db := open("mode=rw&_pragma=busy_timeout(50)")
			_, err := db.Exec(`BEGIN IMMEDIATE`)
			return err
		}, events.ErrBusy},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.fail()
			if err == nil {
				t.Fatal("SQLite did not fail")
			}
			wrapped := fmt.Errorf("append command X: %w", err)
			got := Classify(wrapped)
			if !errors.Is(got, c.want) {
				t.Fatalf("Classify(%v) does not match %v", err, c.want)
			}
			for _, other := range []error{events.ErrDamaged, events.ErrDiskFull, events.ErrReadOnly, events.ErrBusy, events.ErrIO} {
				if other != c.want && errors.Is(got, other) {
					t.Errorf("Classify(%v) also matches %v", err, other)
				}
			}
			if got.Error() != wrapped.Error() {
				t.Errorf("the words changed: %q, was %q", got, wrapped)
			}
			if again := Classify(got); again != got {
				t.Errorf("classifying twice wraps twice")
			}
		})
	}
	if err := errors.New("no row"); Classify(err) != err {
		t.Errorf("an error not the driver's was wrapped")
	}
	if Classify(nil) != nil {
		t.Errorf("Classify(nil) is not nil")
	}
}
