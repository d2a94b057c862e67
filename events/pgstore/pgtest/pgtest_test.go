package pgtest_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ltscamp/ltscamp/events/pgstore/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// connect opens a connection to dsn that the test's cleanups close.
func connect(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connect %s: %v", dsn, err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// mustExec runs sql on conn or fails the test.
func mustExec(t *testing.T, conn *pgx.Conn, sql string, args ...any) {
	t.Helper()
	if _, err := conn.Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func TestDatabaseTakesATable(t *testing.T) {
	conn := connect(t, pgtest.Database(t))
	mustExec(t, conn, "CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL)")
	mustExec(t, conn, "INSERT INTO notes VALUES (1, $1)", "héllo")
	var body, encoding string
	if err := conn.QueryRow(context.Background(), "SELECT body, current_setting('server_encoding') FROM notes WHERE id = 1").Scan(&body, &encoding); err != nil {
		t.Fatal(err)
	}
	if body != "héllo" || encoding != "UTF8" {
		t.Errorf("got %q in %s, want %q in UTF8", body, encoding, "héllo")
	}
}

func TestDatabasesAreIsolated(t *testing.T) {
	a, b := pgtest.Database(t), pgtest.Database(t)
	if a == b {
		t.Fatalf("two Database calls gave the same DSN %s", a)
	}
	ca, cb := connect(t, a), connect(t, b)
	mustExec(t, ca, "CREATE TABLE only_in_a (x int)")
	var nameA, nameB string
	var seen bool
	if err := ca.QueryRow(context.Background(), "SELECT current_database()").Scan(&nameA); err != nil {
		t.Fatal(err)
	}
	if err := cb.QueryRow(context.Background(),
		"SELECT current_database(), to_regclass('public.only_in_a') IS NOT NULL").Scan(&nameB, &seen); err != nil {
		t.Fatal(err)
	}
	if nameA == nameB {
		t.Errorf("both DSNs lead to database %s", nameA)
	}
	if seen {
		t.Errorf("database %s sees the table created in %s", nameB, nameA)
	}
}

func TestRestartKeepsCommitted(t *testing.T) {
	dsn := pgtest.Database(t)
	conn := connect(t, dsn)
	mustExec(t, conn, "CREATE TABLE kept (x int)")
	mustExec(t, conn, "INSERT INTO kept VALUES (42)")
	var before time.Time
	if err := conn.QueryRow(context.Background(), "SELECT pg_postmaster_start_time()").Scan(&before); err != nil {
		t.Fatal(err)
	}

	pgtest.Restart(t)

	if err := conn.Ping(context.Background()); err == nil {
		t.Error("a session survived Restart: the server did not go down")
	}
	conn = connect(t, dsn)
	var x int
	var after time.Time
	if err := conn.QueryRow(context.Background(), "SELECT x, pg_postmaster_start_time() FROM kept").Scan(&x, &after); err != nil {
		t.Fatalf("after Restart: %v", err)
	}
	if x != 42 {
		t.Errorf("after Restart got %d, want the committed 42", x)
	}
	if !after.After(before) {
		t.Errorf("the server's start time went from %v to %v: it was not restarted", before, after)
	}
}

func TestBinFindsPgCtl(t *testing.T) {
	if _, err := pgtest.Bin("pg_ctl"); err != nil {
		t.Skip(err) // Server says whether that matters (it fails under CI)
	}
	if _, err := pgtest.Bin("no-such-postgres-program"); err == nil {
		t.Error("Bin found a program that does not exist")
	}
}
