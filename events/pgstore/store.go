// Package pgstore is the events.Store kept in a PostgreSQL database, for
// a group that plays from several machines or a host that keeps many
// campaigns on one server. It is the only package that imports pgx.
//
// One database holds many campaigns, each named in the address a store is
// opened with (postgres://USER@HOST/DB?campaign=NAME). Every row carries
// its campaign, and every query names it: a store reads and writes its own
// campaign's rows only. The log is the same as in an SQLite campaign file:
// the same envelope, the same hashed bytes, the same SHA-256 chain, one
// chain per campaign.
//
// Appends to one campaign are serialised by an advisory transaction lock
// on the campaign, taken before the head and the stream versions are
// read; the next seq is the head's plus one, never a sequence's value, so
// positions are dense and in chain order, and a reader never sees a gap
// that fills later. Triggers refuse UPDATE, DELETE and TRUNCATE on the
// events table to every role.
package pgstore

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ltscamp/ltscamp/events"
)

// lockSpace is the first key of every advisory lock the store takes:
// "LTSC" in ASCII, as SQLite campaign files' application_id. The second
// key is a campaign's id for its appends, 0 for migrations.
const lockSpace = 0x4C545343

// Options configure Open and Create.
type Options struct {
	// Now is the clock that dates migrations and new campaigns. It is
	// required: the store never reads the wall clock itself.
	Now func() time.Time
}

// Store is an events.Store on one campaign of a PostgreSQL database. It is
// safe for concurrent use, and many processes on many machines may hold
// stores on the same campaign.
type Store struct {
	pool *pgxpool.Pool
	addr Address
	// id is the campaign's row in campaigns.
	id int32
	// readOnly is set on a store from OpenReadOnly: its connections run
	// every transaction read-only.
	readOnly bool

	// mu guards last: the head this store's own last append left, which
	// a command decided at a kept head (events.Command.ExpectedHead) must
	// find still there.
	mu   sync.Mutex
	last *events.Head
}

var _ events.Store = (*Store)(nil)

// Address is where a campaign lives on a server: the connection string
// without its campaign, and the campaign's name.
type Address struct {
	// Conn is the connection URL pgx opens, without the campaign
	// parameter.
	Conn string
	// Campaign is the campaign's name; empty in an address that names only
	// a database (`ltscamp campaigns`).
	Campaign string
}

// IsAddress reports whether s names a PostgreSQL database (a postgres://
// or postgresql:// URL) rather than a campaign file.
func IsAddress(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// ParseAddress splits a postgres:// URL into the connection URL and the
// campaign its campaign parameter names. The connection's other
// parameters (sslmode, connect_timeout ...) are pgx's.
func ParseAddress(s string) (Address, error) {
	if !IsAddress(s) {
		return Address{}, fmt.Errorf("%w: %q is not a postgres:// address", ErrBadAddress, Redact(s))
	}
	u, err := url.Parse(s)
	if err != nil {
		return Address{}, fmt.Errorf("%w %q: %v", ErrBadAddress, Redact(s), unwrapURLError(err))
	}
	q := u.Query()
	name := q.Get("campaign")
	if len(q["campaign"]) > 1 {
		return Address{}, fmt.Errorf("%w %s: it names more than one campaign", ErrBadAddress, Redact(s))
	}
	if name != "" {
		if err := CheckCampaignName(name); err != nil {
			return Address{}, fmt.Errorf("%w: %w", ErrBadAddress, err)
		}
	}
	q.Del("campaign")
	u.RawQuery = q.Encode()
	if strings.Trim(u.Path, "/") == "" {
		return Address{}, fmt.Errorf("%w %s: it names no database: give it after the host, as in postgres://USER@HOST/DB?campaign=NAME", ErrBadAddress, Redact(s))
	}
	return Address{Conn: u.String(), Campaign: name}, nil
}

// unwrapURLError drops net/url's repetition of the whole URL, which may
// hold a password.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// CheckCampaignName refuses a campaign name that an address cannot carry
// plainly: names are 1 to 63 letters, digits, '-', '_' or '.'.
func CheckCampaignName(name string) error {
	if name == "" || len(name) > 63 {
		return fmt.Errorf("campaign name %q: a name in a PostgreSQL address has 1 to 63 characters", name)
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return fmt.Errorf("campaign name %q: a name in a PostgreSQL address holds only letters, digits, '-', '_' and '.'", name)
		}
	}
	return nil
}

// String returns the address as a user gives it, with any password
// hidden.
func (a Address) String() string {
	s := Redact(a.Conn)
	if a.Campaign == "" {
		return s
	}
	sep := "?"
	if strings.Contains(s, "?") {
		sep = "&"
	}
	return s + sep + "campaign=" + url.QueryEscape(a.Campaign)
}

// Database returns the address of the database alone, without a
// campaign, its password hidden.
func (a Address) Database() string { return Redact(a.Conn) }

// Redact returns the address s with its password, if any, replaced by
// "xxxxx": for messages and logs.
func Redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		if i := strings.LastIndex(s, "@"); i >= 0 {
			if j := strings.Index(s, "://"); j >= 0 && j < i {
				return s[:j+3] + "xxxxx" + s[i:]
			}
		}
		return s
	}
	return u.Redacted()
}

// Open opens the campaign the address names for writing, applying any
// migration the database lacks first. A campaign the database does not
// hold is refused with an error matching ErrNoCampaign.
func Open(address string, opts Options) (*Store, error) {
	s, err := openWritable(address, opts)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	if s.quickFind(ctx) {
		return s, nil
	}
	if err := migrate(ctx, s.pool, opts.Now); err != nil {
		s.pool.Close()
		return nil, err
	}
	if err := s.find(ctx); err != nil {
		s.pool.Close()
		return nil, err
	}
	return s, nil
}

// openWritable connects to the address's database for writing.
func openWritable(address string, opts Options) (*Store, error) {
	if opts.Now == nil {
		return nil, errors.New("pgstore: Options.Now is nil: a clock is required")
	}
	return open(address, false)
}

// quickFind reads, in one statement, the usual case of opening: a
// database at this program's schema, holding the campaign, published. It
// reports false for anything else, which the slower path then words
// (and, for a writer, migrates). A command's connection is new, and on a
// new backend each statement is planned with cold caches: one statement
// rather than three saves milliseconds of a command's few.
func (s *Store) quickFind(ctx context.Context) bool {
	var version int64
	var staging bool
	err := s.pool.QueryRow(ctx, `SELECT (SELECT max(version) FROM schema_migrations), c.id, c.staging FROM campaigns c WHERE c.name = $1`,
		s.addr.Campaign).Scan(&version, &s.id, &staging)
	return err == nil && version == SchemaVersion() && !staging
}

// OpenReadOnly opens the campaign the address names for reading only: its
// connections run every transaction read-only (the server refuses any
// write), and it runs no migration: a database whose schema is older than
// this program's is refused with ErrNeedsUpgrade. A read-only replica
// serves it.
func OpenReadOnly(address string) (*Store, error) {
	s, err := open(address, true)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	s.readOnly = true
	if s.quickFind(ctx) {
		return s, nil
	}
	if err := checkSchema(ctx, s.pool); err != nil {
		s.pool.Close()
		return nil, err
	}
	if err := s.find(ctx); err != nil {
		s.pool.Close()
		return nil, err
	}
	return s, nil
}

// ErrNoCampaign means the database holds no campaign of the name the
// address gives. It matches fs.ErrNotExist's role for a campaign file.
var ErrNoCampaign = errors.New("no such campaign in the database")

// ErrStaging means the campaign is still being made or restored, or its
// making stopped half way: no reader opens it.
var ErrStaging = errors.New("the campaign is being made or restored, or its making did not finish")

// ErrBadAddress means an address cannot be read: no database, a campaign
// name it cannot carry, a parameter pgx does not know.
var ErrBadAddress = errors.New("bad PostgreSQL address")

// ErrNoCampaignName means an address names a database but no campaign.
var ErrNoCampaignName = errors.New("the address names no campaign")

// ErrNeedsUpgrade is returned by OpenReadOnly for a database whose schema
// is older than this program's: only Open, for writing, migrates it.
var ErrNeedsUpgrade = errors.New("needs upgrading")

// open connects to the address's database, with connections that name
// its campaign to the row-level policies, read-only ones when readOnly.
func open(address string, readOnly bool) (*Store, error) {
	addr, err := ParseAddress(address)
	if err != nil {
		return nil, err
	}
	if addr.Campaign == "" {
		return nil, fmt.Errorf("%s: %w: add ?campaign=NAME (`ltscamp campaigns --db %s` lists them)", addr, ErrNoCampaignName, addr.Database())
	}
	pool, err := connect(addr, readOnly)
	if err != nil {
		return nil, err
	}
	return &Store{pool: pool, addr: addr}, nil
}

// connect opens a pool on addr's database and checks that a first
// connection works, so that an unreachable server or a refused password
// is reported at once.
func connect(addr Address, readOnly bool) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(loopbackPlain(addr.Conn))
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrBadAddress, addr, redactErr(err, addr.Conn))
	}
	rt := cfg.ConnConfig.RuntimeParams
	if _, ok := rt["application_name"]; !ok {
		rt["application_name"] = "ltscamp"
	}
	// The settings below are made once a connection is up, not sent when
	// it starts: a connection pooler (pgbouncer) refuses startup
	// parameters it does not know. An address that gives one sends it as
	// given, and it is not set again.
	var set []string
	if readOnly {
		// A reader's every transaction is read-only: the server refuses
		// its writes.
		set = append(set, "SET default_transaction_read_only = on")
	}
	if _, ok := rt["lock_timeout"]; !ok {
		// A command never waits long on a lock: one held for longer than
		// this is another program's doing, said as such (events.ErrBusy).
		set = append(set, "SET lock_timeout = '10s'")
	}
	if len(set) > 0 {
		settings := strings.Join(set, "; ")
		cfg.AfterConnect = func(ctx context.Context, conn *pgx.Conn) error {
			_, err := conn.Exec(ctx, settings)
			return err
		}
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = 10 * time.Second
	}
	// A command-line process needs few connections; a reader iterating
	// the log while it reads others needs two.
	if cfg.MaxConns > 8 {
		cfg.MaxConns = 8
	}
	ctx := context.Background()
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, Classify(fmt.Errorf("connect to %s: %v", addr.Database(), redactErr(err, addr.Conn)))
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, Classify(&connectError{addr: addr.Database(), err: err})
	}
	return pool, nil
}

// loopbackPlain returns conn with sslmode=disable added when it names a
// server on this machine (a loopback address or a Unix socket) and
// neither it nor $PGSSLMODE says how to use TLS. pgx's default, like
// libpq's, is "prefer": it asks for TLS first and, from a server without
// it, connects a second time, which doubles the cost of a command's
// connection for an encryption that a connection inside one machine does
// not need.
func loopbackPlain(conn string) string {
	u, err := url.Parse(conn)
	if err != nil || os.Getenv("PGSSLMODE") != "" {
		return conn
	}
	q := u.Query()
	if q.Get("sslmode") != "" {
		return conn
	}
	host := u.Hostname()
	if h := q.Get("host"); h != "" {
		host = h
	}
	if host == "" {
		host = os.Getenv("PGHOST")
	}
	ip := net.ParseIP(host)
	if host != "localhost" && !strings.HasPrefix(host, "/") && (ip == nil || !ip.IsLoopback()) {
		return conn
	}
	q.Set("sslmode", "disable")
	u.RawQuery = q.Encode()
	return u.String()
}

// connectError is a failed first connection: the address, the password
// hidden, and pgx's error, which classifies it.
type connectError struct {
	addr string
	err  error
}

func (e *connectError) Error() string { return "connect to " + e.addr + ": " + cause(e.err) }

// cause returns what a failed connection came to, in a line: the
// server's own message, or the network's error (pgx's tells each address
// it tried, on lines of their own).
func cause(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Severity + ": " + pe.Message + " (SQLSTATE " + pe.Code + ")"
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		return oe.Error()
	}
	return strings.Join(strings.Fields(err.Error()), " ")
}
func (e *connectError) Unwrap() error { return e.err }

// redactErr returns err with conn's password, if it appears, hidden.
func redactErr(err error, conn string) error {
	u, perr := url.Parse(conn)
	if perr != nil || u.User == nil {
		return err
	}
	if pw, ok := u.User.Password(); ok && pw != "" && strings.Contains(err.Error(), pw) {
		return errors.New(strings.ReplaceAll(err.Error(), pw, "xxxxx"))
	}
	return err
}

// find reads the campaign's id.
func (s *Store) find(ctx context.Context) error {
	var staging bool
	err := s.pool.QueryRow(ctx, `SELECT id, staging FROM campaigns WHERE name = $1`, s.addr.Campaign).Scan(&s.id, &staging)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%s: %w %q", s.addr.Database(), ErrNoCampaign, s.addr.Campaign)
	}
	if err != nil {
		return Classify(fmt.Errorf("open campaign %s: %w", s.addr, err))
	}
	if staging {
		return fmt.Errorf("%s: %w", s.addr, ErrStaging)
	}
	return nil
}

// Path returns the campaign's address, its password hidden: what messages
// name the campaign by.
func (s *Store) Path() string { return s.addr.String() }

// ReadOnly reports whether the store was opened with OpenReadOnly.
func (s *Store) ReadOnly() bool { return s.readOnly }

// Close implements events.Store.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// Campaign is a campaign of a database, as Campaigns lists it.
type Campaign struct {
	// Name is the campaign's name, as ?campaign=NAME gives it.
	Name string `json:"name"`
	// Events is the number of events in its log; HeadSeq equals it.
	Events int64 `json:"events"`
	// CreatedAt is when the campaign was made in this database
	// (events.TimeLayout).
	CreatedAt string `json:"created_at"`
	// Staging is true for a campaign still being made or restored, or
	// whose making stopped half way: no command opens it.
	Staging bool `json:"staging"`
}

// Campaigns lists the campaigns of the database address names (its
// campaign parameter, if any, is ignored), by name. A database ltscamp
// never wrote to holds none.
func Campaigns(address string) ([]Campaign, error) {
	addr, err := ParseAddress(address)
	if err != nil {
		return nil, err
	}
	addr.Campaign = ""
	pool, err := connect(addr, true)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	ctx := context.Background()
	var exists bool
	if err := pool.QueryRow(ctx, `SELECT to_regclass('campaigns') IS NOT NULL AND to_regclass('events') IS NOT NULL`).Scan(&exists); err != nil {
		return nil, Classify(fmt.Errorf("list campaigns of %s: %w", addr.Database(), err))
	}
	if !exists {
		return []Campaign{}, nil
	}
	// The head's seq is the number of events: seqs are dense from 1.
	rows, err := pool.Query(ctx, `SELECT c.name, c.created_at, c.staging,
       coalesce((SELECT e.seq FROM events e WHERE e.campaign = c.id ORDER BY e.seq DESC LIMIT 1), 0)
FROM campaigns c ORDER BY c.name`)
	if err != nil {
		return nil, Classify(fmt.Errorf("list campaigns of %s: %w", addr.Database(), err))
	}
	out := []Campaign{}
	for rows.Next() {
		var c Campaign
		if err := rows.Scan(&c.Name, &c.CreatedAt, &c.Staging, &c.Events); err != nil {
			rows.Close()
			return nil, Classify(fmt.Errorf("list campaigns of %s: %w", addr.Database(), err))
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, Classify(fmt.Errorf("list campaigns of %s: %w", addr.Database(), err))
	}
	return out, nil
}
