package campaign

import (
	"bytes"
	"fmt"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
)

// Kept states: a Service that runs command after command (`ltscamp play`
// keeps one open all evening) keeps the states its last command folded —
// the commands stream, the campaign, the roster and the characters it
// read — with that command's own events, and the log's head after it.
// The next command, if the head it checks (checkHead) is still that one,
// folds those events in and starts from the kept states instead of
// reading the log: nothing else was appended meanwhile, so they are what
// a fresh fold would make. A roll then costs its append and the check of
// the head, which reads a handful of rows (issue 23: an action in play
// costs about an insert).
//
// The states are the decision's own, not copies: a command that folded
// its own events into a state while deciding (emitApplied) leaves that
// state out, and an undo or a redo (an event of the commands stream,
// which changes what is in effect) leaves nothing kept. The head may have
// moved since the states were kept (another process's write), which the
// append finds out: the command is then decided again from the log. So is
// a command refused on kept states, so that a refusal is the log's, never
// that of states another process moved past; nothing is kept after it.
// Options.VerifyKept, on in the tests, checks every kept state handed to a
// command against a fresh fold.
type kept struct {
	head logHead
	// pending are the events the last command appended, not yet folded
	// into the states (keptNow folds them in).
	pending []events.Event

	reverts                      *projections.Reverts
	campaign                     *projections.Campaign
	roster                       *projections.Roster
	revertsF, campaignF, rosterF folded
	// chars are the characters and foes, by member ID.
	chars map[string]*character
}

// logHead is the log's last event: its seq and hash.
type logHead struct {
	seq  int64
	hash []byte
}

func headOf(e events.Event) logHead { return logHead{seq: e.Seq, hash: e.Hash} }

func (h logHead) is(o logHead) bool { return h.seq == o.seq && bytes.Equal(h.hash, o.hash) }

// advance moves a fold on past one more event.
func (f *folded) advance(version, seq int64) {
	f.version, f.seq = version, seq
	f.read++
}

// character returns the kept character of member ID, or nil (also on a
// nil kept).
func (k *kept) character(id string) *character {
	if k == nil {
		return nil
	}
	return k.chars[id]
}

// keptNow returns the kept states, brought up to the head the last
// command left (the append checks that the log is still there); nil when
// nothing is kept.
func (s *Service) keptNow() (*kept, error) {
	k := s.kept
	if k == nil {
		return nil, nil
	}
	if err := k.catchUp(); err != nil {
		s.kept = nil // a fresh fold will say what is wrong
		return nil, nil
	}
	if s.verifyKept {
		if err := s.checkKept(k); err != nil {
			s.kept = nil
			return nil, err
		}
	}
	return k, nil
}

// catchUp folds the pending events into the states that fold them.
func (k *kept) catchUp() error {
	for _, e := range k.pending {
		if k.campaign != nil && e.Stream == events.CampaignStream && e.StreamVersion > k.campaignF.version {
			if err := k.campaign.Apply(e); err != nil {
				return err
			}
			k.campaignF.advance(e.StreamVersion, e.Seq)
		}
		if k.roster != nil && rosterFolds(e) && e.Seq > k.rosterF.seq {
			if err := k.roster.Apply(e); err != nil {
				return err
			}
			k.rosterF.advance(e.Seq, e.Seq)
		}
		for _, c := range k.chars {
			if c.stream == e.Stream {
				if err := c.apply(e); err != nil {
					return err
				}
			}
		}
	}
	k.pending = nil
	return nil
}

// keep keeps the states of decision d, whose command was appended as res,
// for the next command.
func (s *Service) keep(d *decision, res events.AppendResult) {
	if len(res.Events) == 0 {
		s.kept = nil
		return
	}
	for _, e := range res.Events {
		if e.Stream == events.CommandsStream {
			s.kept = nil // an undo or a redo: what is in effect changed
			return
		}
	}
	k := d.kept
	if k == nil {
		k = &kept{chars: map[string]*character{}}
	}
	k.head, k.pending = headOf(res.Events[len(res.Events)-1]), res.Events
	if d.reverts != nil {
		k.reverts, k.revertsF = d.reverts, d.revertsF
	}
	if d.campaign != nil {
		k.campaign, k.campaignF = d.campaign, d.campaignF
	}
	if d.roster != nil {
		k.roster, k.rosterF = d.roster, d.rosterF
	}
	for id, c := range d.chars {
		k.chars[id] = c
	}
	k.forgetMoved(d)
	// A snapshot saved with the command starts the count of events read
	// past it again.
	for _, sn := range d.snapshots {
		switch sn.Kind {
		case projections.SnapReverts:
			k.revertsF.read = 0
		case projections.SnapCampaign:
			k.campaignF.read = 0
		case projections.SnapRoster:
			k.rosterF.read = 0
		case projections.SnapCharacter:
			for _, c := range k.chars {
				if c.stream == sn.Stream {
					c.folded.read, c.folded.audit = 0, false
				}
			}
		}
	}
	s.kept = k
}

// forgetMoved drops the states that decision d folded its own events into
// while deciding (emitApplied).
func (k *kept) forgetMoved(d *decision) {
	if d.rosterMoved {
		k.roster = nil
	}
	for id, c := range k.chars {
		if d.provisional[c.stream] {
			delete(k.chars, id)
		}
	}
}

// checkKept folds each kept state afresh from the log and returns an error
// when one differs from the kept one (Options.VerifyKept).
func (s *Service) checkKept(k *kept) error {
	head, err := s.checkHead()
	if err != nil || !head.is(k.head) {
		return err // the log moved on: the append will refuse the command
	}
	rv, f, err := s.foldReverts(0)
	if err != nil {
		return err
	}
	if k.reverts != nil && (k.reverts.Version != rv.Version || k.revertsF.version != f.version) {
		return fmt.Errorf("campaign: kept commands stream at version %d (fold %d), the log's at %d", k.reverts.Version, k.revertsF.version, rv.Version)
	}
	if k.campaign != nil {
		c, f, err := s.foldCampaign(&rv, 0)
		if err != nil {
			return err
		}
		if err := sameState("campaign", k.campaignF, f, *k.campaign, c, projections.EncodeCampaign); err != nil {
			return err
		}
	}
	if k.roster != nil {
		r, _, err := s.foldRoster(&rv, 0)
		if err != nil {
			return err
		}
		// The roster's fold position depends on where its snapshot was
		// taken: its state is what must agree.
		if err := sameState("roster", folded{}, folded{}, *k.roster, r, projections.EncodeRoster); err != nil {
			return err
		}
	}
	for _, c := range k.chars {
		fresh, f, err := s.foldCharacter(c.member, &rv, 0)
		if err != nil {
			return err
		}
		type state struct {
			sheet projections.Sheet
			rolls projections.Rolls
		}
		enc := func(st state) ([]byte, error) { return projections.EncodeCharacter(st.sheet, st.rolls) }
		if err := sameState(c.stream, c.folded, f, state{c.sheet, c.rolls}, state{fresh.sheet, fresh.rolls}, enc); err != nil {
			return err
		}
	}
	return nil
}

// sameState returns an error when a kept state and its fresh fold differ,
// in what they encode to or in the stream version they were folded to.
func sameState[T any](what string, keptF, freshF folded, kept, fresh T, encode func(T) ([]byte, error)) error {
	a, err := encode(kept)
	if err != nil {
		return err
	}
	b, err := encode(fresh)
	if err != nil {
		return err
	}
	if !bytes.Equal(a, b) || keptF.version != freshF.version || keptF.seq != freshF.seq {
		return fmt.Errorf("campaign: the kept state of %s (version %d, seq %d) differs from the log's (version %d, seq %d):\nkept  %s\nfresh %s",
			what, keptF.version, keptF.seq, freshF.version, freshF.seq, a, b)
	}
	return nil
}
