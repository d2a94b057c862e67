package sqlitestore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ltscamp/ltscamp/events"
)

// DamageError is a campaign file that SQLite's own integrity check finds
// damaged: pages it cannot read, or indexes that do not match their table.
// It matches events.ErrDamaged. A write refuses such a file, appending
// nothing.
type DamageError struct {
	// Path is the campaign file.
	Path string
	// Objects names the tables and indexes the damage is in, in the
	// order of their root pages ("index sqlite_autoindex_events_1
	// (events: id)"), as far as the check's words name them.
	Objects []string
	// Problems are the check's own lines.
	Problems []string
}

func (e *DamageError) Error() string {
	first := ""
	if len(e.Problems) > 0 {
		first = ": " + e.Problems[0]
		if n := len(e.Problems) - 1; n > 0 {
			first += fmt.Sprintf(" (and %d more)", n)
		}
	}
	return fmt.Sprintf("SQLite's integrity check of %s finds damage in %s%s", e.Path, e.Where(), first)
}

// Is makes errors.Is(err, events.ErrDamaged) hold.
func (e *DamageError) Is(target error) bool { return target == events.ErrDamaged }

// Where says what is damaged, in words: the objects named, or "pages
// SQLite cannot read" when the check's words name none.
func (e *DamageError) Where() string {
	if len(e.Objects) == 0 {
		return "pages SQLite cannot read"
	}
	return strings.Join(e.Objects, ", ")
}

// maxIntegrityProblems caps the lines an integrity check reports: the
// first few name the damage, and a badly damaged file has thousands.
const maxIntegrityProblems = 50

// IntegrityCheck runs SQLite's PRAGMA integrity_check over the whole file,
// on a connection of its own (it may run while other reads go on), and
// returns a *DamageError when it finds damage, nil when the file is whole.
// Other errors (the file cannot be read at all) come back classified.
//
// A file being built (a restore verifies the log it loaded before it
// puts the file in place) is not checked: it is new, under a name of its
// own, and no one but this store has written it.
func (s *Store) IntegrityCheck(ctx context.Context) error {
	if s.building {
		return nil
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return Classify(fmt.Errorf("integrity check: %w", err))
	}
	defer func() {
		// The connection is closed, not kept idle in the pool: a store
		// being built switches to WAL once it is done, which SQLite
		// refuses while another of its connections is open.
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		_ = conn.Close()
	}()
	return checkIntegrity(ctx, conn, s.path, fmt.Sprintf("PRAGMA integrity_check(%d)", maxIntegrityProblems))
}

// querierContext is what an integrity check needs of a connection: a
// *sql.Conn, *sql.DB or *writer.
type querierContext interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// checkIntegrity runs pragma (PRAGMA integrity_check or quick_check) on q
// and names the damage it reports, if any, in a *DamageError for path.
func checkIntegrity(ctx context.Context, q querierContext, path, pragma string) error {
	problems, err := integrityLines(ctx, q, pragma)
	if err != nil {
		if len(problems) == 0 {
			// The check could not run: the file is damaged past it, or
			// the disk fails. Either way the error says so.
			err = Classify(fmt.Errorf("integrity check: %w", err))
			if !errors.Is(err, events.ErrDamaged) {
				return err
			}
			problems = []string{err.Error()}
		}
		// A check that stops on damage after naming some has said enough.
	}
	if len(problems) == 0 {
		return nil
	}
	return &DamageError{Path: path, Problems: problems, Objects: damagedObjects(ctx, q, problems)}
}

// integrityLines returns the problems an integrity check reports, none
// when it says "ok". The lines a damaged file gets may be followed by an
// error (the check stops where it cannot go on): both come back.
func integrityLines(ctx context.Context, q querierContext, pragma string) ([]string, error) {
	rows, err := q.QueryContext(ctx, pragma)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return out, err
		}
		for _, l := range strings.Split(line, "\n") {
			l = strings.TrimSpace(l)
			if l == "" || l == "ok" || strings.HasPrefix(l, "*** in database ") {
				continue
			}
			out = append(out, l)
		}
	}
	return out, rows.Err()
}

var (
	// treePage is how SQLite names a page of a b-tree: "Tree 4 page 33".
	treePage = regexp.MustCompile(`\bTree (\d+) page \d+`)
	// indexName is how it names an index: "wrong # of entries in index
	// X", "row 5 missing from index X", "non-unique entry in index X".
	indexName = regexp.MustCompile(`\b(?:in|from) index (\S+)`)
	// tableName is how it names a table: "NULL value in events.id",
	// "CHECK constraint failed in events".
	tableName = regexp.MustCompile(`\b(?:value in|failed in) ([A-Za-z_][A-Za-z0-9_]*)`)
)

// damagedObjects names the tables and indexes that problems (an integrity
// check's lines) point at, in the order of their root pages, each as "table NAME" or
// "index NAME (TABLE: COLUMNS)". The schema is read through q; when it
// cannot be, the names found in the words are all there is.
func damagedObjects(ctx context.Context, q querierContext, problems []string) []string {
	type object struct {
		kind, name, table string
		root              int64
	}
	var schema []object
	if rows, err := q.QueryContext(ctx, `SELECT type, name, tbl_name, rootpage FROM sqlite_schema WHERE type IN ('table', 'index') AND rootpage > 0 ORDER BY rootpage`); err == nil {
		for rows.Next() {
			var o object
			if rows.Scan(&o.kind, &o.name, &o.table, &o.root) == nil {
				schema = append(schema, o)
			}
		}
		_ = rows.Close()
	}
	// hit are the objects named; paged those with a page SQLite cannot
	// read (named by their tree).
	hit, paged := map[string]bool{}, map[string]bool{}
	var unknown []string
	mark := func(name string) {
		name = strings.Trim(name, `"'.,:;`)
		if slices.ContainsFunc(schema, func(o object) bool { return o.name == name }) {
			hit[name] = true
		} else if !slices.Contains(unknown, name) {
			unknown = append(unknown, name)
		}
	}
	for _, p := range problems {
		if m := treePage.FindStringSubmatch(p); m != nil {
			root, _ := strconv.ParseInt(m[1], 10, 64)
			for _, o := range schema {
				if o.root == root {
					hit[o.name], paged[o.name] = true, true
				}
			}
			if root == 1 {
				hit["sqlite_schema"] = true
			}
		}
		for _, m := range indexName.FindAllStringSubmatch(p, -1) {
			mark(m[1])
		}
		for _, m := range tableName.FindAllStringSubmatch(p, -1) {
			mark(m[1])
		}
	}
	var out []string
	if hit["sqlite_schema"] {
		out = append(out, "the schema (sqlite_schema)")
	}
	for _, o := range schema {
		if !hit[o.name] || o.kind == "index" && !paged[o.name] && paged[o.table] {
			// An index whose table has pages SQLite cannot read does
			// not match it: the table is the damage.
			continue
		}
		if o.kind == "table" {
			out = append(out, "table "+o.name)
			continue
		}
		out = append(out, fmt.Sprintf("index %s (%s)", o.name, indexColumns(ctx, q, o.name, o.table)))
	}
	for _, name := range unknown {
		out = append(out, name)
	}
	return out
}

// indexColumns says what an index is an index of: "events: id".
func indexColumns(ctx context.Context, q querierContext, index, table string) string {
	rows, err := q.QueryContext(ctx, `SELECT name FROM pragma_index_info(?) ORDER BY seqno`, index)
	if err != nil {
		return table
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var c sql.NullString
		if rows.Scan(&c) == nil && c.Valid {
			cols = append(cols, c.String)
		}
	}
	if len(cols) == 0 {
		return table
	}
	return table + ": " + strings.Join(cols, ", ")
}
