package sqlitestore

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// triggerSQL finds the CREATE TRIGGER statements of a migration.
var triggerSQL = regexp.MustCompile(`(?s)CREATE TRIGGER\s+(\w+)\s.*?\bEND\b`)

// appendOnlyTriggers returns the triggers the migrations put on the events
// table, by name, each as its CREATE TRIGGER statement with its spaces
// normalized (see normalizeSQL).
func appendOnlyTriggers() (map[string]string, error) {
	ms, err := loadMigrations()
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, m := range ms {
		for _, t := range triggerSQL.FindAllStringSubmatch(m.SQL, -1) {
			out[t[1]] = normalizeSQL(t[0])
		}
	}
	return out, nil
}

// normalizeSQL folds every run of white space to one space, and drops a
// final semicolon, so that the text SQLite keeps of a statement compares
// equal to the migration's whatever its layout.
func normalizeSQL(q string) string {
	return strings.TrimSuffix(strings.Join(strings.Fields(q), " "), ";")
}

// AppendOnlyProblems checks that the triggers that make the events table
// append-only (they refuse UPDATE and DELETE) are in the file, each as the
// migrations created it, and that no other trigger is on the table. It
// returns a sentence for each problem, none when the table is as ltscamp
// made it. A missing trigger is what someone who rewrote history with the
// sqlite3 shell leaves behind, unless he put it back.
func (s *Store) AppendOnlyProblems() ([]string, error) {
	want, err := appendOnlyTriggers()
	if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(context.Background(), `SELECT name, coalesce(sql, '') FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'events' ORDER BY name`)
	if err != nil {
		return nil, Classify(fmt.Errorf("read the schema: %w", err))
	}
	defer rows.Close()
	got := map[string]string{}
	for rows.Next() {
		var name, q string
		if err := rows.Scan(&name, &q); err != nil {
			return nil, Classify(fmt.Errorf("read the schema: %w", err))
		}
		got[name] = normalizeSQL(q)
	}
	if err := rows.Err(); err != nil {
		return nil, Classify(fmt.Errorf("read the schema: %w", err))
	}
	var out []string
	for _, name := range slices.Sorted(maps.Keys(want)) {
		q, ok := got[name]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("trigger %s is missing: the events table no longer refuses %s, so the log could have been rewritten in place (the sqlite3 shell can do it once the trigger is dropped)", name, refused(want[name])))
		case q != want[name]:
			out = append(out, fmt.Sprintf("trigger %s is not the one ltscamp creates: it is %q", name, q))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[name]; !ok {
			out = append(out, fmt.Sprintf("trigger %s on the events table is not one ltscamp creates: it is %q", name, got[name]))
		}
	}
	return out, nil
}

// refused names what a trigger of the migrations refuses.
func refused(q string) string {
	switch {
	case strings.Contains(q, "BEFORE UPDATE"):
		return "UPDATE"
	case strings.Contains(q, "BEFORE DELETE"):
		return "DELETE"
	}
	return "changes"
}
