package campaign

import (
	"fmt"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// AuditXP itemises a character's XP ledger from his stream: who awarded or
// spent what and when, every spend re-priced by the campaign edition's
// rules against the sheet as it stood just before it, and the running
// balance. It asserts that earned − spent is the sheet's unspent XP, that
// the balance never went below 0, and that every recorded price is the
// rules' price. A failed assertion is reported in the audit, not as an
// error.
func (s *Service) AuditXP(name string) (projections.XPAudit, error) { return s.AuditXPAsOf(name, "") }

// AuditXPAsOf is AuditXP of the log as it was at a point (see
// ResolveAsOf; "" for now).
func (s *Service) AuditXPAsOf(name, asOf string) (projections.XPAudit, error) {
	v, err := s.view(asOf)
	if err != nil {
		return projections.XPAudit{}, err
	}
	camp, err := v.campaign()
	if err != nil {
		return projections.XPAudit{}, err
	}
	c, err := v.character(name)
	if err != nil {
		return projections.XPAudit{}, err
	}
	stream, err := s.store.ReadStream(c.stream, 0)
	if err != nil {
		return projections.XPAudit{}, err
	}
	if v.upTo > 0 {
		stream = eventsUpTo(stream, v.upTo)
	}
	ed := camp.Edition
	out := projections.XPAudit{Character: c.sheet.Name, CharacterID: c.sheet.ID, Edition: ed, Rows: []projections.XPAuditRow{}, SheetUnspent: c.sheet.XP.Unspent}
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
		var check *projections.RulesPrice
		if e.Type == events.TypeXPSpent {
			check, err = priceAt(ed, &before, e, inEffect)
			if err != nil {
				return projections.XPAudit{}, err
			}
		}
		n := len(ledger.Entries)
		if err := ledger.Apply(e, &v.rv); err != nil {
			return projections.XPAudit{}, err
		}
		if inEffect {
			if err := before.Apply(e); err != nil {
				return projections.XPAudit{}, err
			}
		}
		if len(ledger.Entries) == n {
			continue // not an XP event
		}
		le := ledger.Entries[n]
		out.Rows = append(out.Rows, projections.XPAuditRow{
			Seq: le.Seq, EventID: le.EventID, RecordedAt: le.RecordedAt, CommandID: le.CommandID, Actor: le.Actor, At: le.At,
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

	balance := projections.Assertion{Name: projections.AssertBalance, OK: out.Unspent == out.SheetUnspent && ledger.Earned == c.sheet.XP.Earned && ledger.Spent == c.sheet.XP.Spent,
		Detail: fmt.Sprintf("earned − spent = unspent: %d − %d = %d", out.Earned, out.Spent, out.Unspent)}
	if !balance.OK {
		balance.Detail += fmt.Sprintf(", but the sheet shows %d − %d = %d", c.sheet.XP.Earned, c.sheet.XP.Spent, c.sheet.XP.Unspent)
	}
	never := projections.Assertion{Name: projections.AssertNeverNegative, OK: lowest >= 0, Detail: "unspent ≥ 0 at every row"}
	if lowestSeq > 0 {
		never.Detail += fmt.Sprintf(": lowest %d, after seq %d", lowest, lowestSeq)
	}
	prices := projections.Assertion{Name: projections.AssertPrices, OK: len(mispriced) == 0,
		Detail: fmt.Sprintf("every spend priced by the %s rules: %d of %s", ed, priced, projections.Count(spends, "spend", "spends"))}
	if !prices.OK {
		prices.Detail += "; " + strings.Join(mispriced, "; ")
	}
	out.Assertions = []projections.Assertion{balance, never, prices}
	out.OK = balance.OK && never.OK && prices.OK
	return out, nil
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
