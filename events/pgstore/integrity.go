package pgstore

import (
	"context"
	"fmt"
	"strings"
)

// appendOnlyTriggers are the triggers migration 1 puts on the events
// table, by name, and what each refuses.
var appendOnlyTriggers = map[string]string{
	"events_no_update":   "UPDATE",
	"events_no_delete":   "DELETE",
	"events_no_truncate": "TRUNCATE",
}

// AppendOnlyProblems reports what keeps the events table from refusing
// UPDATE, DELETE and TRUNCATE: a trigger of migration 1 dropped or
// disabled, its function replaced, or the trigger that keeps a published
// campaign from being made staging again. `ltscamp verify`
// reports them; none means the database still guards the log.
func (s *Store) AppendOnlyProblems() ([]string, error) {
	ctx := context.Background()
	rows, err := s.pool.Query(ctx, `SELECT t.tgname, t.tgenabled::text, p.proname
FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
WHERE t.tgrelid = 'events'::regclass AND NOT t.tgisinternal`)
	if err != nil {
		return nil, Classify(fmt.Errorf("read the events table's triggers: %w", err))
	}
	type trigger struct{ enabled, function string }
	got := map[string]trigger{}
	for rows.Next() {
		var name string
		var tr trigger
		if err := rows.Scan(&name, &tr.enabled, &tr.function); err != nil {
			rows.Close()
			return nil, Classify(fmt.Errorf("read the events table's triggers: %w", err))
		}
		got[name] = tr
	}
	if err := rows.Err(); err != nil {
		return nil, Classify(fmt.Errorf("read the events table's triggers: %w", err))
	}
	var out []string
	for _, name := range []string{"events_no_delete", "events_no_truncate", "events_no_update"} {
		tr, ok := got[name]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("trigger %s is missing: the events table no longer refuses %s, so the log could have been rewritten in place", name, appendOnlyTriggers[name]))
		case tr.enabled == "D":
			out = append(out, fmt.Sprintf("trigger %s is disabled: the events table no longer refuses %s (ALTER TABLE events ENABLE TRIGGER %s turns it back on)", name, appendOnlyTriggers[name], name))
		case tr.function != "events_append_only":
			out = append(out, fmt.Sprintf("trigger %s runs %s, not the events_append_only function ltscamp creates", name, tr.function))
		}
	}
	var fixed int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
WHERE t.tgrelid = 'campaigns'::regclass AND t.tgname = 'campaigns_fixed' AND t.tgenabled <> 'D' AND p.proname = 'campaigns_fixed'`).Scan(&fixed); err != nil {
		return nil, Classify(fmt.Errorf("read the campaigns table's triggers: %w", err))
	}
	if fixed != 1 {
		out = append(out, "trigger campaigns_fixed is missing or disabled: a published campaign could be marked staging again, and its log removed as a failed making's")
	}
	var body string
	if err := s.pool.QueryRow(ctx, `SELECT coalesce((SELECT prosrc FROM pg_proc WHERE proname = 'events_append_only' LIMIT 1), '')`).Scan(&body); err != nil {
		return nil, Classify(fmt.Errorf("read the events_append_only function: %w", err))
	}
	if body != "" && !containsAll(body, "RAISE EXCEPTION", "append-only") {
		out = append(out, "function events_append_only no longer raises the append-only refusal: the triggers let rows be changed")
	}
	return out, nil
}

// containsAll reports whether s holds every one of subs.
func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
