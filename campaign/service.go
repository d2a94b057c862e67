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
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/ltscamp/ltscamp/events"
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
}

// Service runs commands against one campaign's event log.
type Service struct {
	store   events.Store
	now     func() time.Time
	actor   string
	entropy *ulid.MonotonicEntropy
	roller  rules.Roller
}

// maxAttempts bounds the retries of a command whose streams moved on while
// it was being decided.
const maxAttempts = 3

// New wraps an open store. Tests use it with the in-memory store.
func New(store events.Store, opts Options) (*Service, error) {
	if opts.Now == nil {
		return nil, errors.New("campaign: Options.Now is required")
	}
	if strings.TrimSpace(opts.Actor) == "" {
		return nil, rules.Errorf(rules.CodeInvalid, "the actor is empty: pass --actor NAME or set LTSCAMP_ACTOR")
	}
	ent := opts.Entropy
	if ent == nil {
		ent = rand.Reader
	}
	roller := opts.Roller
	if roller == nil {
		roller = rules.CryptoRoller{}
	}
	return &Service{store: store, now: opts.Now, actor: strings.TrimSpace(opts.Actor), entropy: ulid.Monotonic(ent, 0), roller: roller}, nil
}

// Create makes a new campaign file at path and records campaign.created.
func Create(path, name string, edition rules.Edition, opts Options) (*Service, error) {
	if opts.Now == nil {
		return nil, errors.New("campaign: Options.Now is required")
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, rules.Errorf(rules.CodeInvalid, "the campaign name is empty")
	}
	if _, err := rules.ParseEdition(string(edition)); err != nil {
		return nil, err
	}
	st, err := sqlitestore.Create(path, sqlitestore.Options{Now: opts.Now})
	if err != nil {
		if errors.Is(err, events.ErrExists) {
			return nil, storeError(path, err)
		}
		// A missing folder, a directory in the way, no permission: the
		// user's path cannot hold a campaign.
		return nil, rules.Errorf(rules.CodeInvalid, "cannot create a campaign at %s: %v", path, err)
	}
	s, err := New(st, opts)
	if err != nil {
		st.Close()
		return nil, err
	}
	if err := s.initCampaign(name, edition); err != nil {
		st.Close()
		return nil, err
	}
	return s, nil
}

// Open opens the campaign file at path.
func Open(path string, opts Options) (*Service, error) {
	if opts.Now == nil {
		return nil, errors.New("campaign: Options.Now is required")
	}
	st, err := sqlitestore.Open(path, sqlitestore.Options{Now: opts.Now})
	if err != nil {
		return nil, storeError(path, err)
	}
	s, err := New(st, opts)
	if err != nil {
		st.Close()
		return nil, err
	}
	if v, err := st.StreamVersion(events.CampaignStream); err != nil || v == 0 {
		st.Close()
		if err != nil {
			return nil, err
		}
		return nil, rules.Errorf(rules.CodeNotCampaign, "%s holds no campaign.created event; it is not a usable campaign", path)
	}
	return s, nil
}

// initCampaign records campaign.created in an empty store.
func (s *Service) initCampaign(name string, edition rules.Edition) error {
	_, err := s.execute(func(d *decision) error {
		d.expect(events.CampaignStream, 0)
		return d.emit(events.CampaignStream, events.CampaignCreated{Name: name, Edition: string(edition)})
	})
	return err
}

// Init records campaign.created in an empty store of any kind; tests use it
// with the in-memory store.
func Init(store events.Store, name string, edition rules.Edition, opts Options) (*Service, error) {
	s, err := New(store, opts)
	if err != nil {
		return nil, err
	}
	if _, err := rules.ParseEdition(string(edition)); err != nil {
		return nil, err
	}
	return s, s.initCampaign(name, edition)
}

// Close closes the campaign's store.
func (s *Service) Close() error { return s.store.Close() }

// Store exposes the event store to read-only callers in this module's
// tests and exports.
func (s *Service) Store() events.Store { return s.store }

// storeError turns a store error into a coded domain error.
func storeError(path string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return rules.Errorf(rules.CodeNotCampaign, "no campaign at %s: run `ltscamp init` first, or pass --db FILE", path)
	case errors.Is(err, events.ErrNotCampaign), errors.Is(err, events.ErrNewerFormat):
		return rules.Errorf(rules.CodeNotCampaign, "%v", err)
	case errors.Is(err, events.ErrExists):
		return rules.Errorf(rules.CodeConflict, "%s already exists; choose another --db file (nothing was changed)", path)
	case errors.Is(err, events.ErrConcurrency):
		return rules.Errorf(rules.CodeConflict, "the campaign changed while this command was being decided, %d times in a row; run it again (%v)", maxAttempts, err)
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
	chars    map[string]*character
}

// character is a party member's folded stream.
type character struct {
	member projections.Member
	stream string
	sheet  projections.Sheet
	rolls  projections.Rolls
}

func (d *decision) expect(stream string, version int64) {
	if _, ok := d.expected[stream]; !ok {
		d.expected[stream] = version
	}
}

// emit appends an event to the command being decided.
func (d *decision) emit(stream string, p events.Payload) error {
	pe, err := events.Encode(d.s.newID(), stream, p)
	if err != nil {
		return err
	}
	d.pending = append(d.pending, pe)
	return nil
}

// execute runs decide, appends what it emitted as one command, and retries
// from a fresh read when a stream moved on meanwhile.
func (s *Service) execute(decide func(d *decision) error) (events.AppendResult, error) {
	var lastErr error
	for attempt := 0; attempt < maxAttempts; attempt++ {
		d := &decision{s: s, expected: map[string]int64{}, chars: map[string]*character{}}
		if err := decide(d); err != nil {
			return events.AppendResult{}, err
		}
		if len(d.pending) == 0 {
			return events.AppendResult{}, errors.New("campaign: a command decided to append nothing")
		}
		cmd := events.Command{ID: s.newID(), Actor: s.actor, RecordedAt: s.now().UTC(), Expected: d.expected, Events: d.pending}
		res, err := s.store.Append(cmd)
		if err == nil {
			return res, nil
		}
		if !errors.Is(err, events.ErrConcurrency) {
			return events.AppendResult{}, err
		}
		lastErr = err
	}
	return events.AppendResult{}, storeError("", lastErr)
}

func (s *Service) newID() string {
	return ulid.MustNew(ulid.Timestamp(s.now()), s.entropy).String()
}

// campaignState folds the campaign stream (once per decision).
func (d *decision) campaignState() (*projections.Campaign, error) {
	if d.campaign != nil {
		return d.campaign, nil
	}
	c, err := d.s.campaignState()
	if err != nil {
		return nil, err
	}
	d.expect(events.CampaignStream, c.Version)
	d.campaign = &c
	return d.campaign, nil
}

func (s *Service) campaignState() (projections.Campaign, error) {
	evs, err := s.store.ReadStream(events.CampaignStream, 0)
	if err != nil {
		return projections.Campaign{}, err
	}
	return projections.FoldCampaign(evs)
}

func (d *decision) rosterState() (*projections.Roster, error) {
	if d.roster == nil {
		r, err := d.s.roster()
		if err != nil {
			return nil, err
		}
		d.roster = &r
	}
	return d.roster, nil
}

func (s *Service) roster() (projections.Roster, error) {
	evs, err := s.store.Read(events.Query{StreamPrefix: events.CharacterStreamPrefix, TypePrefix: events.TypeCharacterCreated})
	if err != nil {
		return projections.Roster{}, err
	}
	var r projections.Roster
	for _, e := range evs {
		if err := r.Apply(e); err != nil {
			return projections.Roster{}, err
		}
	}
	return r, nil
}

// findMember resolves a character name, suggesting the nearest on a miss.
func findMember(r *projections.Roster, name string) (projections.Member, error) {
	if m, ok := r.Find(name); ok {
		return m, nil
	}
	name = projections.NormalizeName(name)
	if len(r.Members) == 0 {
		return projections.Member{}, rules.Errorf(rules.CodeNotFound, "no character %q: the party is empty; create one with `ltscamp char new`", name)
	}
	if near, ok := rules.Suggest(name, r.Names()); ok {
		return projections.Member{}, rules.Errorf(rules.CodeNotFound, "no character %q; did you mean %q?", name, near)
	}
	return projections.Member{}, rules.Errorf(rules.CodeNotFound, "no character %q; the party is %s", name, strings.Join(quoteAll(r.Names()), ", "))
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

func (d *decision) characterByMember(m projections.Member) (*character, error) {
	if c, ok := d.chars[m.ID]; ok {
		return c, nil
	}
	c, err := d.s.loadCharacter(m)
	if err != nil {
		return nil, err
	}
	d.expect(c.stream, c.sheet.Version)
	d.chars[m.ID] = c
	return c, nil
}

func (s *Service) loadCharacter(m projections.Member) (*character, error) {
	c := &character{member: m, stream: events.CharacterStream(m.ID)}
	evs, err := s.store.ReadStream(c.stream, 0)
	if err != nil {
		return nil, err
	}
	for _, e := range evs {
		if err := c.sheet.Apply(e); err != nil {
			return nil, err
		}
		if err := c.rolls.Apply(e); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Info describes the campaign.
type Info struct {
	projections.Campaign
	Characters int   `json:"characters"`
	Events     int64 `json:"events"`
}

// Info returns the campaign's name, edition and size.
func (s *Service) Info() (Info, error) {
	c, err := s.campaignState()
	if err != nil {
		return Info{}, err
	}
	r, err := s.roster()
	if err != nil {
		return Info{}, err
	}
	n, err := s.store.Count()
	if err != nil {
		return Info{}, err
	}
	return Info{Campaign: c, Characters: len(r.Members), Events: n}, nil
}

// Sheet returns a character's current sheet.
func (s *Service) Sheet(name string) (projections.Sheet, error) {
	r, err := s.roster()
	if err != nil {
		return projections.Sheet{}, err
	}
	m, err := findMember(&r, name)
	if err != nil {
		return projections.Sheet{}, err
	}
	c, err := s.loadCharacter(m)
	if err != nil {
		return projections.Sheet{}, err
	}
	return c.sheet, nil
}

// Sheets returns every party member's sheet, in creation order.
func (s *Service) Sheets() ([]projections.Sheet, error) {
	r, err := s.roster()
	if err != nil {
		return nil, err
	}
	out := make([]projections.Sheet, 0, len(r.Members))
	for _, m := range r.Members {
		c, err := s.loadCharacter(m)
		if err != nil {
			return nil, err
		}
		out = append(out, c.sheet)
	}
	return out, nil
}

// Ledger returns a character's itemised XP ledger.
func (s *Service) Ledger(name string) (projections.Sheet, projections.Ledger, error) {
	r, err := s.roster()
	if err != nil {
		return projections.Sheet{}, projections.Ledger{}, err
	}
	m, err := findMember(&r, name)
	if err != nil {
		return projections.Sheet{}, projections.Ledger{}, err
	}
	evs, err := s.store.ReadStream(events.CharacterStream(m.ID), 0)
	if err != nil {
		return projections.Sheet{}, projections.Ledger{}, err
	}
	var sheet projections.Sheet
	var l projections.Ledger
	for _, e := range evs {
		if err := sheet.Apply(e); err != nil {
			return sheet, l, err
		}
		if err := l.Apply(e); err != nil {
			return sheet, l, err
		}
	}
	return sheet, l, nil
}

// LogFilter selects events for the log.
type LogFilter struct {
	// Character limits the log to one character's stream.
	Character string
	// TypePrefix keeps event types starting with it ("xp" or "xp.spent").
	TypePrefix string
	// Limit keeps the last Limit events (0: all).
	Limit int
}

// Log returns the events the filter selects, oldest first.
func (s *Service) Log(f LogFilter) ([]events.Event, error) {
	if f.Limit < 0 {
		return nil, rules.Errorf(rules.CodeInvalid, "--limit %d: the limit must be 0 (all) or more", f.Limit)
	}
	q := events.Query{Limit: f.Limit, Last: f.Limit > 0}
	if f.TypePrefix != "" {
		q.TypePrefix = strings.ToLower(strings.TrimSpace(f.TypePrefix))
		if !anyTypeHasPrefix(q.TypePrefix) {
			return nil, rules.Errorf(rules.CodeInvalid, "no event type starts with %q; the types are %s", f.TypePrefix, strings.Join(events.TypeNames(), ", "))
		}
	}
	if f.Character != "" {
		r, err := s.roster()
		if err != nil {
			return nil, err
		}
		m, err := findMember(&r, f.Character)
		if err != nil {
			return nil, err
		}
		q.Streams = []string{events.CharacterStream(m.ID)}
	}
	return s.store.Read(q)
}

func anyTypeHasPrefix(prefix string) bool {
	for _, t := range events.TypeNames() {
		if strings.HasPrefix(t, prefix) {
			return true
		}
	}
	return false
}

// EventCount returns the number of events in the log.
func (s *Service) EventCount() (int64, error) { return s.store.Count() }

// names returns the sorted keys of a set.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
