package pgtest

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Session is a test's own connection to a database, for what a test does
// beside the store: count rows, hold a lock another session must wait
// for, change the schema as a careless administrator would. It keeps pgx
// inside events/pgstore: tests elsewhere use a Session, not the driver.
type Session struct {
	t    testing.TB
	conn *pgx.Conn
}

// Connect opens a Session on the database dsn names; a cleanup of t
// closes it.
func Connect(t testing.TB, dsn string) *Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("pgtest: connect to %s: %v", dsn, err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return &Session{t: t, conn: conn}
}

// Exec runs sql and returns its error: a test that expects a refusal
// (an UPDATE of the events) looks at it.
func (s *Session) Exec(sql string, args ...any) error {
	_, err := s.conn.Exec(context.Background(), sql, args...)
	return err
}

// Int runs a query of one integer (a count) and returns it; an error
// fails the test.
func (s *Session) Int(sql string, args ...any) int64 {
	s.t.Helper()
	var n int64
	if err := s.conn.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		s.t.Fatalf("pgtest: %s: %v", sql, err)
	}
	return n
}
