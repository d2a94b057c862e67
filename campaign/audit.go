package campaign

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// auditFold is the XP audit of a stream folded so far: the rows, and what
// the assertions need. It is snapshotted with the character (kind
// projections.SnapAudit), so an audit folds only the events after it.
type auditFold struct {
	// Before is the sheet as it stood before the next event, folded from
	// the events in effect: the moment a spend is priced at.
	Before projections.Sheet `json:"before"`
	// Earned and Spent are the ledger's totals; Version its stream version.
	Earned  int                      `json:"earned"`
	Spent   int                      `json:"spent"`
	Version int64                    `json:"version"`
	Rows    []projections.XPAuditRow `json:"rows"`
	// Lowest is the lowest balance after a row in effect, at LowestSeq
	// (0: no row in effect yet).
	Lowest    int           `json:"lowest"`
	LowestSeq int64         `json:"lowest_seq"`
	Spends    int           `json:"spends"`
	Priced    int           `json:"priced"`
	Mispriced []string      `json:"mispriced,omitempty"`
	Edition   rules.Edition `json:"edition"`
}

// foldAudit folds a character's XP audit up to seq upTo (0: all), from
// its newest snapshot that holds.
func (s *Service) foldAudit(stream string, ed rules.Edition, rv *projections.Reverts, upTo int64) (*auditFold, folded, error) {
	a := &auditFold{Edition: ed}
	sn, ok, err := s.snapshot(stream, projections.SnapAudit, rv, upTo)
	if err != nil {
		return nil, folded{}, err
	}
	if ok {
		if err := json.Unmarshal(sn.State, a); err != nil || a.Edition != ed {
			a, sn = &auditFold{Edition: ed}, events.Snapshot{} // fold from the start
		}
	}
	f, err := s.foldFrom(stream, sn, nil, upTo, func(e events.Event) error { return a.step(e, rv) })
	return a, f, err
}

// step folds one event of the stream.
func (a *auditFold) step(e events.Event, rv *projections.Reverts) error {
	inEffect := rv.InEffect(e)
	var check *projections.RulesPrice
	if e.Type == events.TypeXPSpent {
		var err error
		if check, err = priceAt(a.Edition, &a.Before, e, inEffect); err != nil {
			return err
		}
	}
	ledger := projections.Ledger{Earned: a.Earned, Spent: a.Spent, Version: a.Version}
	if err := ledger.Apply(e, rv); err != nil {
		return err
	}
	a.Earned, a.Spent, a.Version = ledger.Earned, ledger.Spent, ledger.Version
	if inEffect {
		if err := a.Before.Apply(e); err != nil {
			return err
		}
	}
	if len(ledger.Entries) == 0 {
		return nil // not an XP event
	}
	le := ledger.Entries[0]
	a.Rows = append(a.Rows, projections.XPAuditRow{
		Seq: le.Seq, EventID: le.EventID, RecordedAt: le.RecordedAt, CommandID: le.CommandID, Actor: le.Actor, At: le.At,
		Kind: le.Kind, What: le.What, Amount: le.Amount, Formula: le.Formula, Edition: le.Edition,
		Rules: check, Balance: le.Balance, Reverted: le.Reverted,
	})
	if le.Reverted == nil && (a.LowestSeq == 0 || le.Balance < a.Lowest) {
		a.Lowest, a.LowestSeq = le.Balance, le.Seq
	}
	if check != nil {
		a.Spends++
		if check.OK {
			a.Priced++
		} else {
			a.Mispriced = append(a.Mispriced, fmt.Sprintf("seq %d: %s", le.Seq, check.Problem))
		}
	}
	return nil
}

// report is the audit, its assertions checked against the sheet.
func (a *auditFold) report(sheet projections.Sheet) projections.XPAudit {
	ed := a.Edition
	out := projections.XPAudit{Character: sheet.Name, CharacterID: sheet.ID, Edition: ed, Rows: a.Rows, SheetUnspent: sheet.XP.Unspent}
	if out.Rows == nil {
		out.Rows = []projections.XPAuditRow{}
	}
	out.Earned, out.Spent, out.Unspent = a.Earned, a.Spent, a.Earned-a.Spent

	balance := projections.Assertion{Name: projections.AssertBalance, OK: out.Unspent == out.SheetUnspent && a.Earned == sheet.XP.Earned && a.Spent == sheet.XP.Spent,
		Detail: fmt.Sprintf("earned − spent = unspent: %d − %d = %d", out.Earned, out.Spent, out.Unspent)}
	if !balance.OK {
		balance.Detail += fmt.Sprintf(", but the sheet shows %d − %d = %d", sheet.XP.Earned, sheet.XP.Spent, sheet.XP.Unspent)
	}
	never := projections.Assertion{Name: projections.AssertNeverNegative, OK: a.Lowest >= 0, Detail: "unspent ≥ 0 at every row"}
	if a.LowestSeq > 0 {
		never.Detail += fmt.Sprintf(": lowest %d, after seq %d", a.Lowest, a.LowestSeq)
	}
	prices := projections.Assertion{Name: projections.AssertPrices, OK: len(a.Mispriced) == 0,
		Detail: fmt.Sprintf("every spend priced by the %s rules: %d of %s", ed, a.Priced, projections.Count(a.Spends, "spend", "spends"))}
	if !prices.OK {
		prices.Detail += "; " + strings.Join(a.Mispriced, "; ")
	}
	out.Assertions = []projections.Assertion{balance, never, prices}
	out.OK = balance.OK && never.OK && prices.OK
	return out
}

// priceAt re-prices a spend by the edition's rules. A spend in effect is
// priced at the level the sheet had just before it, which must be the
// level it records raising from; a reverted spend is priced at the level
// it records, since the sheet it was decided on is no longer what the log
// folds to.
func priceAt(ed rules.Edition, before *projections.Sheet, e events.Event, inEffect bool) (*projections.RulesPrice, error) {
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
			return &projections.RulesPrice{Edition: ed, Problem: err.Error()}, nil
		}
		what = string(at)
		if inEffect {
			current = before.Attributes.Get(at)
		}
		price = rules.AttributePrice(ed, current)
	case "skill":
		sk, err := rules.LookupSkill(ed, sp.Skill)
		if err != nil {
			return &projections.RulesPrice{Edition: ed, Problem: err.Error()}, nil
		}
		what = sk.NameIn(ed)
		if inEffect {
			current = before.SkillLevel(sk.Key)
		}
		price = rules.SkillPrice(ed, current)
	default:
		return &projections.RulesPrice{Edition: ed, Problem: fmt.Sprintf("a spend on %q, which the rules do not price", sp.On)}, nil
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
	return &projections.RulesPrice{Price: price.XP, Formula: price.Formula, Edition: price.Edition, OK: len(problems) == 0, Problem: strings.Join(problems, "; ")}, nil
}
