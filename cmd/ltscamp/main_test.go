package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/ltscamp/ltscamp/events/pgstore/pgtest"
)

func TestMain(m *testing.M) {
	testscript.Main(withServer{m}, map[string]func(){
		"ltscamp": func() { os.Exit(Main(System())) },
	})
}

// withServer runs the tests and then stops the PostgreSQL cluster they
// started, if any (pgtest.Main).
type withServer struct{ m *testing.M }

func (w withServer) Run() int { return pgtest.Main(w.m) }

// TestScripts runs the user stories under testdata/script.
func TestScripts(t *testing.T) {
	if os.Getenv("CI") != "" {
		// CI installs the stock sqlite3 CLI, poppler-utils and script;
		// the scripts' [exec:sqlite3], [exec:pdftotext] and [exec:script]
		// sections must run there, never be skipped.
		for _, tool := range []string{"sqlite3", "pdftotext", "pdfinfo", "sed", "script"} {
			if _, err := exec.LookPath(tool); err != nil {
				t.Fatalf("CI is set but %s is not installed; .ci/run installs it", tool)
			}
		}
	}
	testscript.Run(t, testscript.Params{
		Dir:   "testdata/script",
		Setup: storySetup(nil),
		Cmds:  storyCmds,
	})
}

// storyCmds are the commands the stories use beside testscript's own.
var storyCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"jsonfield": cmdJSONField,
	"ndjson":    cmdNDJSON,
	"jsonvar":   cmdJSONVar,
	"nostall":   cmdNoStall,
}

// storySetup returns the stories' setup: the actor, no colour, and, when
// db is set, $LTSCAMP_DB naming the campaign db returns for the story.
func storySetup(db func(*testscript.Env) string) func(*testscript.Env) error {
	return func(env *testscript.Env) error {
		env.Setenv("LTSCAMP_ACTOR", "gm")
		env.Setenv("NO_COLOR", "1")
		if db != nil {
			env.Setenv("LTSCAMP_DB", db(env))
		}
		return nil
	}
}

// fileBound are the marks of a story tied to campaign files: it names a
// file (--db, *.ltscamp, $LTSCAMP_DB) or reads one with the sqlite3 shell.
var fileBound = regexp.MustCompile(`--db|\.ltscamp|LTSCAMP_DB|sqlite3`)

// TestPostgresStories runs the stories of a campaign kept in PostgreSQL
// (testdata/pgscript): moving one in and out, many in one database, the
// server's failures. Each story gets a database of its own: $PGDB is its
// address, $PGCAMP the same up to a campaign's name (${PGCAMP}alpha).
func TestPostgresStories(t *testing.T) {
	pgtest.Server(t) // started, or the test skipped, before any story
	testscript.Run(t, testscript.Params{
		Dir: "testdata/pgscript",
		Setup: func(env *testscript.Env) error {
			db := pgtest.Database(env.T().(testing.TB))
			sep := "?"
			if strings.Contains(db, "?") {
				sep = "&"
			}
			u, err := url.Parse(db)
			if err != nil {
				return err
			}
			env.Setenv("PGDB", db)
			env.Setenv("PGCAMP", db+sep+"campaign=")
			// For addresses a story writes itself (another user):
			// the server's host and port, and the database's name.
			env.Setenv("PGHOSTPORT", u.Host)
			env.Setenv("PGNAME", strings.TrimPrefix(u.Path, "/"))
			return storySetup(nil)(env)
		},
		Cmds: storyCmds,
	})
}

// TestScriptsOnPostgres runs again, on a campaign in PostgreSQL, every
// story that is not tied to campaign files: $LTSCAMP_DB names a campaign
// of its own in one database for each, so they also run side by side in
// one database. The same commands must give the same output there.
func TestScriptsOnPostgres(t *testing.T) {
	all, err := filepath.Glob("testdata/script/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range all {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !fileBound.Match(b) {
			files = append(files, f)
		}
	}
	// Most stories play a campaign and never name its file: a change that
	// made them name one would quietly take them off PostgreSQL.
	if len(files) < 40 {
		t.Fatalf("only %d of %d stories run on PostgreSQL, want at least 40: %v", len(files), len(all), files)
	}
	db := pgtest.Database(t)
	sep := "?"
	if strings.Contains(db, "?") {
		sep = "&"
	}
	var n atomic.Int64
	testscript.Run(t, testscript.Params{
		Files: files,
		Setup: storySetup(func(*testscript.Env) string {
			return fmt.Sprintf("%s%scampaign=story%d", db, sep, n.Add(1))
		}),
		Cmds: storyCmds,
	})
}

// cmdNoStall runs a command, as exec does, and fails if it took as long
// as a terminal query's timeout: nostall script -q -c 'ltscamp sheet Ajax'
// /dev/null runs ltscamp on a pty that never answers, where a query for
// the background colour would wait its 5 s out. The bound is far above a
// command's real time and far below the wait, so it is not a timing test:
// it tells waiting from not waiting.
func cmdNoStall(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: nostall COMMAND [ARGS...]")
	}
	start := time.Now()
	if err := ts.Exec(args[0], args[1:]...); err != nil {
		ts.Fatalf("%s: %v", strings.Join(args, " "), err)
	}
	if took := time.Since(start); took >= 3*time.Second {
		ts.Fatalf("%s took %v: it waited for a terminal that never answers", strings.Join(args, " "), took.Round(time.Millisecond))
	}
}

// cmdJSONField checks a value in a JSON file: jsonfield FILE PATH WANT, where
// PATH is dotted ("xp.unspent", "skills.0.name") and WANT is compared with
// the value's JSON encoding (strings unquoted).
func cmdJSONField(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: jsonfield FILE PATH WANT")
	}
	var v any
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &v); err != nil {
		ts.Fatalf("%s is not JSON: %v", args[0], err)
	}
	got, err := jsonPath(v, args[1])
	if err != nil {
		ts.Fatalf("%v", err)
	}
	if (got == args[2]) == neg {
		ts.Fatalf("%s: %s = %s, want %s%s", args[0], args[1], got, map[bool]string{true: "not ", false: ""}[neg], args[2])
	}
}

// cmdJSONVar sets an environment variable to a value in a JSON file, for
// the values a script cannot know in advance (ULIDs, wall times): jsonvar
// FILE PATH VAR, with PATH as in jsonfield. Later commands use it as $VAR.
func cmdJSONVar(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: jsonvar FILE PATH VAR")
	}
	var v any
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &v); err != nil {
		ts.Fatalf("%s is not JSON: %v", args[0], err)
	}
	got, err := jsonPath(v, args[1])
	if err != nil {
		ts.Fatalf("%v", err)
	}
	ts.Setenv(args[2], got)
}

func jsonPath(v any, path string) (string, error) {
	for _, key := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[key]
			if !ok {
				return "", fmt.Errorf("no key %q in %s", key, path)
			}
			v = next
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(x) {
				return "", fmt.Errorf("no index %q in %s", key, path)
			}
			v = x[i]
		default:
			return "", fmt.Errorf("%s: cannot index %T with %q", path, v, key)
		}
	}
	if s, ok := v.(string); ok {
		return s, nil
	}
	b, err := json.Marshal(v)
	return string(b), err
}

// cmdNDJSON checks that every line of a file is a JSON object and that there
// are N of them: ndjson FILE N.
func cmdNDJSON(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: ndjson FILE N")
	}
	lines := strings.Split(strings.TrimRight(ts.ReadFile(args[0]), "\n"), "\n")
	if lines[0] == "" {
		lines = nil
	}
	for i, l := range lines {
		var obj map[string]any
		if err := json.Unmarshal([]byte(l), &obj); err != nil {
			ts.Fatalf("%s line %d is not a JSON object: %v", args[0], i+1, err)
		}
	}
	want, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("ndjson: bad count %q", args[1])
	}
	if (len(lines) == want) == neg {
		ts.Fatalf("%s has %d lines, want %d", args[0], len(lines), want)
	}
}
