package projections

import (
	"fmt"
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
type Reverts struct {
	out map[string]Revert
	// history lists the undo and redo events in order, for redo's "most
	// recently reverted".
	history []events.Event
	Version int64
}

// Apply folds one event of the commands stream.
func (r *Reverts) Apply(e events.Event) error {
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	if r.out == nil {
		r.out = map[string]Revert{}
	}
	switch p := p.(type) {
	case *events.CommandReverted:
		for _, id := range p.Commands() {
			r.out[id] = Revert{Seq: e.Seq, EventID: e.ID, CommandID: e.CommandID, Actor: e.Actor, At: e.RecordedAt, Reason: p.Reason, Target: p.CommandID}
		}
	case *events.CommandRestored:
		for _, id := range p.CommandIDs {
			delete(r.out, id)
		}
	default:
		return fmt.Errorf("event %d: %s does not belong on the commands stream", e.Seq, e.Type)
	}
	r.history = append(r.history, e)
	r.Version = e.StreamVersion
	return nil
}

// Reverted reports whether a command is out of effect, and by which undo.
func (r *Reverts) Reverted(commandID string) (Revert, bool) {
	rv, ok := r.out[commandID]
	return rv, ok
}

// InEffect reports whether an event's command is in effect.
func (r *Reverts) InEffect(e events.Event) bool {
	_, out := r.out[e.CommandID]
	return !out
}

// Count returns how many commands are out of effect.
func (r *Reverts) Count() int { return len(r.out) }

// LastReverted returns the most recent undo that still holds some commands
// out of effect, and those commands, for a redo without arguments.
func (r *Reverts) LastReverted() (events.Event, []string, bool) {
	for i := len(r.history) - 1; i >= 0; i-- {
		e := r.history[i]
		if e.Type != events.TypeCommandReverted {
			continue
		}
		p, err := events.Decode(e)
		if err != nil {
			continue
		}
		ids := p.(*events.CommandReverted).Commands()
		var still []string
		for _, id := range ids {
			if rv, ok := r.out[id]; ok && rv.EventID == e.ID {
				still = append(still, id)
			}
		}
		if len(still) > 0 {
			return e, still, true
		}
	}
	return events.Event{}, nil, false
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
	out := make(map[string]bool, len(r.out)+len(alsoOut))
	for id := range r.out {
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
