package pgstore

import "testing"

// TestLoopbackPlain: a server on this machine is reached without TLS
// unless the address says how; a server elsewhere keeps pgx's default.
func TestLoopbackPlain(t *testing.T) {
	t.Setenv("PGSSLMODE", "")
	t.Setenv("PGHOST", "")
	for in, want := range map[string]string{
		"postgres://gm@localhost/camp":                     "postgres://gm@localhost/camp?sslmode=disable",
		"postgres://gm@127.0.0.1:5433/camp":                "postgres://gm@127.0.0.1:5433/camp?sslmode=disable",
		"postgres://gm@[::1]:5433/camp":                    "postgres://gm@[::1]:5433/camp?sslmode=disable",
		"postgres://gm@/camp?host=/var/run/postgresql":     "postgres://gm@/camp?host=%2Fvar%2Frun%2Fpostgresql&sslmode=disable",
		"postgres://gm@localhost/camp?sslmode=verify-full": "postgres://gm@localhost/camp?sslmode=verify-full",
		"postgres://gm@db.example.org/camp":                "postgres://gm@db.example.org/camp",
		"postgres://gm@10.0.0.5/camp":                      "postgres://gm@10.0.0.5/camp",
	} {
		if got := loopbackPlain(in); got != want {
			t.Errorf("loopbackPlain(%s) = %s, want %s", in, got, want)
		}
	}
	t.Setenv("PGSSLMODE", "require")
	if got := loopbackPlain("postgres://gm@localhost/camp"); got != "postgres://gm@localhost/camp" {
		t.Errorf("with PGSSLMODE set: %s, want the address as it was", got)
	}
}
