package main

import (
	"net/url"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events/pgstore/pgtest"
)

// TestPostgresExitCodes checks the exit status and the words of each way
// a campaign on a server can fail, and that none of them wrote anything.
func TestPostgresExitCodes(t *testing.T) {
	db := pgtest.Database(t)
	camp := func(name string, extra ...string) string {
		return db + "&campaign=" + name + strings.Join(extra, "")
	}
	if !strings.Contains(db, "?") {
		camp = func(name string, extra ...string) string { return db + "?campaign=" + name + strings.Join(extra, "") }
	}
	for _, setup := range [][]string{
		{"init"},
		{"char", "new", "Ajax", "--st", "12", "--dx", "11", "--iq", "9"},
	} {
		if code, _, stderr := runOn(t, camp("a"), setup...); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", setup, code, stderr)
		}
	}
	u, _ := url.Parse(db)
	stranger := "postgres://no_such_role@" + u.Host + u.Path + "?sslmode=disable&campaign=a"
	tests := []struct {
		name, db string
		args     []string
		env      map[string]string
		want     int
		says     string
	}{
		{"ok", camp("a"), []string{"sheet", "Ajax"}, nil, ExitOK, ""},
		{"no server", "postgres://gm@127.0.0.1:1/none?campaign=a&connect_timeout=2", []string{"xp", "award", "Ajax", "1", "--reason", "r"}, nil, ExitSystem, "cannot be reached"},
		{"unknown role", stranger, []string{"sheet", "Ajax"}, nil, ExitUsage, "refused this user"},
		{"no campaign named", db, []string{"sheet", "Ajax"}, nil, ExitUsage, "names no campaign"},
		{"no database named", "postgres://gm@" + u.Host + "?campaign=a", []string{"sheet", "Ajax"}, nil, ExitUsage, "names no database"},
		{"a name no address carries", camp("bad%20name"), []string{"sheet", "Ajax"}, nil, ExitUsage, "only letters, digits"},
		{"TLS the server does not offer", camp("a", "&sslmode=require"), []string{"sheet", "Ajax"}, nil, ExitUsage, "TLS connection to the database server"},
		{"no such campaign", camp("zz"), []string{"sheet", "Ajax"}, nil, ExitNotCampaign, "no such campaign"},
		{"made twice", camp("a"), []string{"init"}, nil, ExitConflict, "already exists in its database"},
		{"replica", camp("a"), []string{"xp", "award", "Ajax", "1", "--reason", "r"}, map[string]string{"PGOPTIONS": "-c default_transaction_read_only=on"}, ExitUsage, "refuses writes"},
		{"reader on a replica", camp("a"), []string{"sheet", "Ajax"}, map[string]string{"PGOPTIONS": "-c default_transaction_read_only=on"}, ExitOK, ""},
	}
	admin := pgtest.Connect(t, db)
	count := func() int64 { return admin.Int(`SELECT count(*) FROM events`) }
	before := count()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			code, _, stderr := runOn(t, tc.db, tc.args...)
			if code != tc.want || !strings.Contains(stderr, tc.says) {
				t.Errorf("exit %d, want %d saying %q: %s", code, tc.want, tc.says, stderr)
			}
		})
	}
	if after := count(); after != before {
		t.Fatalf("%d events after the refusals, %d before", after, before)
	}

	// Another session holds the campaign's append lock for longer than
	// this one waits (lock_timeout, here 300 ms): refused, exit 5,
	// nothing written.
	holder := pgtest.Connect(t, db)
	if err := holder.Exec(`SELECT pg_advisory_lock(1280594755, (SELECT id FROM campaigns WHERE name = 'a'))`); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runOn(t, camp("a", "&lock_timeout=300ms"), "xp", "award", "Ajax", "1", "--reason", "r")
	if code != ExitConflict || !strings.Contains(stderr, "stayed locked by another session") {
		t.Errorf("an append while another session holds the lock: exit %d, want %d: %s", code, ExitConflict, stderr)
	}
	if after := count(); after != before {
		t.Fatalf("%d events after the lock timeout, %d before", after, before)
	}
	if err := holder.Exec(`SELECT pg_advisory_unlock_all()`); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runOn(t, camp("a"), "xp", "award", "Ajax", "1", "--reason", "r"); code != ExitOK {
		t.Fatalf("the append once the lock is free: exit %d: %s", code, stderr)
	}
}
