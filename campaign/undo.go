package campaign

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// CommandInfo summarises one command: what it did, when and by whom.
type CommandInfo struct {
	ID         string    `json:"command_id"`
	FirstSeq   int64     `json:"first_seq"`
	LastSeq    int64     `json:"last_seq"`
	Events     int       `json:"events"`
	RecordedAt time.Time `json:"recorded_at"`
	Actor      string    `json:"actor"`
	Summary    string    `json:"summary"`
	// Problem says why the command would become invalid (in a refusal).
	Problem string `json:"problem,omitempty"`
}

// String is the one-line form used in refusals.
func (c CommandInfo) String() string {
	s := fmt.Sprintf("%s (seq %d, %s UTC, by %s): %s", c.ID, c.FirstSeq, c.RecordedAt.UTC().Format("2006-01-02 15:04:05"), c.Actor, c.Summary)
	if c.Problem != "" {
		s += " — " + c.Problem
	}
	return s
}

// UndoRequest is what `undo` asks for.
type UndoRequest struct {
	// Target is a command ID, an event ID or a seq; "" means the latest
	// command still in effect.
	Target string
	Reason string
	// Cascade reverts, with the target, every later command the undo
	// would make invalid.
	Cascade bool
}

// UndoResult reports an undo or a redo.
type UndoResult struct {
	// Event is the command.reverted or command.restored appended.
	Event    events.Event
	Reverted []CommandInfo
	Restored []CommandInfo
}

// history is the part of the log an undo or a redo is decided on,
// indexed by command, with what is in effect. It is the whole log, or
// (see historyAround) the streams that the commands after the undone ones
// touched, from their start, with the campaign's shared streams.
type history struct {
	log      []events.Event
	rv       projections.Reverts
	commands map[string][]events.Event
	// from is the first seq of the commands undone or redone: only
	// commands after it can depend on them.
	from int64
	// before lists the commands that break the rules already, before the
	// undo or redo, so that only newly broken ones are reported.
	before map[string]bool
	// seqs maps event IDs to seqs, built when a summary first names one.
	seqs map[string]int64
}

// seqOf returns the seq of the event with the given ID, for summaries
// that name an event ("a reroll of seq 14").
func (h *history) seqOf(id string) (int64, bool) {
	if h.seqs == nil {
		h.seqs = make(map[string]int64, len(h.log))
		for _, e := range h.log {
			h.seqs[e.ID] = e.Seq
		}
	}
	seq, ok := h.seqs[id]
	return seq, ok
}

// newHistory indexes log and folds its commands stream.
func newHistory(log []events.Event, from int64) (*history, error) {
	h := &history{log: log, commands: map[string][]events.Event{}, from: from}
	for _, e := range log {
		h.commands[e.CommandID] = append(h.commands[e.CommandID], e)
		if e.Stream == events.CommandsStream {
			if err := h.rv.Apply(e); err != nil {
				return nil, err
			}
		}
	}
	return h, nil
}

// replayBefore replays the history as it stands, once, and records the
// commands that break the rules already.
func (h *history) replayBefore() {
	if h.before != nil {
		return
	}
	h.before = map[string]bool{}
	for _, id := range projections.Replay(h.log, h.rv.Skip(nil, nil)).ViolatingCommands() {
		h.before[id] = true
	}
}

// historyAround reads the history an undo or a redo of ids is decided on.
// A command can only depend on commands before it, so the history is the
// events from the first of ids on, every earlier event of the streams
// those touch, and the campaign's shared streams (the campaign, undo and
// redo, dogfights, ships, damage templates). Its cost grows with the events after ids, not
// with the log. A command after ids can also read a character it leaves
// no event for (a medic, say); when that part of the log cannot replay
// such a command cleanly, the decision is taken on the whole log instead.
func (s *Service) historyAround(ids []string) (*history, error) {
	if s.undoWhole {
		return s.wholeHistory(ids)
	}
	mine, err := s.store.Read(events.Query{CommandIDs: ids})
	if err != nil {
		return nil, err
	}
	if len(mine) == 0 {
		return nil, fmt.Errorf("campaign: no events for commands %v", ids)
	}
	from := mine[0].Seq
	tail, err := s.store.Read(events.Query{AfterSeq: from - 1})
	if err != nil {
		return nil, err
	}
	streams := map[string]bool{events.CampaignStream: true, events.CommandsStream: true, events.DogfightStream: true, events.ShipTemplatesStream: true, events.TurnsStream: true}
	for _, e := range tail {
		streams[e.Stream] = true
	}
	earlier, err := s.readMerged(
		events.Query{Streams: slices.Sorted(maps.Keys(streams)), UpToSeq: from - 1},
		events.Query{StreamPrefix: events.ShipStreamPrefix, UpToSeq: from - 1},
	)
	if err != nil {
		return nil, err
	}
	h, err := newHistory(append(earlier, tail...), from)
	if err != nil {
		return nil, err
	}
	if h.readsOutside(ids) {
		return s.wholeHistory(ids)
	}
	return h, nil
}

// readsOutside reports whether a command the decision about ids checks
// breaks the rules in this part of the log, as it stands or, for the ids
// a redo would put back, in effect again: it may read something outside
// the part (a counterattack the strike it answers, a medic a patient), and
// the decision must then be taken on the whole log. A command named and
// out of effect is checked only when put back, since a redo re-checks it.
func (h *history) readsOutside(ids []string) bool {
	var back []string
	for _, id := range ids {
		if _, reverted := h.rv.Reverted(id); reverted {
			back = append(back, id)
		}
	}
	var unclean []string
	if len(back) > 0 {
		unclean = projections.Replay(h.log, h.rv.Skip(nil, back)).ViolatingCommands()
	} else if h.hasLater(ids) {
		h.replayBefore()
		unclean = slices.Collect(maps.Keys(h.before))
	}
	for _, id := range unclean {
		if evs := h.commands[id]; len(evs) > 0 && evs[0].Seq >= h.from {
			return true
		}
	}
	return false
}

// readMerged reads what each query selects, in one list in seq order, each
// event once.
func (s *Service) readMerged(qs ...events.Query) ([]events.Event, error) {
	var out []events.Event
	for _, q := range qs {
		evs, err := s.store.Read(q)
		if err != nil {
			return nil, err
		}
		out = append(out, evs...)
	}
	slices.SortFunc(out, func(a, b events.Event) int { return cmp.Compare(a.Seq, b.Seq) })
	return slices.CompactFunc(out, func(a, b events.Event) bool { return a.Seq == b.Seq }), nil
}

// wholeHistory reads the whole log as the history of ids.
func (s *Service) wholeHistory(ids []string) (*history, error) {
	log, err := s.store.Read(events.Query{})
	if err != nil {
		return nil, err
	}
	from := int64(0)
	for _, e := range log {
		if slices.Contains(ids, e.CommandID) {
			from = e.Seq
			break
		}
	}
	return newHistory(log, from)
}

// expectAll records every stream's version: an undo is decided on the
// whole log, so any command appended meanwhile must make it decide again.
func (h *history) expectAll(d *decision) {
	versions := map[string]int64{events.CommandsStream: 0}
	for _, e := range h.log {
		versions[e.Stream] = e.StreamVersion
	}
	for st, v := range versions {
		d.expect(st, v)
	}
}

// isUndoRedo reports whether a command is itself an undo or a redo.
func (h *history) isUndoRedo(id string) bool {
	evs := h.commands[id]
	return len(evs) > 0 && evs[0].Stream == events.CommandsStream
}

func (h *history) info(id, problem string) CommandInfo {
	return commandInfo(id, h.commands[id], h.seqOf, problem)
}

// commandInfo summarises the command id, whose events are evs; seqOf
// finds the seq of an event a summary names.
func commandInfo(id string, evs []events.Event, seqOf func(string) (int64, bool), problem string) CommandInfo {
	first, last := evs[0], evs[len(evs)-1]
	summary := projections.Describe(first, seqOf)
	if len(evs) > 1 {
		summary += fmt.Sprintf(" (+%s)", projections.Count(len(evs)-1, "more event", "more events"))
	}
	return CommandInfo{ID: id, FirstSeq: first.Seq, LastSeq: last.Seq, Events: len(evs), RecordedAt: first.RecordedAt, Actor: first.Actor, Summary: summary, Problem: problem}
}

// newlyInvalid replays the log with the given commands out of (or back in)
// effect and returns the commands that would become invalid, with why: a
// command put back is checked too, since what it read may be gone.
func (h *history) newlyInvalid(alsoOut, alsoIn []string) []CommandInfo {
	if len(alsoIn) == 0 && !h.hasLater(alsoOut) {
		return nil
	}
	h.replayBefore()
	w := projections.Replay(h.log, h.rv.Skip(alsoOut, alsoIn))
	seen := map[string]bool{}
	var out []CommandInfo
	for _, v := range w.Violations {
		if h.before[v.CommandID] || seen[v.CommandID] {
			continue
		}
		seen[v.CommandID] = true
		out = append(out, h.info(v.CommandID, fmt.Sprintf("seq %d %s: %s", v.Seq, v.Type, v.Problem)))
	}
	return out
}

// hasLater reports whether a command in effect, other than those taken
// out, an undo or a redo, follows the first of the commands undone: only
// such a command can become invalid by an undo.
func (h *history) hasLater(alsoOut []string) bool {
	skip := h.rv.Skip(alsoOut, nil)
	for _, e := range h.log {
		if e.Seq > h.from && e.Stream != events.CommandsStream && !skip(e) {
			return true
		}
	}
	return false
}

func listCommands(cs []CommandInfo) string {
	lines := make([]string, len(cs))
	for i, c := range cs {
		lines[i] = "  " + c.String()
	}
	return strings.Join(lines, "\n")
}

// Undo takes a command out of effect by appending command.reverted. It is
// refused when a later command would become invalid without it, unless
// Cascade reverts those too, in the same event. Undoing an undo is a redo.
func (s *Service) Undo(req UndoRequest) (UndoResult, error) {
	var target string
	pick := func(l *locator) ([]string, error) {
		var err error
		if target, err = l.undoTarget(req.Target, s.actor); err != nil {
			return nil, err
		}
		return l.around(target)
	}
	return s.onHistory(pick, func(d *decision, h *history, out *UndoResult) error {
		if h.isUndoRedo(target) {
			return h.undoUndoRedo(d, target, req, out)
		}
		if h.commands[target][0].Type == events.TypeCampaignCreated {
			return rules.Errorf(rules.CodeRule, "the campaign's creation cannot be undone; start a new campaign file instead")
		}
		if rv, ok := h.rv.Reverted(target); ok {
			return rules.Errorf(rules.CodeRule, "command %s was already undone at seq %d%s; `ltscamp redo %s` restores it", target, rv.Seq, reasonText(rv.Reason), target)
		}
		cascade, err := h.cascade([]string{target}, req.Cascade, "undo")
		if err != nil {
			return err
		}
		for _, id := range append([]string{target}, cascade...) {
			out.Reverted = append(out.Reverted, h.info(id, ""))
		}
		return d.emit(events.CommandsStream, events.CommandReverted{CommandID: target, Cascade: cascade, Reason: strings.TrimSpace(req.Reason)})
	})
}

// onHistory decides an undo or a redo: pick names the commands it is
// about, the history around them is read, and decide emits the one event.
func (s *Service) onHistory(pick func(l *locator) ([]string, error), decide func(d *decision, h *history, out *UndoResult) error) (UndoResult, error) {
	var out UndoResult
	res, err := s.execute(func(d *decision) error {
		out = UndoResult{}
		rv, err := d.revertsState()
		if err != nil {
			return err
		}
		ids, err := pick(&locator{s: s, rv: rv})
		if err != nil {
			return err
		}
		h, err := s.historyAround(ids)
		if err != nil {
			return err
		}
		h.expectAll(d)
		return decide(d, h, &out)
	})
	if err != nil {
		return out, err
	}
	out.Event = res.Events[0]
	return out, nil
}

// UndoTarget names the command an undo would take back, without taking it
// back: the one ref names, or the actor's own latest command in effect.
func (s *Service) UndoTarget(ref string) (CommandInfo, error) {
	rv, err := s.reverts(0)
	if err != nil {
		return CommandInfo{}, err
	}
	l := &locator{s: s, rv: &rv}
	target, err := l.undoTarget(ref, s.actor)
	if err != nil {
		return CommandInfo{}, err
	}
	return l.info(target)
}

// cascade checks that taking ids out of effect leaves every later command
// valid. With cascade it returns the later commands to revert with them,
// to a fixed point; without, a refusal listing them.
func (h *history) cascade(ids []string, cascade bool, verb string) ([]string, error) {
	out := slices.Clone(ids)
	var extra []string
	for {
		invalid := h.newlyInvalid(out, nil)
		if len(invalid) == 0 {
			return extra, nil
		}
		if !cascade {
			return nil, rules.Errorf(rules.CodeRule, "cannot %s %s: later commands depend on it and would become invalid:\n%s\n%s them first, or add --cascade to revert them all together", verb, h.info(ids[0], "").String(), listCommands(invalid), verb)
		}
		for _, c := range invalid {
			out = append(out, c.ID)
			extra = append(extra, c.ID)
		}
	}
}

// undoUndoRedo undoes an undo (a redo of what it reverted) or a redo (a
// revert of what it restored).
func (h *history) undoUndoRedo(d *decision, target string, req UndoRequest, out *UndoResult) error {
	e := h.commands[target][0]
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	switch p := p.(type) {
	case *events.CommandReverted:
		var still []string
		for _, id := range p.Commands() {
			if rv, ok := h.rv.Reverted(id); ok && rv.Seq == e.Seq {
				still = append(still, id)
			}
		}
		if len(still) == 0 {
			return rules.Errorf(rules.CodeRule, "the undo at seq %d no longer holds: its commands are back in effect (restored by a later redo or undo)", e.Seq)
		}
		return h.restore(d, still, req.Reason, out)
	case *events.CommandRestored:
		var back []string
		for _, id := range p.CommandIDs {
			if _, reverted := h.rv.Reverted(id); !reverted {
				back = append(back, id)
			}
		}
		if len(back) == 0 {
			return rules.Errorf(rules.CodeRule, "the redo at seq %d no longer holds: its commands are out of effect again", e.Seq)
		}
		cascade, err := h.cascade(back, req.Cascade, "undo")
		if err != nil {
			return err
		}
		for _, id := range append(slices.Clone(back), cascade...) {
			out.Reverted = append(out.Reverted, h.info(id, ""))
		}
		return d.emit(events.CommandsStream, events.CommandReverted{CommandID: back[0], Cascade: append(back[1:], cascade...), Reason: strings.TrimSpace(req.Reason)})
	}
	return fmt.Errorf("command %s on the commands stream is a %s", target, e.Type)
}

// restore puts ids back in effect, refusing when that would make a later
// command invalid.
func (h *history) restore(d *decision, ids []string, reason string, out *UndoResult) error {
	var itself, since []CommandInfo
	for _, c := range h.newlyInvalid(nil, ids) {
		if slices.Contains(ids, c.ID) {
			itself = append(itself, c)
		} else {
			since = append(since, c)
		}
	}
	if len(itself) > 0 {
		return rules.Errorf(rules.CodeRule, "cannot redo %s: the rules refuse it with the commands in effect now:\n%s\nredo what it depended on first", h.info(ids[0], "").String(), listCommands(itself))
	}
	if len(since) > 0 {
		return rules.Errorf(rules.CodeRule, "cannot redo %s: commands made since would become invalid:\n%s\nundo them first", h.info(ids[0], "").String(), listCommands(since))
	}
	for _, id := range ids {
		out.Restored = append(out.Restored, h.info(id, ""))
	}
	return d.emit(events.CommandsStream, events.CommandRestored{CommandIDs: ids, Reason: strings.TrimSpace(reason)})
}

// RedoRequest is what `redo` asks for.
type RedoRequest struct {
	// Target is a reverted command's ID (or an event ID or seq of it); ""
	// means the commands of the most recent undo still in force.
	Target string
	Reason string
}

// Redo puts reverted commands back in effect by appending
// command.restored, unless that would make a later command invalid.
func (s *Service) Redo(req RedoRequest) (UndoResult, error) {
	var ids []string
	pick := func(l *locator) ([]string, error) {
		if strings.TrimSpace(req.Target) == "" {
			_, last, ok := l.rv.LastReverted()
			if !ok {
				return nil, rules.Errorf(rules.CodeNotFound, "nothing to redo: no command is undone")
			}
			ids = last
			return ids, nil
		}
		id, err := l.resolve(req.Target)
		if err != nil {
			return nil, err
		}
		if undoRedo, err := l.isUndoRedo(id); err != nil {
			return nil, err
		} else if undoRedo {
			return nil, rules.Errorf(rules.CodeInvalid, "%s is an undo or a redo; redo takes a command that was undone (`ltscamp undo %s` undoes it)", id, id)
		}
		if _, ok := l.rv.Reverted(id); !ok {
			return nil, rules.Errorf(rules.CodeRule, "command %s is in effect: there is nothing to redo", id)
		}
		ids = []string{id}
		return ids, nil
	}
	return s.onHistory(pick, func(d *decision, h *history, out *UndoResult) error {
		return h.restore(d, ids, req.Reason, out)
	})
}

func reasonText(r string) string {
	if r == "" {
		return ""
	}
	return fmt.Sprintf(" (%s)", r)
}
