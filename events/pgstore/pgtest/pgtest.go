// Package pgtest gives tests a real, throwaway PostgreSQL server.
//
// Server returns the DSN of $LTSCAMP_TEST_PG when it is set; otherwise the
// first call starts a cluster of this test binary's own: initdb in a
// temporary folder, then pg_ctl on a free loopback port, with fsync off
// (fast, and still safe against a crash of the server alone, though not of
// the machine). Database makes a fresh database per test and drops it
// afterwards, Restart crashes and restarts that cluster for fault tests,
// and Main, called from TestMain, stops the cluster and removes its folder
// after the tests:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
//
// A binary that dies before Main (a panic, a timeout, an interrupt) leaves
// its cluster running; the next binary to start one stops and removes it.
//
// When no server can be had (PostgreSQL is not installed, or initdb fails)
// the tests that ask for one are skipped, except when the environment sets
// CI, where they fail: CI must never silently skip the PostgreSQL tests.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvDSN names the environment variable that, when set, holds the DSN of
// an existing server (postgres://user@host:port/db?...) for the tests to
// use instead of starting their own. Its user must be allowed to create
// databases.
const EnvDSN = "LTSCAMP_TEST_PG"

// dirPrefix begins the names of our clusters' folders, and ownerFile,
// in each, holds the id of the process that started it.
const (
	dirPrefix = "ltscamp-pgtest-"
	ownerFile = "pgtest.pid"
)

// superuser is the user initdb makes the owner of our own clusters.
const superuser = "ltscamp"

// shared is the cluster this test binary started, if any. It is package
// state rather than a value the tests hold because it belongs to the whole
// binary, not to one test: starting a cluster takes about a second, too
// long to pay per test, so the first Server call starts it under once, every
// later call reuses it, and Main, which no test calls, must find it to stop
// it after m.Run.
var shared struct {
	once sync.Once
	c    *cluster // nil until started, or when starting failed
	err  error    // why no cluster could be started
}

// Server returns the DSN of a PostgreSQL server for tests, in the form
// postgres://USER@127.0.0.1:PORT/postgres?sslmode=disable, whose user may
// create databases. It is $LTSCAMP_TEST_PG, used as is, when that is set;
// otherwise it is a cluster that the first call of this test binary starts
// and that Main stops. When no server can be had, Server skips the test,
// or fails it when the environment sets CI.
func Server(t testing.TB) string {
	t.Helper()
	if dsn := os.Getenv(EnvDSN); dsn != "" {
		return dsn
	}
	var took time.Duration // set when this call started the cluster
	shared.once.Do(func() {
		start := time.Now()
		shared.c, shared.err = startCluster()
		took = time.Since(start)
	})
	if shared.err != nil {
		unavailable(t, "no PostgreSQL server (install PostgreSQL, or set $%s): %v", EnvDSN, shared.err)
	}
	if took > 0 {
		t.Logf("pgtest: started PostgreSQL (%s) at %s in %v",
			shared.c.binDir, shared.c.dsn(), took.Round(time.Millisecond))
	}
	return shared.c.dsn()
}

// Database creates a database with a fresh random name (ltt_ and 16 hex
// digits) on Server(t) and returns its DSN: Server's with the database name
// as its path. A cleanup of t drops it, closing any connection still open
// to it.
func Database(t testing.TB) string {
	t.Helper()
	base := Server(t)
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		t.Fatalf("pgtest: the server's DSN %q is not a postgres:// URL", base)
	}
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	name := "ltt_" + hex.EncodeToString(b[:])
	if err := exec1(base, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatalf("pgtest: create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		// FORCE (PostgreSQL 13 and later) ends the sessions a test left open.
		err := exec1(base, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
		if err != nil {
			t.Errorf("pgtest: drop database %s: %v", name, err)
		}
	})
	u.Path = "/" + name
	u.RawPath = ""
	return u.String()
}

// Restart crashes the cluster this test binary started and starts it
// again (pg_ctl restart -m immediate: the server stops at once, as if
// killed), then waits until it accepts connections: committed transactions
// survive it, sessions do not.
// Every test of the binary shares the cluster, so call Restart only from a
// test that is not parallel (parallel tests then cannot overlap it). A
// server from $LTSCAMP_TEST_PG is not ours to restart: there Restart skips
// the test, or fails it when the environment sets CI.
func Restart(t testing.TB) {
	t.Helper()
	if os.Getenv(EnvDSN) != "" {
		unavailable(t, "Restart needs a server the tests started, and $%s names another: unset it to run this test", EnvDSN)
	}
	Server(t)
	if err := shared.c.restart(); err != nil {
		t.Fatalf("pgtest: restart: %v", err)
	}
}

// Main runs the tests and then stops the cluster this test binary started,
// if any, and removes its folder. It returns m.Run's exit code. Packages that
// use pgtest call it from their TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
func Main(m *testing.M) int {
	code := m.Run()
	if c := shared.c; c != nil {
		if err := c.stop(); err != nil {
			fmt.Fprintf(os.Stderr, "pgtest: %v\n", err)
			if code == 0 {
				code = 1
			}
		}
	}
	return code
}

// Bin returns the path of the PostgreSQL program name (initdb, pg_ctl,
// psql, pgbench, ...): the one on PATH, else the one in the newest
// /usr/lib/postgresql/VERSION/bin that has it, where Debian puts them.
func Bin(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int { // newest first
		return compareVersions(filepath.Base(filepath.Dir(b)), filepath.Base(filepath.Dir(a)))
	})
	for _, dir := range dirs {
		p := filepath.Join(dir, name)
		if isExecutable(p) {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s is neither on PATH nor in /usr/lib/postgresql/*/bin (Debian: apt-get install postgresql)", name)
}

// unavailable skips t with the message, or fails it when the environment
// sets CI: CI must run every PostgreSQL test.
func unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("CI") != "" {
		t.Fatalf("pgtest: %s\n(CI is set, so this fails rather than skips; .ci/run installs postgresql)", msg)
	}
	t.Skipf("pgtest: %s", msg)
}

// exec1 runs one statement on a connection of its own to dsn.
func exec1(dsn, sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, sql)
	return err
}

// A cluster is a PostgreSQL cluster this test binary initialised and
// started, in a temporary folder that is both its data directory and the
// folder of its unix socket and log.
type cluster struct {
	binDir string // where initdb, pg_ctl and postgres are
	dir    string
	port   int
	runAs  []string // prefix running a program as the postgres user, when we are root
}

// startCluster initialises and starts a cluster and waits until it accepts
// connections.
func startCluster() (*cluster, error) {
	initdb, err := Bin("initdb")
	if err != nil {
		return nil, err
	}
	// pg_ctl and postgres must be initdb's version: take its folder, through
	// any symlink (/usr/local/bin/initdb -> /usr/lib/postgresql/15/bin/initdb).
	if resolved, err := filepath.EvalSymlinks(initdb); err == nil {
		initdb = resolved
	}
	c := &cluster{binDir: filepath.Dir(initdb)}
	if !isExecutable(c.bin("pg_ctl")) {
		return nil, fmt.Errorf("no pg_ctl beside %s", initdb)
	}

	// initdb (and postgres) refuse to run as root: run them as postgres,
	// in a folder that user owns. runuser rather than a syscall.Credential
	// keeps this package building on Windows, which the release targets.
	var owner *user.User
	if os.Getuid() == 0 {
		if owner, err = user.Lookup("postgres"); err != nil {
			return nil, fmt.Errorf("running as root, and initdb refuses root, but there is no postgres user to run it as: %v", err)
		}
		runuser, err := exec.LookPath("runuser")
		if err != nil {
			return nil, fmt.Errorf("running as root, and initdb refuses root, but there is no runuser to run it as postgres: %v", err)
		}
		c.runAs = []string{runuser, "-u", "postgres", "--"}
	}

	c.sweepStale()

	// os.MkdirTemp, not t.TempDir: the cluster outlives the test that
	// starts it.
	if c.dir, err = os.MkdirTemp("", dirPrefix); err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(c.dir)
		}
	}()
	if owner != nil {
		uid, _ := strconv.Atoi(owner.Uid)
		gid, _ := strconv.Atoi(owner.Gid)
		if err := os.Chown(c.dir, uid, gid); err != nil {
			return nil, err
		}
	}

	// -E UTF8 --locale=C: the same encoding and collation whatever the
	// locale of the environment (which might otherwise give SQL_ASCII).
	if out, err := c.run(initdb, "--no-sync", "-A", "trust", "-U", superuser,
		"-E", "UTF8", "--locale=C", "-D", c.dir); err != nil {
		return nil, fmt.Errorf("initdb: %v\n%s", err, lastLines(string(out), 5))
	}
	// Written after initdb, which wants an empty folder; read by sweepStale.
	pid := []byte(strconv.Itoa(os.Getpid()))
	if err := os.WriteFile(filepath.Join(c.dir, ownerFile), pid, 0o644); err != nil {
		return nil, err
	}

	// A free port is one the kernel just gave a listener; another process
	// may take it before postgres binds it, so try again on a clash.
	for attempt := 1; ; attempt++ {
		if c.port, err = freePort(); err != nil {
			return nil, err
		}
		err = c.pgCtl("start")
		if err == nil {
			break
		}
		if attempt == 5 || !strings.Contains(c.log(), "could not bind") {
			return nil, err
		}
	}
	if err := c.waitReady(); err != nil {
		_ = c.pgCtlStop() // the error that matters is err
		return nil, err
	}
	ok = true
	return c, nil
}

// sweepStale stops and removes the clusters that test binaries which are
// gone left behind: a binary that panics, times out or is interrupted never
// reaches Main, and its server, which pg_ctl detached, would run on. A
// cluster is stale when its folder names its owner and that process has
// ended; those of running binaries (go test runs packages in parallel) are
// left alone.
func (c *cluster) sweepStale() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), dirPrefix+"*"))
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue // not ours to read, or still in initdb
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 {
			continue
		}
		if p, err := os.FindProcess(pid); err == nil {
			if err := p.Signal(syscall.Signal(0)); !errors.Is(err, os.ErrProcessDone) {
				continue // alive (or not ours to signal)
			}
		}
		stale := &cluster{binDir: c.binDir, dir: dir, runAs: c.runAs}
		_ = stale.pgCtlStop() // fails when the server is already gone
		os.RemoveAll(dir)
	}
}

// bin returns the path of the program name of the cluster's version.
func (c *cluster) bin(name string) string { return filepath.Join(c.binDir, name) }

// dsn returns the DSN of the cluster's postgres database.
func (c *cluster) dsn() string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/postgres?sslmode=disable", superuser, c.port)
}

// run runs a program as the cluster's owner, from the cluster's folder
// (root's working directory may be closed to postgres), and returns its
// output.
func (c *cluster) run(name string, args ...string) ([]byte, error) {
	argv := append(slices.Clone(c.runAs), name)
	argv = append(argv, args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = c.dir
	return cmd.CombinedOutput()
}

// pgCtl runs pg_ctl start or restart and waits for the server to be up.
// Always -l: without it the server would inherit pg_ctl's output, and
// CombinedOutput would wait for the server to exit.
func (c *cluster) pgCtl(action string, extra ...string) error {
	// fsync and full_page_writes off lose data only when the machine
	// crashes, not when the server does: the WAL is written to the OS.
	// synchronous_commit stays on (as by default) so that a commit has
	// reached the WAL before it returns, and survives Restart.
	// pg_ctl hands the options to a shell: quote the folder.
	opts := fmt.Sprintf("-p %d -k '%s' -c listen_addresses=127.0.0.1"+
		" -c fsync=off -c full_page_writes=off -c synchronous_commit=on", c.port, c.dir)
	args := append([]string{action, "-D", c.dir, "-o", opts, "-l", filepath.Join(c.dir, "log"), "-w"}, extra...)
	if out, err := c.run(c.bin("pg_ctl"), args...); err != nil {
		return fmt.Errorf("pg_ctl %s: %v\n%s\nserver log:\n%s", action, err, lastLines(string(out), 5), c.log())
	}
	return nil
}

// restart stops the server at once, as a crash would, and starts it again.
func (c *cluster) restart() error {
	if err := c.pgCtl("restart", "-m", "immediate"); err != nil {
		return err
	}
	return c.waitReady()
}

// pgCtlStop stops the server at once.
func (c *cluster) pgCtlStop() error {
	if out, err := c.run(c.bin("pg_ctl"), "stop", "-D", c.dir, "-m", "immediate", "-w"); err != nil {
		return fmt.Errorf("pg_ctl stop: %v\n%s", err, out)
	}
	return nil
}

// stop stops the server and removes the cluster's folder.
func (c *cluster) stop() error {
	return errors.Join(c.pgCtlStop(), os.RemoveAll(c.dir))
}

// waitReady waits until the server accepts connections. pg_ctl -w has
// already waited for it to say so, but a connection is the proof.
func (c *cluster) waitReady() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		conn, err := pgx.Connect(ctx, c.dsn())
		if err == nil {
			return conn.Close(ctx)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the server does not accept connections: %v\nserver log:\n%s", err, c.log())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// log returns the end of the server's log.
func (c *cluster) log() string {
	b, _ := os.ReadFile(filepath.Join(c.dir, "log"))
	return lastLines(string(b), 20)
}

// lastLines returns the last n lines of s, without surrounding space.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// compareVersions compares PostgreSQL versions such as 9.6 and 15
// number by number.
func compareVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) || i < len(bs); i++ {
		var x, y int
		if i < len(as) {
			x, _ = strconv.Atoi(as[i])
		}
		if i < len(bs) {
			y, _ = strconv.Atoi(bs[i])
		}
		if x != y {
			return x - y
		}
	}
	return 0
}

// isExecutable reports whether path is a regular file someone may execute.
func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}
