package projections

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/ltscamp/ltscamp/events"
)

// Revert records which undo took a command out of effect.
type Revert struct {
	// Seq, EventID and CommandID identify the command.reverted event.
	Seq       int64     `json:"seq"`
	EventID   string    `json:"event_id"`
	CommandID string    `json:"command_id"`
	Actor     string    `json:"actor"`
	At        time.Time `json:"recorded_at"`
	Reason    string    `json:"reason,omitempty"`
	// Target is the command the user undid; a command reverted by
	// cascade has its own ID here only when it was the target.
	Target string `json:"target"`
}

// Reverts is the set of commands not in effect, folded from the commands
// stream: command.reverted adds, command.restored removes.
//
// It keeps, for each command out of effect, only the seq of the undo that
// holds it out; the undo's details (who, when, why) are read from that
// event when asked for, through Lookup when the set came from a snapshot.
type Reverts struct {
	// out holds the commands out of effect that this set folded itself;
	// base, those of the snapshot it started from, less gone (the ones
	// restored since).
	out  map[string]revertRef
	base revertBase
	gone map[string]bool
	// undos are the details of the undo events folded or looked up, by seq.
	undos map[int64]Revert
	// Lookup reads an event of the commands stream by seq, for the details
	// of an undo that this set did not fold itself (a snapshot's).
	Lookup  func(seq int64) (events.Event, error)
	Version int64
}

// revertRef is a command's undo: its seq, and the command's place in the
// undo's list (the target first, then the cascade), for redo's "most
// recently reverted".
type revertRef struct {
	seq int64
	pos int
}

// Apply folds one event of the commands stream.
func (r *Reverts) Apply(e events.Event) error {
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	if r.out == nil {
		r.out = map[string]revertRef{}
	}
	switch p := p.(type) {
	case *events.CommandReverted:
		for i, id := range p.Commands() {
			r.out[id] = revertRef{seq: e.Seq, pos: i}
			delete(r.gone, id)
		}
		if r.undos == nil {
			r.undos = map[int64]Revert{}
		}
		r.undos[e.Seq] = revertOf(e, p)
	case *events.CommandRestored:
		for _, id := range p.CommandIDs {
			delete(r.out, id)
			if _, ok := r.base.find(id); ok {
				if r.gone == nil {
					r.gone = map[string]bool{}
				}
				r.gone[id] = true
			}
		}
	default:
		return fmt.Errorf("event %d: %s does not belong on the commands stream", e.Seq, e.Type)
	}
	r.Version = e.StreamVersion
	return nil
}

// revertOf returns the details of an undo event.
func revertOf(e events.Event, p *events.CommandReverted) Revert {
	return Revert{Seq: e.Seq, EventID: e.ID, CommandID: e.CommandID, Actor: e.Actor, At: e.RecordedAt, Reason: p.Reason, Target: p.CommandID}
}

// Reverted reports whether a command is out of effect, and by which undo.
// When the undo's details cannot be read (see Lookup), the Revert has
// its Seq only.
func (r *Reverts) Reverted(commandID string) (Revert, bool) {
	ref, ok := r.ref(commandID)
	if !ok {
		return Revert{}, false
	}
	return r.undo(ref.seq), true
}

// undo returns the details of the undo event at seq.
func (r *Reverts) undo(seq int64) Revert {
	if rv, ok := r.undos[seq]; ok {
		return rv
	}
	rv := Revert{Seq: seq}
	if r.Lookup == nil {
		return rv
	}
	e, err := r.Lookup(seq)
	if err != nil {
		return rv
	}
	p, err := events.Decode(e)
	if cr, ok := p.(*events.CommandReverted); err == nil && ok {
		rv = revertOf(e, cr)
		if r.undos == nil {
			r.undos = map[int64]Revert{}
		}
		r.undos[seq] = rv
	}
	return rv
}

// InEffect reports whether an event's command is in effect.
func (r *Reverts) InEffect(e events.Event) bool {
	_, out := r.ref(e.CommandID)
	return !out
}

// ref returns how a command is out of effect, if it is.
func (r *Reverts) ref(id string) (revertRef, bool) {
	if ref, ok := r.out[id]; ok {
		return ref, true
	}
	if r.base.n == 0 || r.gone[id] {
		return revertRef{}, false
	}
	return r.base.find(id)
}

// all returns every command out of effect.
func (r *Reverts) all() map[string]revertRef {
	if r.base.n == 0 {
		return r.out
	}
	all := make(map[string]revertRef, r.base.n+len(r.out))
	for i := 0; i < r.base.n; i++ {
		if id, ref := r.base.record(i); !r.gone[id] {
			all[id] = ref
		}
	}
	maps.Copy(all, r.out)
	return all
}

// Count returns how many commands are out of effect.
func (r *Reverts) Count() int { return len(r.all()) }

// LastReverted returns the most recent undo that still holds some commands
// out of effect, and those commands (its target first), for a redo
// without arguments.
func (r *Reverts) LastReverted() (Revert, []string, bool) {
	all := r.all()
	var last int64
	for _, ref := range all {
		last = max(last, ref.seq)
	}
	if last == 0 {
		return Revert{}, nil, false
	}
	var ids []string
	for id, ref := range all {
		if ref.seq == last {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, func(a, b string) int { return cmp.Compare(all[a].pos, all[b].pos) })
	return r.undo(last), ids, true
}

// FoldReverts folds the commands stream.
func FoldReverts(stream []events.Event) (Reverts, error) {
	var r Reverts
	for _, e := range stream {
		if err := r.Apply(e); err != nil {
			return Reverts{}, err
		}
	}
	return r, nil
}

// Skip returns a filter for Replay that skips the events of commands out of
// effect, as if the commands in alsoOut were reverted too and those in
// alsoIn restored.
func (r *Reverts) Skip(alsoOut, alsoIn []string) func(events.Event) bool {
	all := r.all()
	out := make(map[string]bool, len(all)+len(alsoOut))
	for id := range all {
		out[id] = true
	}
	for _, id := range alsoOut {
		out[id] = true
	}
	for _, id := range alsoIn {
		delete(out, id)
	}
	return func(e events.Event) bool { return out[e.CommandID] }
}
