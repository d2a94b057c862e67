// Package campaign holds the use cases: open a campaign, decide each command
// with the rules, append its events as one unit, and read projections back.
//
// Every command follows one shape: read the streams it depends on, fold them,
// let the rules decide, and append the resulting events with the stream
// versions it read as expectations. A command the rules reject appends
// nothing.
package campaign

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/pgstore"
	"github.com/ltscamp/ltscamp/events/sqlitestore"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// Options configure a Service.
type Options struct {
	// Now is the wall clock. Required: the domain never calls time.Now.
	Now func() time.Time
	// Actor names who runs the commands.
	Actor string
	// Entropy feeds ULIDs; nil means crypto/rand.
	Entropy io.Reader
	// Roller rolls the dice nobody entered by hand; nil means crypto dice.
	Roller rules.Roller
	// Progress, when set, hears how far long work has got: a stage
	// ("loading", "verifying"), the events done and the events in all.
	Progress func(stage string, done, total int64)
	// Build names the program's release ("v1.2.0"), when it has one: the
	// snapshots a build saves are trusted only by the same build.
	Build string
	// SnapEvery, when above 0, saves a fold's snapshot once it read more
	// than SnapEvery events past the last (100 by default): a session
	// that keeps the campaign open and appends all evening (play) saves
	// them more often, so that each command folds few events.
	SnapEvery int
	// Sleep waits between the tries of a command whose streams another
	// process moved on meanwhile; nil means time.Sleep. Tests pass one
	// that only records.
	Sleep func(time.Duration)
	// VerifyKept makes each command that starts from the states the one
	// before it kept (see kept) fold them afresh from the log as well, and
	// fail when they differ: tests run with it, so that every command of
	// every test checks that keeping states changes nothing.
	VerifyKept bool
}

// Service runs commands against one campaign's event log.
type Service struct {
	store   events.Store
	now     func() time.Time
	actor   string
	entropy *ulid.MonotonicEntropy
	// jitter is the service's randomness (Options.Entropy): it spreads
	// the retries of commands that clash (sleep waits between them) and
	// draws the tokens of links (Share).
	jitter io.Reader
	sleep  func(time.Duration)
	roller rules.Roller
	// progress reports long work (Options.Progress), when set.
	progress func(stage string, done, total int64)
	// appended are the events this service's commands appended, in order.
	appended []events.Event
	// snapCode keys the snapshots this build reads and saves; a command
	// saves one when its fold read more than snapEvery events past the
	// last (revertsSnapEvery for the commands stream).
	snapCode                    string
	snapEvery, revertsSnapEvery int
	// rebuildEvery spaces the snapshots Rebuild saves of each stream.
	rebuildEvery int
	// undone caches undoneBetween's answers.
	undone map[[2]int64][]string
	// staleSnapshots counts the snapshots found stale (tests read it).
	staleSnapshots int
	// undoWhole decides undo and redo on the whole log, as the scoped
	// history is checked against in tests.
	undoWhole bool
	// kept are the states the last command folded, for the next one
	// (see kept); verifyKept checks each against a fresh fold.
	kept       *kept
	verifyKept bool
}

// report tells Options.Progress how far long work has got.
func (s *Service) report(stage string, done, total int64) {
	if s.progress != nil {
		s.progress(stage, done, total)
	}
}

// Appended returns the events the commands run through this service have
// appended, in order: what `--json` on a write prints.
func (s *Service) Appended() []events.Event { return s.appended }

// Begin starts the next command of a session that keeps the service open
// (`ltscamp play`): Appended forgets the earlier commands' events.
func (s *Service) Begin() { s.appended = nil }

// SetActor records the commands run from now on as actor's: in a session
// that keeps the service open, each command names its own (--actor). An
// actor New would refuse is refused, and the actor stays as it was.
func (s *Service) SetActor(actor string) error {
	if err := checkActor(actor); err != nil {
		return err
	}
	s.actor = strings.TrimSpace(actor)
	return nil
}

// A command whose streams another process moved on while it was being
// decided is decided again from a fresh read, after a pause that grows
// from retryBase to retryMax, each drawn at random between half the step
// and the step, so that processes that clashed once do not clash again in
// step. It gives up, with a conflict, once retryFor has passed: by the
// clock, or by the pauses alone (a clock that does not move on cannot
// keep it trying for ever).
const (
	retryBase = 2 * time.Millisecond
	retryMax  = 250 * time.Millisecond
	retryFor  = 10 * time.Second
)

// headCheckEvents is how many of the log's last events a command rehashes
// and chains before it appends: a cheap check (a handful of rows, whatever
// the log's length) that the log was not changed at its head. `verify`
// checks the whole log.
const headCheckEvents = 4

// New wraps an open store. Tests use it with the in-memory store.
func New(store events.Store, opts Options) (*Service, error) {
	if opts.Now == nil {
		return nil, errors.New("campaign: Options.Now is required")
	}
	if err := checkActor(opts.Actor); err != nil {
		return nil, err
	}
	ent := opts.Entropy
	if ent == nil {
		ent = rand.Reader
	}
	roller := opts.Roller
	if roller == nil {
		roller = rules.CryptoRoller{}
	}
	sleep := opts.Sleep
	if sleep == nil {
		sleep = time.Sleep
	}
	every := defaultSnapEvery
	if opts.SnapEvery > 0 {
		every = opts.SnapEvery
	}
	return &Service{store: store, now: opts.Now, actor: strings.TrimSpace(opts.Actor), entropy: ulid.Monotonic(ent, 0), jitter: ent, sleep: sleep, roller: roller, progress: opts.Progress,
		snapCode: snapshotCode(opts.Build), snapEvery: every, revertsSnapEvery: min(every, defaultRevertsSnapEvery), rebuildEvery: defaultRebuildEvery,
		verifyKept: opts.VerifyKept}, nil
}

// checkActor refuses an empty actor or one no name may be.
func checkActor(actor string) error {
	if strings.TrimSpace(actor) == "" {
		return rules.Errorf(rules.CodeInvalid, "the actor is empty: pass --actor NAME or set LTSCAMP_ACTOR")
	}
	return rules.CheckName("the actor", strings.TrimSpace(actor))
}

// initCampaign records campaign.created in an empty store.
func (s *Service) initCampaign(name string, edition rules.Edition) error {
	_, err := s.execute(func(d *decision) error {
		d.expect(events.CampaignStream, 0)
		d.setTime(events.GameTime{})
		return d.emit(events.CampaignStream, events.CampaignCreated{Name: name, Edition: string(edition)})
	})
	return err
}

// Close closes the campaign's store.
func (s *Service) Close() error { return s.store.Close() }

// Store exposes the event store to read-only callers in this module's
// tests and exports.
func (s *Service) Store() events.Store { return s.store }

// storeError turns a store error into a coded domain error.
func storeError(path string, err error) error {
	// pgstore's errors come classified already; its Classify reads any
	// broken pipe as the server's, so it is never applied to others
	// (standard output to a full disk).
	err = sqlitestore.Classify(err)
	if path == "" {
		path = "the campaign file"
	}
	path = RedactAddress(path)
	if merr := mediumError(path, err); merr != nil {
		return merr
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return rules.Errorf(rules.CodeNotCampaign, "no campaign at %s: run `ltscamp init` first, or pass --db FILE", path)
	case errors.Is(err, events.ErrNotCampaign), errors.Is(err, events.ErrNewerFormat):
		return rules.Errorf(rules.CodeNotCampaign, "%v", err)
	case errors.Is(err, events.ErrExists):
		return rules.Errorf(rules.CodeConflict, "%s already exists; choose another --db file (nothing was changed)", path)
	}
	return err
}

// mediumError is the coded domain error of a store error that tells of
// the file or the disk (see sqlitestore.Classify), or nil for any other.
// Each says what happened, that nothing was appended, and what to do; the
// store's own words follow in brackets. The *rules.Error wraps err, so
// errors.Is still finds the events sentinel.
func mediumError(path string, err error) error {
	path = RedactAddress(path)
	var code rules.Code
	var msg string
	var damage *sqlitestore.DamageError
	switch {
	case errors.As(err, &damage):
		// Found by SQLite's integrity check, before a write.
		return &rules.Error{Code: rules.CodeInvalidLog, Err: err, Message: fmt.Sprintf(
			"%s is damaged: SQLite's integrity check finds damage in %s (%s); nothing was appended. This is damage to the file (a disk, a copy cut short, a program that wrote over it), not an edit of the log. Keep the file as it is, and restore the campaign from a backup; `ltscamp verify` says more",
			path, damage.Where(), strings.Join(damage.Problems[:min(len(damage.Problems), 2)], "; "))}
	case errors.Is(err, pgstore.ErrTLS):
		code, msg = rules.CodeInvalid, fmt.Sprintf("the TLS connection to the database server of %s failed: its certificate is not trusted or does not name the host, or the handshake failed; nothing was appended: check sslmode and sslrootcert in the address (docs/postgres.md), or the server's certificate", path)
	case errors.Is(err, events.ErrDamaged) && pgstore.IsAddress(path):
		code, msg = rules.CodeInvalidLog, fmt.Sprintf("the database server of %s reports damaged data (a corrupted page or index); nothing was appended: have the database's administrator check the server, and restore the campaign from a backup if the damage is in its rows", path)
	case errors.Is(err, events.ErrUnreachable):
		code, msg = rules.CodeInternal, fmt.Sprintf("the database server of %s cannot be reached, or the connection to it was lost; nothing was appended (a command whose commit was cut off is looked for again, and reported if it went in): check that the server runs and this machine reaches it, then run the command again", path)
	case errors.Is(err, events.ErrDenied):
		code, msg = rules.CodeInvalid, fmt.Sprintf("the database server of %s refused this user: a wrong password, an unknown role, or a role without the rights the command needs; nothing was appended: check the user and password in the address (or ~/.pgpass) and the role's grants (docs/postgres.md)", path)
	case errors.Is(err, events.ErrReadOnly) && pgstore.IsAddress(path):
		code, msg = rules.CodeInvalid, fmt.Sprintf("the database server of %s refuses writes (a read-only replica, or a read-only transaction); nothing was appended: point --db at the primary server to write; commands that only read work on a replica", path)
	case errors.Is(err, events.ErrBusy) && pgstore.IsAddress(path):
		code, msg = rules.CodeConflict, fmt.Sprintf("%s stayed locked by another session for too long (lock_timeout), or the server has no connection left; nothing was appended: run the command again once the other program is done", path)
	case errors.Is(err, events.ErrDamaged):
		code, msg = rules.CodeInvalidLog, fmt.Sprintf("%s is damaged: SQLite cannot read it as a database (truncated, or pages overwritten); nothing was appended. Keep the file as it is, and restore the campaign from a backup (`ltscamp backup`, `ltscamp import log`)", path)
	case errors.Is(err, events.ErrDiskFull):
		code, msg = rules.CodeInternal, fmt.Sprintf("the disk holding %s is full; nothing was appended: free some space and run the command again", path)
	case errors.Is(err, events.ErrReadOnly), strings.Contains(err.Error(), "readonly database"):
		// Campaigns are opened read-write: WAL needs its side files.
		code, msg = rules.CodeInvalid, fmt.Sprintf("%s is read-only to you: this command writes to the campaign, and nothing was appended; commands that only read it (sheet, log, verify, export, backup) still work. To write, copy it somewhere writable, or make it and its folder writable", path)
	case errors.Is(err, events.ErrBusy):
		code, msg = rules.CodeConflict, fmt.Sprintf("%s stayed locked by another process for too long; nothing was appended: run the command again once the other program is done with the file", path)
	case errors.Is(err, events.ErrIO):
		code, msg = rules.CodeInternal, fmt.Sprintf("the operating system could not read or write %s (a failing disk, a network share gone, a file removed while in use); nothing was appended: check the disk and run the command again", path)
	case errors.Is(err, events.ErrBrokenHead):
		return err // its message says it already
	default:
		return nil
	}
	return &rules.Error{Code: code, Message: fmt.Sprintf("%s (%v)", msg, err), Err: err}
}

// MediumError is storeError for callers outside the package: a store
// error that tells of the file or the disk becomes a coded domain error
// that says what happened; any other comes back as it is.
func MediumError(path string, err error) error {
	if err == nil {
		return nil
	}
	var re *rules.Error
	if errors.As(err, &re) {
		return err // coded already
	}
	if merr := mediumError(path, sqlitestore.Classify(err)); merr != nil {
		return merr
	}
	return err
}

// decision collects what one attempt at a command read and wants to append.
type decision struct {
	s        *Service
	expected map[string]int64
	pending  []events.Pending
	// cache of folded streams, so a command reads each stream once.
	campaign *projections.Campaign
	roster   *projections.Roster
	reverts  *projections.Reverts
	chars    map[string]*character
	fleet    *projections.Fleet
	df       *projections.Dogfight
	ships    map[string]*ship
	// at is the game time the command has reached: read from the
	// campaign at the first emit, moved on by commands that move time.
	at *events.GameTime
	// snapshots are the states the command saves with its events.
	snapshots []events.Snapshot
	// provisional names the streams whose folded state holds events the
	// command emitted (emitApplied), not yet appended; rosterMoved tells
	// that the roster holds some.
	provisional map[string]bool
	rosterMoved bool
	// kept are the states the command before this one left, when the
	// log's head is still where that command left it (nil otherwise);
	// the folds below are where each state the command read was taken.
	kept                         *kept
	revertsF, campaignF, rosterF folded
}

// character is a party member's folded stream.
type character struct {
	member projections.Member
	stream string
	sheet  projections.Sheet
	rolls  projections.Rolls
	// folded is how far sheet and rolls are folded.
	folded folded
}

// apply folds e, the stream's next event, into the sheet and the rolls,
// unless they hold it already.
func (c *character) apply(e events.Event) error {
	if e.StreamVersion <= c.folded.version {
		return nil
	}
	if err := c.sheet.Apply(e); err != nil {
		return err
	}
	if err := c.rolls.Apply(e); err != nil {
		return err
	}
	c.folded.advance(e.StreamVersion, e.Seq)
	c.folded.audit = c.folded.audit || addsToAudit(e)
	return nil
}

func (d *decision) expect(stream string, version int64) {
	if _, ok := d.expected[stream]; !ok {
		d.expected[stream] = version
	}
}

// gameTime returns the game time the command has reached.
func (d *decision) gameTime() (*events.GameTime, error) {
	if d.at == nil {
		c, err := d.campaignState()
		if err != nil {
			return nil, err
		}
		now := c.Now()
		d.at = &now
	}
	return d.at, nil
}

// setTime moves the command's game time: the events emitted after it are
// stamped with the new time.
func (d *decision) setTime(g events.GameTime) { d.at = &g }

// emit appends an event to the command being decided, stamped with the
// game time the command has reached.
func (d *decision) emit(stream string, p events.Payload) error {
	at, err := d.gameTime()
	if err != nil {
		return err
	}
	pe, err := events.Encode(d.s.newID(), stream, p, at)
	if err != nil {
		return err
	}
	d.pending = append(d.pending, pe)
	return nil
}

// emitApplied emits an event and folds it at once into the decision's
// state (apply: the folds of the streams it touches), so that the rest of
// the command sees what it has decided so far: a roster import creates a
// character, then equips him, then crews a ship with him. The event folded
// is provisional: its seq and stream version are not known until append.
func (d *decision) emitApplied(stream string, p events.Payload, apply ...func(events.Event) error) error {
	if err := d.emit(stream, p); err != nil {
		return err
	}
	if d.provisional == nil {
		d.provisional = map[string]bool{}
	}
	d.provisional[stream] = true
	pe := d.pending[len(d.pending)-1]
	e := events.Event{ID: pe.ID, Stream: pe.Stream, Type: pe.Type, PayloadVersion: pe.PayloadVersion, Payload: pe.Payload}
	if rosterFolds(e) {
		d.rosterMoved = true
	}
	for _, f := range apply {
		if err := f(e); err != nil {
			return err
		}
	}
	return nil
}

// execute runs decide, appends what it emitted as one command, and retries
// from a fresh read when a stream moved on meanwhile.
func (s *Service) execute(decide func(d *decision) error) (events.AppendResult, error) {
	res, _, err := s.executeDecided(decide)
	return res, err
}

// executeDecided is execute that also returns the decision appended, for
// sheetsAfter.
func (s *Service) executeDecided(decide func(d *decision) error) (events.AppendResult, *decision, error) {
	// A command decided on the states the one before it kept skips the
	// check of the head: its append expects the head they were kept at,
	// and the store refuses it when that moved or anything else touched
	// the log; it is then checked and decided again from the log.
	checked := false
	start := s.now()
	var slept time.Duration
	step := retryBase
	for tries := 1; ; tries++ {
		d := s.newDecision()
		var err error
		if d.kept, err = s.keptNow(); err != nil {
			return events.AppendResult{}, nil, err
		}
		if d.kept == nil && !checked {
			if _, err = s.checkHead(); err != nil {
				return events.AppendResult{}, nil, err
			}
			checked = true
		}
		err = decide(d)
		if err == nil && len(d.pending) == 0 {
			err = errors.New("campaign: a command decided to append nothing")
		}
		if err != nil && d.kept != nil {
			// Refused on kept states, which another process may have
			// moved past: decided again from the log, the refusal is
			// the log's.
			s.kept = nil
			continue
		}
		if err != nil {
			return events.AppendResult{}, nil, s.mediumError(err)
		}
		cmd := events.Command{ID: s.newID(), Actor: s.actor, RecordedAt: s.now().UTC(), Expected: d.expected, Events: d.pending, Snapshots: d.snapshots}
		if k := d.kept; k != nil {
			cmd.ExpectedHead = &events.Head{Seq: k.head.seq, Hash: k.head.hash}
		}
		res, err := s.store.Append(cmd)
		if err == nil {
			s.keep(d, res)
			s.appended = append(s.appended, res.Events...)
			return res, d, nil
		}
		s.kept = nil // the next try reads afresh
		if d.kept != nil && errors.Is(err, events.ErrConcurrency) {
			// Decided on states the log has moved past: check the head
			// and decide again, at once.
			continue
		}
		if !errors.Is(err, events.ErrConcurrency) {
			return events.AppendResult{}, nil, s.mediumError(err)
		}
		if elapsed := s.now().Sub(start); max(elapsed, slept) >= retryFor {
			return events.AppendResult{}, nil, rules.Errorf(rules.CodeConflict,
				"the campaign kept changing while this command was being decided: %d tries in %s, each beaten by another process's command; nothing was appended: run it again (%v)",
				tries, max(elapsed, slept).Round(time.Millisecond), err)
		}
		pause := s.jittered(step)
		s.sleep(pause)
		slept += pause
		step = min(2*step, retryMax)
	}
}

// jittered returns a pause drawn at random between half of step and step,
// from the service's entropy (step itself if the entropy fails).
func (s *Service) jittered(step time.Duration) time.Duration {
	var b [8]byte
	if _, err := io.ReadFull(s.jitter, b[:]); err != nil {
		return step
	}
	half := step / 2
	return half + time.Duration(binary.BigEndian.Uint64(b[:])%uint64(step-half+1))
}

// checkHead refuses to append to a log whose last events do not chain: it
// rehashes the last headCheckEvents events and checks that each continues
// the one before. That reads a handful of rows, whatever the log's length:
// it notices an event edited at the head, not one edited deeper (`verify`
// reads the whole log). It returns the head it checked (seq 0 and no hash
// for an empty log).
func (s *Service) checkHead() (logHead, error) {
	last, err := s.store.Read(events.Query{Limit: headCheckEvents, Last: true})
	if err != nil {
		if merr := s.mediumError(err); merr != err {
			return logHead{}, merr
		}
		return logHead{}, s.brokenHead(fmt.Sprintf("its last events cannot be read: %v", err), err)
	}
	if len(last) == 0 {
		return logHead{}, nil
	}
	prev := last[0].PrevHash
	if last[0].Seq == 1 {
		prev = events.GenesisHash()
	}
	if seq, reason, broken := events.ChainBreak(last, prev); broken {
		return logHead{}, s.brokenHead(fmt.Sprintf("seq %d: %s", seq, reason), events.ErrBrokenHead)
	}
	return headOf(last[len(last)-1]), nil
}

// brokenHead is the error of a write refused by checkHead.
func (s *Service) brokenHead(why string, err error) error {
	if !errors.Is(err, events.ErrBrokenHead) {
		err = fmt.Errorf("%w: %w", events.ErrBrokenHead, err)
	}
	return &rules.Error{Code: rules.CodeInvalidLog, Err: err, Message: fmt.Sprintf(
		"%s was changed outside ltscamp: %s; nothing was appended: run `ltscamp verify` to see what changed, and restore the campaign from a backup",
		s.path(), why)}
}

// mediumError is storeError's mediumError for an error of this service's
// store, which is returned as it is when it tells of something else.
func (s *Service) mediumError(err error) error { return MediumError(s.path(), err) }

// path names the campaign's file in messages.
func (s *Service) path() string {
	if p, ok := s.store.(interface{ Path() string }); ok && p.Path() != "" {
		return p.Path()
	}
	return "the campaign file"
}

// sheetsAfter returns the sheets of the characters cs that decision d
// folded, after the command it decided was appended as res: each state as
// d folded it, with the command's own events on that stream applied. The
// append held only at the stream and commands versions d read, so this is
// the fold a fresh read would make (TestSnapshotsEqualTheFullFold checks it),
// without reading the log again. A character whose state d already moved
// on while deciding (emitApplied) is read afresh.
func (s *Service) sheetsAfter(d *decision, res events.AppendResult, cs ...*character) ([]projections.Sheet, error) {
	out := make([]projections.Sheet, 0, len(cs))
	for _, c := range cs {
		if d.provisional[c.stream] {
			sh, err := s.Sheet(c.sheet.Name)
			if err != nil {
				return nil, err
			}
			out = append(out, sh)
			continue
		}
		for _, e := range res.Events {
			if e.Stream != c.stream {
				continue
			}
			if err := c.apply(e); err != nil {
				return nil, err
			}
		}
		out = append(out, c.sheet)
	}
	return out, nil
}

// newDecision starts a decision with nothing read or decided yet.
func (s *Service) newDecision() *decision {
	return &decision{s: s, expected: map[string]int64{}, chars: map[string]*character{}}
}

func (s *Service) newID() string {
	return ulid.MustNew(ulid.Timestamp(s.now()), s.entropy).String()
}

// revertsState folds the commands stream (once per decision): every
// command depends on which earlier commands are in effect.
func (d *decision) revertsState() (*projections.Reverts, error) {
	if d.reverts == nil {
		if k := d.kept; k != nil && k.reverts != nil {
			d.reverts, d.revertsF = k.reverts, k.revertsF
		} else {
			r, f, err := d.s.foldReverts(0)
			if err != nil {
				return nil, err
			}
			d.reverts, d.revertsF = &r, f
		}
		d.expect(events.CommandsStream, d.reverts.Version)
		if err := d.snapshotDue(d.revertsF, events.CommandsStream, projections.SnapReverts, d.s.revertsSnapEvery, true, d.reverts.Encode); err != nil {
			return nil, err
		}
	}
	return d.reverts, nil
}

// reverts folds the commands stream up to seq (0: all of it).
func (s *Service) reverts(upTo int64) (projections.Reverts, error) {
	r, _, err := s.foldReverts(upTo)
	return r, err
}

// foldReverts folds the commands stream up to seq (0: all of it), from its
// snapshot when there is one.
func (s *Service) foldReverts(upTo int64) (projections.Reverts, folded, error) {
	var r projections.Reverts
	sn, ok, err := s.snapshot(events.CommandsStream, projections.SnapReverts, nil, upTo)
	if err != nil {
		return r, folded{}, err
	}
	if ok {
		if r, err = projections.DecodeReverts(sn.State, s.eventAt); err != nil {
			r, sn = projections.Reverts{}, events.Snapshot{} // fold from the start
		}
	}
	// Every event of the commands stream is in effect: undo and redo are
	// never themselves undone.
	f, err := s.foldFrom(events.CommandsStream, sn, nil, upTo, r.Apply)
	return r, f, err
}

// campaignState folds the campaign stream (once per decision).
func (d *decision) campaignState() (*projections.Campaign, error) {
	if d.campaign != nil {
		return d.campaign, nil
	}
	rv, err := d.revertsState()
	if err != nil {
		return nil, err
	}
	if k := d.kept; k != nil && k.campaign != nil {
		d.campaign, d.campaignF = k.campaign, k.campaignF
	} else {
		c, f, err := d.s.foldCampaign(rv, 0)
		if err != nil {
			return nil, err
		}
		d.campaign, d.campaignF = &c, f
	}
	c, f := d.campaign, d.campaignF
	d.expect(events.CampaignStream, c.Version)
	if c.Version == f.version {
		snap := func() ([]byte, error) { return projections.EncodeCampaign(*c) }
		if err := d.snapshotDue(f, events.CampaignStream, projections.SnapCampaign, d.s.snapEvery, false, snap); err != nil {
			return nil, err
		}
	}
	return d.campaign, nil
}

// campaignState folds the campaign stream's events in effect, up to seq
// (0: all).
func (s *Service) campaignState(rv *projections.Reverts, upTo int64) (projections.Campaign, error) {
	c, _, err := s.foldCampaign(rv, upTo)
	return c, err
}

// foldCampaign folds the campaign stream's events in effect, up to seq
// (0: all), from its newest snapshot that holds.
func (s *Service) foldCampaign(rv *projections.Reverts, upTo int64) (projections.Campaign, folded, error) {
	var c projections.Campaign
	sn, ok, err := s.snapshot(events.CampaignStream, projections.SnapCampaign, rv, upTo)
	if err != nil {
		return c, folded{}, err
	}
	if ok {
		if c, err = projections.DecodeCampaign(sn.State); err != nil {
			c, sn = projections.Campaign{}, events.Snapshot{} // fold from the start
		}
	}
	// campaign.created is folded even out of effect, and every event
	// moves the version on, so that a decision expects the version it
	// really read.
	f, err := s.foldFrom(events.CampaignStream, sn, nil, upTo, func(e events.Event) error {
		if !rv.InEffect(e) && e.Type != events.TypeCampaignCreated {
			c.Version = e.StreamVersion
			return nil
		}
		return c.Apply(e)
	})
	if err != nil {
		return projections.Campaign{}, f, err
	}
	if c.Name == "" {
		return projections.Campaign{}, f, fmt.Errorf("the campaign stream has no campaign.created event")
	}
	return c, f, nil
}

func (d *decision) rosterState() (*projections.Roster, error) {
	if d.roster == nil {
		rv, err := d.revertsState()
		if err != nil {
			return nil, err
		}
		if k := d.kept; k != nil && k.roster != nil {
			d.roster, d.rosterF = k.roster, k.rosterF
		} else {
			r, f, err := d.s.foldRoster(rv, 0)
			if err != nil {
				return nil, err
			}
			d.roster, d.rosterF = &r, f
		}
		r := d.roster
		snap := func() ([]byte, error) { return projections.EncodeRoster(*r) }
		if err := d.snapshotDue(d.rosterF, rosterView, projections.SnapRoster, d.s.snapEvery, false, snap); err != nil {
			return nil, err
		}
	}
	return d.roster, nil
}

// roster lists the characters whose creation is in effect, and the foes
// added and not removed, up to seq (0: all).
func (s *Service) roster(rv *projections.Reverts, upTo int64) (projections.Roster, error) {
	r, _, err := s.foldRoster(rv, upTo)
	return r, err
}

// rosterFolds reports whether the roster folds e, as foldRoster's
// queries select it: a character's creation, or a foe's own events.
func rosterFolds(e events.Event) bool {
	return (strings.HasPrefix(e.Stream, events.CharacterStreamPrefix) && e.Type == events.TypeCharacterCreated) ||
		(strings.HasPrefix(e.Stream, events.FoeStreamPrefix) && strings.HasPrefix(e.Type, "foe."))
}

// rosterView names the roster's snapshots: the roster is folded from
// events across streams (see events.Snapshot.Across).
const rosterView = "roster"

// foldRoster folds the roster as roster does, from its newest snapshot
// that holds. The fold's version is the highest seq it read.
func (s *Service) foldRoster(rv *projections.Reverts, upTo int64) (projections.Roster, folded, error) {
	var r projections.Roster
	sn, ok, err := s.snapshot(rosterView, projections.SnapRoster, rv, upTo)
	if err != nil {
		return r, folded{}, err
	}
	if ok {
		if r, err = projections.DecodeRoster(sn.State); err != nil {
			r, sn = projections.Roster{}, events.Snapshot{} // fold from the start
		}
	}
	f := folded{version: sn.Seq, seq: sn.Seq}
	apply := func(e events.Event) error {
		f.read++
		f.seq = max(f.seq, e.Seq)
		f.version = f.seq
		return r.Apply(e)
	}
	for _, q := range []events.Query{
		{StreamPrefix: events.CharacterStreamPrefix, TypePrefix: events.TypeCharacterCreated, AfterSeq: sn.Seq, UpToSeq: upTo},
		{StreamPrefix: events.FoeStreamPrefix, TypePrefix: "foe.", AfterSeq: sn.Seq, UpToSeq: upTo},
	} {
		if err := s.foldInEffect(q, rv, apply); err != nil {
			return r, f, err
		}
	}
	return r, f, nil
}

// foldInEffect reads the events q selects and folds those in effect.
func (s *Service) foldInEffect(q events.Query, rv *projections.Reverts, apply func(events.Event) error) error {
	evs, err := s.store.Read(q)
	if err != nil {
		return err
	}
	for _, e := range evs {
		if !rv.InEffect(e) {
			continue
		}
		if err := apply(e); err != nil {
			return err
		}
	}
	return nil
}

// findMember resolves a party member's name, suggesting the nearest on a
// miss.
func findMember(r *projections.Roster, name string) (projections.Member, error) {
	if m, ok := r.Find(name); ok {
		return m, nil
	}
	name = projections.NormalizeName(name)
	if f, ok := r.FindFoe(name); ok {
		return projections.Member{}, rules.Errorf(rules.CodeRule, "%s is a foe, not a party member: foes have no XP, karma, wishes, curses or rest", f.Name)
	}
	if len(r.Members) == 0 {
		return projections.Member{}, rules.Errorf(rules.CodeNotFound, "no character %q: the party is empty; create one with `ltscamp char new`", name)
	}
	if near, ok := rules.Suggest(name, r.Names()); ok {
		return projections.Member{}, rules.Errorf(rules.CodeNotFound, "no character %q; did you mean %q?", name, near)
	}
	return projections.Member{}, rules.Errorf(rules.CodeNotFound, "no character %q; the party is %s", name, strings.Join(quoteAll(r.Names()), ", "))
}

// findCombatant resolves the name of a party member or a foe, suggesting
// the nearest of either on a miss.
func findCombatant(r *projections.Roster, name string) (projections.Member, error) {
	if m, ok := r.FindAny(name); ok {
		return m, nil
	}
	if len(r.Foes) == 0 {
		return findMember(r, name)
	}
	name = projections.NormalizeName(name)
	all := append(r.Names(), r.FoeNames()...)
	if near, ok := rules.Suggest(name, all); ok {
		return projections.Member{}, rules.Errorf(rules.CodeNotFound, "no character or foe %q; did you mean %q?", name, near)
	}
	foes := "the foes are " + strings.Join(quoteAll(r.FoeNames()), ", ")
	party := "the party is empty"
	if len(r.Members) > 0 {
		party = "the party is " + strings.Join(quoteAll(r.Names()), ", ")
	}
	return projections.Member{}, rules.Errorf(rules.CodeNotFound, "no character or foe %q; %s; %s", name, party, foes)
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// character loads and folds a party member's stream (once per decision) and
// records its version as an expectation.
func (d *decision) character(name string) (*character, error) {
	r, err := d.rosterState()
	if err != nil {
		return nil, err
	}
	m, err := findMember(r, name)
	if err != nil {
		return nil, err
	}
	return d.characterByMember(m)
}

// combatant loads a party member or a foe by name: whoever can roll,
// attack, be attacked, fly, fire or crew.
func (d *decision) combatant(name string) (*character, error) {
	r, err := d.rosterState()
	if err != nil {
		return nil, err
	}
	m, err := findCombatant(r, name)
	if err != nil {
		return nil, err
	}
	return d.characterByMember(m)
}

func (d *decision) characterByMember(m projections.Member) (*character, error) {
	if c, ok := d.chars[m.ID]; ok {
		return c, nil
	}
	rv, err := d.revertsState()
	if err != nil {
		return nil, err
	}
	c := d.kept.character(m.ID)
	if c != nil {
		c.member = m // as the roster names him now
	} else if c, _, err = d.s.foldCharacter(m, rv, 0); err != nil {
		return nil, err
	}
	f := c.folded
	d.expect(c.stream, f.version)
	d.chars[m.ID] = c
	snap := func() ([]byte, error) { return projections.EncodeCharacter(c.sheet, c.rolls) }
	if err := d.snapshotDue(f, c.stream, projections.SnapCharacter, d.s.snapEvery, false, snap); err != nil {
		return nil, err
	}
	if err := d.auditSnapshotDue(c.stream, f); err != nil {
		return nil, err
	}
	return c, nil
}

// auditSnapshotDue saves the XP audit of a party member's stream with his
// character snapshot, so that `audit xp` folds only the events after it.
//
// It is saved only when the events the character's fold read add to the
// audit (an award, a spend: a run of rolls leaves it as it was), and once
// the events since the last one number at least 1/auditRowsPerEvent of its
// rows: it holds every row of his history (a character of 100,000 events
// has megabytes of them), so that writing it costs each event folded a
// few rows at most.
func (d *decision) auditSnapshotDue(stream string, f folded) error {
	if f.read <= d.s.snapEvery || !f.audit || !strings.HasPrefix(stream, events.CharacterStreamPrefix) {
		return nil
	}
	camp, err := d.campaignState()
	if err != nil {
		return err
	}
	a, fa, err := d.s.foldAudit(stream, camp.Edition, d.reverts, 0)
	if err != nil || fa.version != f.version {
		return err // the stream moved on meanwhile: the append will say so
	}
	if fa.read*auditRowsPerEvent < len(a.Rows) {
		return nil
	}
	return d.snapshotDue(fa, stream, projections.SnapAudit, d.s.snapEvery, false, func() ([]byte, error) { return json.Marshal(a) })
}

// auditRowsPerEvent bounds the rows an XP audit snapshot writes for each
// event folded since the last (see auditSnapshotDue).
const auditRowsPerEvent = 8

// addsToAudit reports whether e adds a row to a character's XP audit
// (projections.Ledger's events).
func addsToAudit(e events.Event) bool {
	switch e.Type {
	case events.TypeXPAwarded, events.TypeXPSpent, events.TypeCurseLifted:
		return true
	}
	return false
}

// loadCharacter folds a character's stream, events in effect only, up to
// seq (0: all). It also returns the stream version read, which counts the
// events out of effect too.
func (s *Service) loadCharacter(m projections.Member, rv *projections.Reverts, upTo int64) (*character, int64, error) {
	c, f, err := s.foldCharacter(m, rv, upTo)
	return c, f.version, err
}

// foldCharacter folds a character's stream as loadCharacter does, from
// its newest snapshot that holds.
func (s *Service) foldCharacter(m projections.Member, rv *projections.Reverts, upTo int64) (*character, folded, error) {
	c := &character{member: m, stream: m.Stream()}
	sn, ok, err := s.snapshot(c.stream, projections.SnapCharacter, rv, upTo)
	if err != nil {
		return nil, folded{}, err
	}
	if ok {
		if c.sheet, c.rolls, err = projections.DecodeCharacter(sn.State); err != nil {
			c.sheet, c.rolls, sn = projections.Sheet{}, projections.Rolls{}, events.Snapshot{} // fold from the start
		}
	}
	audit := false
	f, err := s.foldFrom(c.stream, sn, rv, upTo, c.sheet.Apply, c.rolls.Apply, func(e events.Event) error {
		audit = audit || addsToAudit(e)
		return nil
	})
	if err != nil {
		return nil, f, err
	}
	f.audit = audit
	c.folded = f
	return c, f, nil
}

// foldStream folds a stream's events in effect, up to seq (0: all), into
// each of apply, and returns the stream version read (which counts the
// events out of effect too, so a decision expects what it really read).
func (s *Service) foldStream(stream string, rv *projections.Reverts, upTo int64, apply ...func(events.Event) error) (int64, error) {
	f, err := s.foldFrom(stream, events.Snapshot{}, rv, upTo, apply...)
	if err != nil {
		return 0, err
	}
	return f.version, nil
}

// SchemaVersion is the campaign-file schema this program writes.
func SchemaVersion() int64 { return sqlitestore.SchemaVersion() }
