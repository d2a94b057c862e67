package campaign

import (
	"fmt"
	"strings"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// Names of the XP audit's assertions, stable in --json.
const (
	// AssertBalance: earned − spent equals the sheet's unspent XP.
	AssertBalance = "balance"
	// AssertNeverNegative: unspent XP is 0 or more after every row.
	AssertNeverNegative = "never_negative"
	// AssertPrices: every spend's recorded price is the rules' price for
	// the campaign's edition at that moment.
	AssertPrices = "prices"
)

// XPAudit is a character's XP ledger itemised, each spend re-priced by the
// rules, with the assertions that make the ledger trustworthy.
type XPAudit struct {
	Character   string        `json:"character"`
	CharacterID string        `json:"character_id"`
	Edition     rules.Edition `json:"edition"`
	// Rows are every XP award and spend of the character's stream, in log
	// order, reverted ones included (marked, and out of the balance).
	Rows []XPAuditRow `json:"rows"`
	// Earned, Spent and Unspent are the totals of the rows in effect.
	Earned  int `json:"earned"`
	Spent   int `json:"spent"`
	Unspent int `json:"unspent"`
	// SheetUnspent is the sheet's xp.unspent, folded independently.
	SheetUnspent int         `json:"sheet_unspent"`
	Assertions   []Assertion `json:"assertions"`
	// OK is true when every assertion holds.
	OK bool `json:"ok"`
}

// XPAuditRow is one award, spend, or (2010) karma taken as XP.
type XPAuditRow struct {
	Seq        int64     `json:"seq"`
	EventID    string    `json:"event_id"`
	RecordedAt time.Time `json:"recorded_at"`
	CommandID  string    `json:"command_id"`
	Actor      string    `json:"actor"`
	// Kind is projections.LedgerAward or projections.LedgerSpend.
	Kind string `json:"kind"`
	// What is the award's reason, or what a spend raised ("ST 12→13").
	What string `json:"what"`
	// Amount is positive for awards, negative for spends.
	Amount int `json:"amount"`
	// Formula and Edition are the spend's price as recorded.
	Formula string `json:"formula,omitempty"`
	Edition string `json:"edition,omitempty"`
	// Rules is the spend re-priced by the rules (spends only).
	Rules *RulesPrice `json:"rules,omitempty"`
	// Balance is the unspent XP after the row; a reverted row leaves it as
	// it was.
	Balance  int                 `json:"balance"`
	Reverted *projections.Revert `json:"reverted,omitempty"`
}

// RulesPrice is what the rules charge for a spend at its moment.
type RulesPrice struct {
	Price   int           `json:"price"`
	Formula string        `json:"formula"`
	Edition rules.Edition `json:"edition"`
	// OK is true when the recorded price, formula and edition are the
	// rules'; Problem says what differs.
	OK      bool   `json:"ok"`
	Problem string `json:"problem,omitempty"`
}

// Assertion is one check of an audit, with its numbers in Detail.
type Assertion struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// Failed returns the assertions that do not hold.
func (a XPAudit) Failed() []Assertion {
	var out []Assertion
	for _, as := range a.Assertions {
		if !as.OK {
			out = append(out, as)
		}
	}
	return out
}

// AuditXP itemises a character's XP ledger from his stream: who awarded or
// spent what and when, every spend re-priced by the campaign edition's
// rules against the sheet as it stood just before it, and the running
// balance. It asserts that earned − spent is the sheet's unspent XP, that
// the balance never went below 0, and that every recorded price is the
// rules' price. A failed assertion is reported in the audit, not as an
// error.
func (s *Service) AuditXP(name string) (XPAudit, error) {
	v, err := s.view("")
	if err != nil {
		return XPAudit{}, err
	}
	camp, err := v.campaign()
	if err != nil {
		return XPAudit{}, err
	}
	c, err := v.character(name)
	if err != nil {
		return XPAudit{}, err
	}
	stream, err := s.store.ReadStream(c.stream, 0)
	if err != nil {
		return XPAudit{}, err
	}
	ed := camp.Edition
	out := XPAudit{Character: c.sheet.Name, CharacterID: c.sheet.ID, Edition: ed, Rows: []XPAuditRow{}, SheetUnspent: c.sheet.XP.Unspent}
	// before is the sheet as it stood before each event, folded from the
	// events in effect: the moment a spend is priced at.
	var before projections.Sheet
	var ledger projections.Ledger
	// lowest is the lowest balance after a row in effect, at lowestSeq
	// (0: no row in effect yet).
	lowest, lowestSeq := 0, int64(0)
	spends, priced := 0, 0
	var mispriced []string
	for _, e := range stream {
		inEffect := v.rv.InEffect(e)
		var check *RulesPrice
		if e.Type == events.TypeXPSpent {
			check, err = priceAt(ed, &before, e, inEffect)
			if err != nil {
				return XPAudit{}, err
			}
		}
		n := len(ledger.Entries)
		if err := ledger.Apply(e, &v.rv); err != nil {
			return XPAudit{}, err
		}
		if inEffect {
			if err := before.Apply(e); err != nil {
				return XPAudit{}, err
			}
		}
		if len(ledger.Entries) == n {
			continue // not an XP event
		}
		le := ledger.Entries[n]
		out.Rows = append(out.Rows, XPAuditRow{
			Seq: le.Seq, EventID: le.EventID, RecordedAt: le.RecordedAt, CommandID: le.CommandID, Actor: le.Actor,
			Kind: le.Kind, What: le.What, Amount: le.Amount, Formula: le.Formula, Edition: le.Edition,
			Rules: check, Balance: le.Balance, Reverted: le.Reverted,
		})
		if le.Reverted == nil && (lowestSeq == 0 || le.Balance < lowest) {
			lowest, lowestSeq = le.Balance, le.Seq
		}
		if check != nil {
			spends++
			if check.OK {
				priced++
			} else {
				mispriced = append(mispriced, fmt.Sprintf("seq %d: %s", le.Seq, check.Problem))
			}
		}
	}
	out.Earned, out.Spent, out.Unspent = ledger.Earned, ledger.Spent, ledger.Balance()

	balance := Assertion{Name: AssertBalance, OK: out.Unspent == out.SheetUnspent && ledger.Earned == c.sheet.XP.Earned && ledger.Spent == c.sheet.XP.Spent,
		Detail: fmt.Sprintf("earned − spent = unspent: %d − %d = %d", out.Earned, out.Spent, out.Unspent)}
	if !balance.OK {
		balance.Detail += fmt.Sprintf(", but the sheet shows %d − %d = %d", c.sheet.XP.Earned, c.sheet.XP.Spent, c.sheet.XP.Unspent)
	}
	never := Assertion{Name: AssertNeverNegative, OK: lowest >= 0, Detail: "unspent ≥ 0 at every row"}
	if lowestSeq > 0 {
		never.Detail += fmt.Sprintf(": lowest %d, after seq %d", lowest, lowestSeq)
	}
	prices := Assertion{Name: AssertPrices, OK: len(mispriced) == 0,
		Detail: fmt.Sprintf("every spend priced by the %s rules: %d of %s", ed, priced, projections.Count(spends, "spend", "spends"))}
	if !prices.OK {
		prices.Detail += "; " + strings.Join(mispriced, "; ")
	}
	out.Assertions = []Assertion{balance, never, prices}
	out.OK = balance.OK && never.OK && prices.OK
	return out, nil
}

// priceAt re-prices a spend by the edition's rules. A spend in effect is
// priced at the level the sheet had just before it, which must be the
// level it records raising from; a reverted spend is priced at the level
// it records, since the sheet it was decided on is no longer what the log
// folds to.
func priceAt(ed rules.Edition, before *projections.Sheet, e events.Event, inEffect bool) (*RulesPrice, error) {
	p, err := events.Decode(e)
	if err != nil {
		return nil, err
	}
	sp := p.(*events.XPSpent)
	var price rules.Price
	var what string
	var problems []string
	current := sp.From
	switch sp.On {
	case "attribute":
		at, err := rules.ParseAttribute(sp.Attribute)
		if err != nil {
			return &RulesPrice{Edition: ed, Problem: err.Error()}, nil
		}
		what = string(at)
		if inEffect {
			current = before.Attributes.Get(at)
		}
		price = rules.AttributePrice(ed, current)
	case "skill":
		sk, err := rules.LookupSkill(ed, sp.Skill)
		if err != nil {
			return &RulesPrice{Edition: ed, Problem: err.Error()}, nil
		}
		what = sk.NameIn(ed)
		if inEffect {
			current = before.SkillLevel(sk.Key)
		}
		price = rules.SkillPrice(ed, current)
	default:
		return &RulesPrice{Edition: ed, Problem: fmt.Sprintf("a spend on %q, which the rules do not price", sp.On)}, nil
	}
	if current != sp.From {
		problems = append(problems, fmt.Sprintf("%s raised from %d, but %s had %d", what, sp.From, before.Name, current))
	}
	if sp.To != sp.From+1 {
		problems = append(problems, fmt.Sprintf("%s raised %d→%d; a spend raises one level", what, sp.From, sp.To))
	}
	if sp.Price != price.XP || sp.Formula != price.Formula || rules.Edition(sp.Edition) != ed {
		problems = append(problems, fmt.Sprintf("recorded %d XP (%s, edition %s); the %s rules give %d XP (%s)", sp.Price, sp.Formula, sp.Edition, ed, price.XP, price.Formula))
	}
	return &RulesPrice{Price: price.XP, Formula: price.Formula, Edition: price.Edition, OK: len(problems) == 0, Problem: strings.Join(problems, "; ")}, nil
}
