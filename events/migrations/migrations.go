// Package migrations reads a store's schema migrations: numbered SQL
// files (0001_events.sql, 0002_snapshots.sql ...) that the store embeds
// and applies in order, each once. The stores share the numbering, so
// that a campaign file and a database at the same version hold the same
// log.
package migrations

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strconv"
)

// Migration is one numbered schema change.
type Migration struct {
	// Version is its number, from 1.
	Version int64
	// Name is the file's name, such as "0001_events.sql".
	Name string
	// SQL is the file's text, run whole.
	SQL string
}

var fileName = regexp.MustCompile(`^([0-9]{4})_[a-z0-9_]+\.sql$`)

// Load returns the migrations in the folder dir of fsys, in version
// order. Every file there must be named NNNN_name.sql, and the numbers
// must run 1, 2, 3... without gaps.
func Load(fsys fs.FS, dir string) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("read embedded migrations: %w", err)
	}
	var out []Migration
	for _, ent := range entries { // ReadDir sorts by name, hence by number.
		m := fileName.FindStringSubmatch(ent.Name())
		if m == nil {
			return nil, fmt.Errorf("embedded migration %q is not named NNNN_name.sql", ent.Name())
		}
		v, _ := strconv.ParseInt(m[1], 10, 64)
		if want := int64(len(out)) + 1; v != want {
			return nil, fmt.Errorf("embedded migration %q: expected number %04d", ent.Name(), want)
		}
		body, err := fs.ReadFile(fsys, path.Join(dir, ent.Name()))
		if err != nil {
			return nil, fmt.Errorf("read embedded migration: %w", err)
		}
		out = append(out, Migration{Version: v, Name: ent.Name(), SQL: string(body)})
	}
	if len(out) == 0 {
		return nil, errors.New("no embedded migrations")
	}
	return out, nil
}
