package campaign

import (
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// view is a consistent read of the campaign at one point of the log: the
// commands in effect then, and the events up to it.
type view struct {
	s *Service
	// upTo is the last seq seen (0: the whole log).
	upTo int64
	rv   projections.Reverts
}

// view reads the campaign as of a point (see ResolveAsOf); "" means now.
func (s *Service) view(asOf string) (*view, error) {
	upTo, err := s.ResolveAsOf(asOf)
	if err != nil {
		return nil, err
	}
	rv, err := s.reverts(upTo)
	if err != nil {
		return nil, err
	}
	return &view{s: s, upTo: upTo, rv: rv}, nil
}

// ResolveAsOf turns an as-of point into the last seq it includes: a seq, an
// event ID (ULID), an RFC 3339 time (the last event recorded at or before
// it), or the end of a game day: "day:N" (of the current or latest
// adventure) or "adventure:A:day:N". "" means the whole log (0).
func (s *Service) ResolveAsOf(asOf string) (int64, error) {
	asOf = strings.TrimSpace(asOf)
	if asOf == "" {
		return 0, nil
	}
	head, _, err := s.store.Head()
	if err != nil {
		return 0, err
	}
	if n, err := strconv.ParseInt(asOf, 10, 64); err == nil {
		if n < 1 || n > head {
			return 0, rules.Errorf(rules.CodeNotFound, "--as-of %d: the log runs from seq 1 to %d", n, head)
		}
		return n, nil
	}
	if adventure, day, ok, err := parseDayPoint(asOf); ok {
		if err != nil {
			return 0, err
		}
		_, to, err := s.gameTimeRange(adventure, day, nil)
		return to, err
	}
	if t, err := time.Parse(time.RFC3339Nano, asOf); err == nil {
		evs, err := s.store.Read(events.Query{Until: t, Limit: 1, Last: true})
		if err != nil {
			return 0, err
		}
		if len(evs) == 0 {
			return 0, rules.Errorf(rules.CodeNotFound, "--as-of %s: the campaign did not exist yet (its first event is later)", asOf)
		}
		return evs[0].Seq, nil
	}
	e, err := s.store.EventByID(strings.ToUpper(asOf))
	if errors.Is(err, events.ErrNotFound) {
		return 0, rules.Errorf(rules.CodeInvalid, "--as-of %q: give a seq (42), an event id (a 26-letter ULID) or an RFC 3339 time (2026-11-21T20:00:00Z)", asOf)
	}
	if err != nil {
		return 0, err
	}
	return e.Seq, nil
}

func (v *view) campaign() (projections.Campaign, error) { return v.s.campaignState(&v.rv, v.upTo) }

func (v *view) roster() (projections.Roster, error) { return v.s.roster(&v.rv, v.upTo) }

func (v *view) character(name string) (*character, error) {
	r, err := v.roster()
	if err != nil {
		return nil, err
	}
	m, err := findCombatant(&r, name)
	if err != nil {
		if v.upTo > 0 && rules.CodeOf(err) == rules.CodeNotFound {
			return nil, rules.Errorf(rules.CodeNotFound, "%v (as of seq %d)", err, v.upTo)
		}
		return nil, err
	}
	c, _, err := v.s.loadCharacter(m, &v.rv, v.upTo)
	return c, err
}

// Edition returns the campaign's edition.
func (s *Service) Edition() (rules.Edition, error) {
	v, err := s.view("")
	if err != nil {
		return "", err
	}
	c, err := v.campaign()
	return c.Edition, err
}

// Sheet returns a character's current sheet.
func (s *Service) Sheet(name string) (projections.Sheet, error) { return s.SheetAsOf(name, "") }

// SheetAsOf returns a character's sheet exactly as it was at a point of the
// log: a seq, an event ID or an RFC 3339 time ("" for now). Undo and redo
// recorded after that point do not count; those before it do.
func (s *Service) SheetAsOf(name, asOf string) (projections.Sheet, error) {
	v, err := s.view(asOf)
	if err != nil {
		return projections.Sheet{}, err
	}
	c, err := v.character(name)
	if err != nil {
		return projections.Sheet{}, err
	}
	return c.sheet, nil
}

// SheetByID returns the current sheet of the party member or foe on the
// roster whose ID is id: a reference that stays the same whatever his name
// (the web pages link by it). A member or foe who is not there is
// CodeNotFound.
func (s *Service) SheetByID(id string) (projections.Sheet, error) {
	v, err := s.view("")
	if err != nil {
		return projections.Sheet{}, err
	}
	r, err := v.roster()
	if err != nil {
		return projections.Sheet{}, err
	}
	for _, m := range slices.Concat(r.Members, r.Foes) {
		if m.ID == id {
			c, _, err := s.loadCharacter(m, &v.rv, 0)
			if err != nil {
				return projections.Sheet{}, err
			}
			return c.sheet, nil
		}
	}
	return projections.Sheet{}, rules.Errorf(rules.CodeNotFound, "no character or foe %q on the roster", id)
}

// Sheets returns every party member's sheet, in creation order.
func (s *Service) Sheets() ([]projections.Sheet, error) { return s.SheetsAsOf("") }

// SheetsAsOf returns every party member's sheet as it was at a point of
// the log (see SheetAsOf), in creation order.
func (s *Service) SheetsAsOf(asOf string) ([]projections.Sheet, error) {
	return s.rosterSheets(asOf, func(r projections.Roster) []projections.Member { return r.Members })
}

// rosterSheets folds, as of a point of the log, the sheets of the roster's
// members that pick chooses (the party, or the foes), as foldSheets does.
func (s *Service) rosterSheets(asOf string, pick func(projections.Roster) []projections.Member) ([]projections.Sheet, error) {
	v, err := s.view(asOf)
	if err != nil {
		return nil, err
	}
	r, err := v.roster()
	if err != nil {
		return nil, err
	}
	// All at once: one pass over the log when the snapshots leave much
	// to read, never one fold of the log per member.
	return s.foldSheets(pick(r), &v.rv, v.upTo)
}

// Characters returns the party roster.
func (s *Service) Characters() ([]projections.Member, error) {
	v, err := s.view("")
	if err != nil {
		return nil, err
	}
	r, err := v.roster()
	return r.Members, err
}

// LogFilter selects events for the log.
type LogFilter struct {
	// Character limits the log to one character's stream.
	Character string
	// TypePrefix keeps event types starting with it ("xp" or "xp.spent").
	TypePrefix string
	// Actor keeps events recorded by this actor.
	Actor string
	// Since and Until keep events recorded in that wall-time range.
	Since, Until time.Time
	// All includes the undo and redo events themselves. With Character, it
	// includes those that revert or restore one of the character's commands.
	All bool
	// Limit keeps the last Limit events (0: all).
	Limit int

	// Adventure and Day keep the events of one adventure, or of one day of
	// it (Day alone: of the current or latest adventure). They are resolved
	// to a seq range from the campaign's calendar.
	Adventure, Day int
}

// LogEntry is one event in the log, with the undo that reverted its
// command, if any.
type LogEntry struct {
	events.Event
	// Reverted is set when the event's command is out of effect.
	Reverted *projections.Revert
}

// Log returns the events the filter selects, oldest first, marking those
// whose command was reverted.
func (s *Service) Log(f LogFilter) ([]LogEntry, error) {
	if f.Limit < 0 {
		return nil, rules.Errorf(rules.CodeInvalid, "--limit %d: the limit must be 0 (all) or more", f.Limit)
	}
	if !f.Since.IsZero() && !f.Until.IsZero() && f.Until.Before(f.Since) {
		return nil, rules.Errorf(rules.CodeInvalid, "--until %s is before --since %s", f.Until.Format(time.RFC3339), f.Since.Format(time.RFC3339))
	}
	q := events.Query{Limit: f.Limit, Last: f.Limit > 0, Since: f.Since, Until: f.Until}
	if f.Adventure != 0 || f.Day != 0 {
		from, to, err := s.gameTimeRange(f.Adventure, f.Day, nil)
		if err != nil {
			return nil, err
		}
		q.AfterSeq, q.UpToSeq = from-1, to
	}
	if f.Actor = strings.TrimSpace(f.Actor); f.Actor != "" {
		q.Actors = []string{f.Actor}
	}
	all := f.All
	if f.TypePrefix != "" {
		q.TypePrefix = strings.ToLower(strings.TrimSpace(f.TypePrefix))
		if !anyTypeHasPrefix(q.TypePrefix) {
			return nil, rules.Errorf(rules.CodeInvalid, "no event type starts with %q; the types are %s", f.TypePrefix, strings.Join(events.TypeNames(), ", "))
		}
		// --type command asks for the undo and redo events themselves.
		all = all || onlyCommandTypes(q.TypePrefix)
	}
	v, err := s.view("")
	if err != nil {
		return nil, err
	}
	// touches, with a character, holds the commands that appended to his
	// stream: the undo and redo events kept are those naming one of them.
	var touches map[string]bool
	if f.Character != "" {
		r, err := v.roster()
		if err != nil {
			return nil, err
		}
		m, err := findMember(&r, f.Character)
		if err != nil {
			return nil, err
		}
		stream := events.CharacterStream(m.ID)
		q.Streams = []string{stream}
		if all {
			q.Streams = append(q.Streams, events.CommandsStream)
			evs, err := s.store.ReadStream(stream, 0)
			if err != nil {
				return nil, err
			}
			touches = map[string]bool{}
			for _, e := range evs {
				touches[e.CommandID] = true
			}
		}
	}
	var out []LogEntry
	for {
		evs, err := s.store.Read(q)
		if err != nil {
			return nil, err
		}
		out = out[:0]
		for _, e := range evs {
			if e.Stream == events.CommandsStream && (!all || (touches != nil && !namesAny(e, touches))) {
				// Undo and redo show as marks on the events they revert,
				// unless asked for.
				continue
			}
			entry := LogEntry{Event: e}
			if rv, ok := v.rv.Reverted(e.CommandID); ok {
				entry.Reverted = &rv
			}
			out = append(out, entry)
		}
		// With a limit, undo events that were filtered out may leave
		// fewer than asked for: read further back.
		if q.Limit == 0 || len(out) >= f.Limit || len(evs) < q.Limit {
			break
		}
		q.Limit += f.Limit - len(out)
	}
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[len(out)-f.Limit:]
	}
	return out, nil
}

// onlyCommandTypes reports whether every event type starting with prefix
// is an undo or a redo.
func onlyCommandTypes(prefix string) bool {
	for _, t := range events.TypeNames() {
		if strings.HasPrefix(t, prefix) && t != events.TypeCommandReverted && t != events.TypeCommandRestored {
			return false
		}
	}
	return true
}

// namesAny reports whether an undo or redo event names one of the commands.
func namesAny(e events.Event, commands map[string]bool) bool {
	p, err := events.Decode(e)
	if err != nil {
		return true // shown, so the undecodable event is seen
	}
	var ids []string
	switch p := p.(type) {
	case *events.CommandReverted:
		ids = p.Commands()
	case *events.CommandRestored:
		ids = p.CommandIDs
	}
	for _, id := range ids {
		if commands[id] {
			return true
		}
	}
	return false
}

// SeqOf returns the seq of the event with the given ULID, or of the first
// event of the command with that ID, for naming events and commands by seq.
func (s *Service) SeqOf(id string) (int64, bool) {
	if e, err := s.store.EventByID(id); err == nil {
		return e.Seq, true
	}
	evs, err := s.store.Read(events.Query{CommandIDs: []string{id}, Limit: 1})
	if err != nil || len(evs) == 0 {
		return 0, false
	}
	return evs[0].Seq, true
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

// Timeline tells the campaign day by day, folded from the whole log
// (commands in effect only). adventure and day, when not 0, keep one
// adventure, and one day of it (of the latest adventure when adventure is
// 0).
func (s *Service) Timeline(adventure, day int) (projections.Timeline, error) {
	return s.TimelineAsOf(adventure, day, "")
}

// TimelineAsOf is Timeline folded from the log as it was at a point (see
// ResolveAsOf; "" for now).
func (s *Service) TimelineAsOf(adventure, day int, asOf string) (projections.Timeline, error) {
	return s.TimelineOf(TimelineQuery{Adventure: adventure, Day: day, AsOf: asOf})
}

// TimelineQuery says which timeline to tell: one adventure and one day of
// it (0: all), as of a point (see ResolveAsOf; "" for now), and whether
// the rolls and contests are told too (projections.Timeline.TellRolls).
type TimelineQuery struct {
	Adventure, Day int
	AsOf           string
	Rolls          bool
}

// TimelineOf is Timeline as q says.
func (s *Service) TimelineOf(q TimelineQuery) (projections.Timeline, error) {
	adventure, day, asOf := q.Adventure, q.Day, q.AsOf
	if adventure < 0 || day < 0 {
		return projections.Timeline{}, rules.Errorf(rules.CodeInvalid, "--adventure and --day are numbered from 1")
	}
	v, err := s.view(asOf)
	if err != nil {
		return projections.Timeline{}, err
	}
	var t projections.Timeline
	// Re-rolls name rolls by seq: looked up in the store, not kept for
	// every roll of the log.
	t.LookUpSeqs(s.SeqOf)
	if q.Rolls {
		t.TellRolls()
	}
	if day > 0 && v.upTo == 0 {
		// One day: its events, after the clock and the names before it.
		if t, err = s.dayTimeline(adventure, day, &v.rv, q.Rolls); err != nil {
			return projections.Timeline{}, err
		}
	} else if err := s.foldTimeline(&t, &v.rv, 0, v.upTo, q.Rolls); err != nil {
		return projections.Timeline{}, err
	}
	if adventure == 0 && day == 0 {
		return t, nil
	}
	if adventure == 0 {
		for _, p := range t.Periods {
			adventure = max(adventure, p.Adventure)
		}
		if adventure == 0 {
			return projections.Timeline{}, rules.Errorf(rules.CodeNotFound, "--day %d: no adventure has started yet", day)
		}
	}
	var kept []projections.TimelinePeriod
	for _, p := range t.Periods {
		if p.Adventure != adventure {
			continue
		}
		if day > 0 {
			var days []projections.TimelineDay
			for _, d := range p.Days {
				if d.Day == day {
					days = append(days, d)
				}
			}
			p.Days = days
		}
		kept = append(kept, p)
	}
	if len(kept) == 0 || (day > 0 && len(kept[0].Days) == 0) {
		return projections.Timeline{}, rules.Errorf(rules.CodeNotFound, "no such day in game time: adventure %d, day %d", adventure, day)
	}
	t.Periods = kept
	return t, nil
}

// TimelineStream tells the campaign day by day as Timeline does, of one
// adventure (0: all), handing each day to emit as soon as the log has
// moved past it: the first day is told at once, and the fold holds one
// day at a time, however long the log. The period handed with a day has
// no Days. With an adventure that has no entries, it fails as Timeline
// does.
func (s *Service) TimelineStream(adventure int, emit func(projections.TimelinePeriod, projections.TimelineDay) error) error {
	return s.TimelineStreamOf(TimelineQuery{Adventure: adventure}, emit)
}

// TimelineStreamOf is TimelineStream as q says (its Day and AsOf are not
// used).
func (s *Service) TimelineStreamOf(q TimelineQuery, emit func(projections.TimelinePeriod, projections.TimelineDay) error) error {
	adventure := q.Adventure
	if adventure < 0 {
		return rules.Errorf(rules.CodeInvalid, "--adventure is numbered from 1")
	}
	v, err := s.view("")
	if err != nil {
		return err
	}
	var t projections.Timeline
	t.LookUpSeqs(s.SeqOf)
	if q.Rolls {
		t.TellRolls()
	}
	told := false
	t.Stream(func(p projections.TimelinePeriod, d projections.TimelineDay) error {
		if adventure != 0 && p.Adventure != adventure {
			return nil
		}
		told = true
		return emit(p, d)
	})
	if err := s.foldTimeline(&t, &v.rv, 0, 0, q.Rolls); err != nil {
		return err
	}
	if err := t.Finish(); err != nil {
		return err
	}
	if adventure != 0 && !told {
		return rules.Errorf(rules.CodeNotFound, "no such day in game time: adventure %d, day 0", adventure)
	}
	return nil
}

// parseDayPoint reads "day:N" or "adventure:A:day:N"; ok is false when the
// point is not a game-day point at all.
func parseDayPoint(s string) (adventure, day int, ok bool, err error) {
	low := strings.ToLower(s)
	if !strings.HasPrefix(low, "day:") && !strings.HasPrefix(low, "adventure:") {
		return 0, 0, false, nil
	}
	bad := rules.Errorf(rules.CodeInvalid, "--as-of %q: write day:N or adventure:A:day:N", s)
	parts := strings.Split(low, ":")
	switch {
	case len(parts) == 2 && parts[0] == "day":
		day, err = strconv.Atoi(parts[1])
	case len(parts) == 4 && parts[0] == "adventure" && parts[2] == "day":
		if adventure, err = strconv.Atoi(parts[1]); err == nil {
			day, err = strconv.Atoi(parts[3])
		}
	default:
		return 0, 0, true, bad
	}
	if err != nil || day < 1 || adventure < 0 {
		return 0, 0, true, bad
	}
	return adventure, day, true, nil
}

// dayTimeline folds the timeline of one game day without the whole log:
// the campaign stream before the day (the clock), the characters, foes and
// ships created before it (their names), then the day's own events.
func (s *Service) dayTimeline(adventure, day int, rv *projections.Reverts, rolls bool) (projections.Timeline, error) {
	var t projections.Timeline
	t.LookUpSeqs(s.SeqOf)
	if rolls {
		t.TellRolls()
	}
	from, to, err := s.gameTimeRange(adventure, day, rv)
	if err != nil {
		return t, err
	}
	before, err := s.readMerged(
		events.Query{Streams: []string{events.CampaignStream}, UpToSeq: from - 1},
		events.Query{TypePrefix: events.TypeCharacterCreated, UpToSeq: from - 1},
		events.Query{TypePrefix: events.TypeFoeAdded, UpToSeq: from - 1},
		events.Query{TypePrefix: events.TypeShipBuilt, UpToSeq: from - 1},
	)
	if err != nil {
		return t, err
	}
	for _, e := range before {
		if !rv.InEffect(e) {
			continue
		}
		if err := t.Apply(e); err != nil {
			return t, err
		}
	}
	return t, s.foldTimeline(&t, rv, from-1, to, rolls)
}

// foldTimeline folds into t the events in effect that a timeline tells
// (see timelineEvents), after seq after and up to seq upTo (0: the end);
// with rolls, the rolls and contests too.
func (s *Service) foldTimeline(t *projections.Timeline, rv *projections.Reverts, after, upTo int64, rolls bool) error {
	for e, err := range s.timelineEvents(after, upTo, rolls) {
		if err != nil {
			return err
		}
		if !rv.InEffect(e) {
			continue
		}
		if err := t.Apply(e); err != nil {
			return err
		}
	}
	return nil
}

// timelineEvents yields, in seq order, the events after seq after and up
// to seq upTo (0: the end) that a timeline looking up the seqs of rolls
// folds: the campaign stream's, and those of projections.TimelineTypes.
// The rolls, most of a log, are not read at all, unless rolls asks for
// them (projections.TimelineRollTypes).
func (s *Service) timelineEvents(after, upTo int64, rolls bool) iter.Seq2[events.Event, error] {
	types := projections.TimelineTypes()
	if rolls {
		types = append(types, projections.TimelineRollTypes()...)
	}
	return func(yield func(events.Event, error) bool) {
		clock, err := s.store.Read(events.Query{Streams: []string{events.CampaignStream}, AfterSeq: after, UpToSeq: upTo})
		if err != nil {
			yield(events.Event{}, err)
			return
		}
		for e, err := range s.store.Iter(events.Query{Types: types, AfterSeq: after, UpToSeq: upTo}) {
			if err != nil {
				yield(events.Event{}, err)
				return
			}
			for len(clock) > 0 && clock[0].Seq <= e.Seq {
				c := clock[0]
				clock = clock[1:]
				if c.Seq < e.Seq && !yield(c, nil) {
					return
				}
			}
			if !yield(e, nil) {
				return
			}
		}
		for _, c := range clock {
			if !yield(c, nil) {
				return
			}
		}
	}
}

// gameTimeRange returns the seqs an adventure (day 0), or one day of it,
// spans in the log: from the event that began it to the last event before
// the next began (to is 0 while it is still going on). adventure 0 means
// the current or latest adventure.
func (s *Service) gameTimeRange(adventure, day int, rv *projections.Reverts) (from, to int64, err error) {
	if adventure < 0 || day < 0 {
		return 0, 0, rules.Errorf(rules.CodeInvalid, "adventures and days are numbered from 1")
	}
	if rv == nil {
		r, err := s.reverts(0)
		if err != nil {
			return 0, 0, err
		}
		rv = &r
	}
	stream, err := s.store.ReadStream(events.CampaignStream, 0)
	if err != nil {
		return 0, 0, err
	}
	var c projections.Campaign
	type span struct{ adventure, day int }
	var cur span
	starts := map[span]int64{}
	ends := map[span]int64{}
	latest := 0
	for _, e := range stream {
		if !rv.InEffect(e) {
			continue
		}
		if err := c.Apply(e); err != nil {
			return 0, 0, err
		}
		next := span{}
		if c.InAdventure {
			next = span{c.Adventure, c.Day}
			latest = c.Adventure
		}
		if next == cur {
			continue
		}
		if cur.adventure != 0 {
			ends[cur] = e.Seq - 1
			if next.adventure != cur.adventure {
				ends[span{cur.adventure, 0}] = e.Seq - 1
			}
		}
		if next.adventure != 0 {
			starts[next] = e.Seq
			if next.adventure != cur.adventure {
				starts[span{next.adventure, 0}] = e.Seq
			}
		}
		cur = next
	}
	if adventure == 0 {
		adventure = latest
	}
	want := span{adventure, day}
	from, ok := starts[want]
	if !ok || adventure == 0 {
		what := fmt.Sprintf("adventure %d", adventure)
		if adventure == 0 {
			what = "an adventure (none has started)"
		}
		if day > 0 {
			what = fmt.Sprintf("day %d of %s", day, what)
		}
		return 0, 0, rules.Errorf(rules.CodeNotFound, "no %s in the campaign's game time", what)
	}
	return from, ends[want], nil
}
