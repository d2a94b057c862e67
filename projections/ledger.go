package projections

import (
	"bytes"
	"fmt"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// Ledger entry kinds: awards, spends (attributes, skills, and 2010 curse
// lifts paid in XP), and karma taken as XP (edition 2010).
const (
	LedgerAward = "award"
	LedgerSpend = "spend"
	// LedgerKarma is a karma point taken as 1 XP (edition 2010).
	LedgerKarma = "karma"
)

// LedgerEntry is one XP award or spend with the balance after it.
type LedgerEntry struct {
	Seq        int64     `json:"seq"`
	EventID    string    `json:"event_id"`
	CommandID  string    `json:"command_id"`
	RecordedAt time.Time `json:"recorded_at"`
	Actor      string    `json:"actor"`
	// At is where in game time it happened (nil before game time was
	// tracked).
	At   *events.GameTime `json:"at,omitempty"`
	Kind string           `json:"kind"`
	// Amount is positive for awards and negative for spends.
	Amount int `json:"amount"`
	// What says what happened: the award's reason, or what was raised.
	What string `json:"what"`
	// Formula and Edition price a spend ("current level + 6 = 12 + 6").
	Formula string `json:"formula,omitempty"`
	Edition string `json:"edition,omitempty"`
	// Balance is the unspent XP after the entry; a reverted entry leaves it
	// unchanged.
	Balance int `json:"balance"`
	// Reverted names the undo that took the entry's command out of effect.
	Reverted *Revert `json:"reverted,omitempty"`
}

// Ledger is a character's XP account, itemised, folded from the stream.
type Ledger struct {
	Entries []LedgerEntry `json:"entries"`
	Earned  int           `json:"earned"`
	Spent   int           `json:"spent"`
	Version int64         `json:"version"`
}

// Balance returns the unspent XP.
func (l *Ledger) Balance() int { return l.Earned - l.Spent }

// Apply folds one event of a character's stream; events that do not move XP
// are ignored. Entries whose command rv reports reverted are listed, marked,
// and left out of the totals; rv may be nil.
func (l *Ledger) Apply(e events.Event, rv *Reverts) error {
	l.Version = e.StreamVersion
	if e.Type != events.TypeXPAwarded && e.Type != events.TypeXPSpent && e.Type != events.TypeCurseLifted {
		return nil
	}
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	entry := LedgerEntry{Seq: e.Seq, EventID: e.ID, CommandID: e.CommandID, RecordedAt: e.RecordedAt, Actor: e.Actor}
	if st, ok := p.(interface {
		GameTimeOf() (events.GameTime, bool)
	}); ok {
		if g, ok := st.GameTimeOf(); ok {
			entry.At = &g
		}
	}
	if rv != nil {
		if r, ok := rv.Reverted(e.CommandID); ok {
			entry.Reverted = &r
		}
	}
	inEffect := entry.Reverted == nil
	switch p := p.(type) {
	case *events.XPAwarded:
		if inEffect {
			if l.Earned, err = ledgerAdd(e, "XP earned", l.Earned, p.Amount); err != nil {
				return err
			}
		}
		entry.Kind, entry.Amount, entry.What = LedgerAward, p.Amount, p.Reason
		if p.Source == "karma" {
			entry.Kind = LedgerKarma
		}
	case *events.CurseLifted:
		if p.XP == 0 {
			// Lifted by wish, karma or attribute: no XP moved.
			l.Version = e.StreamVersion
			return nil
		}
		if inEffect {
			if l.Spent, err = ledgerAdd(e, "XP spent", l.Spent, p.XP); err != nil {
				return err
			}
		}
		entry.Kind, entry.Amount, entry.What = LedgerSpend, -p.XP, "lift a curse"
		entry.Formula, entry.Edition = p.Rule, p.Edition
	case *events.XPSpent:
		if inEffect {
			if l.Spent, err = ledgerAdd(e, "XP spent", l.Spent, p.Price); err != nil {
				return err
			}
		}
		entry.Kind, entry.Amount = LedgerSpend, -p.Price
		entry.Formula, entry.Edition = p.Formula, p.Edition
		if p.On == "skill" {
			entry.What = fmt.Sprintf("%s %d→%d", p.SkillName, p.From, p.To)
		} else {
			entry.What = fmt.Sprintf("%s %d→%d", p.Attribute, p.From, p.To)
		}
	}
	balance, ok := rules.SubChecked(l.Earned, l.Spent)
	if !ok {
		return rules.Errorf(rules.CodeInvalidLog, "event %d (%s): the XP balance overflows: %d earned − %d spent is beyond the range of a count", e.Seq, e.Type, l.Earned, l.Spent)
	}
	entry.Balance = balance
	l.Entries = append(l.Entries, entry)
	return nil
}

// ledgerAdd adds n to a ledger's total, refusing a sum that overflows.
func ledgerAdd(e events.Event, what string, total, n int) (int, error) {
	v, ok := rules.AddChecked(total, n)
	if !ok {
		return total, rules.Errorf(rules.CodeInvalidLog, "event %d (%s): %s overflows: %d + %d is beyond the range of a count", e.Seq, e.Type, what, total, n)
	}
	return v, nil
}

// rerollsKey is the JSON key a re-roll's payload carries.
const rerollsKey = `"rerolls"`

// Rolls indexes a character's rolls, to tell which have been re-rolled.
type Rolls struct {
	// RerolledBy maps a roll's event ID to the ID of the roll that replaced it.
	RerolledBy map[string]string
}

// Apply folds one event; only rolls and contests matter.
func (r *Rolls) Apply(e events.Event) error {
	if e.Type != events.TypeRollMade && e.Type != events.TypeContestResolved && e.Type != events.TypeAttackMade {
		return nil
	}
	// Only a re-roll names the roll it replaces: most rolls are not
	// decoded at all.
	if !bytes.Contains(e.Payload, []byte(rerollsKey)) {
		return nil
	}
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	var replaced string
	switch p := p.(type) {
	case *events.RollMade:
		replaced = p.Rerolls
	case *events.ContestResolved:
		replaced = p.Rerolls
	case *events.AttackMade:
		replaced = p.Rerolls
	}
	if replaced != "" {
		if r.RerolledBy == nil {
			r.RerolledBy = map[string]string{}
		}
		r.RerolledBy[replaced] = e.ID
	}
	return nil
}
