package campaign

import (
	"fmt"
	"math"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
	"github.com/ltscamp/ltscamp/stats"
)

// DiceLevel is the significance level of the dice report: a die source
// is flagged when its p-value, corrected when several sources are
// compared, is below it; and its power is the chance of that flag.
const DiceLevel = 0.01

// DiceQuery narrows a dice report.
type DiceQuery struct {
	// Actor keeps the dice of commands this actor ran.
	Actor string
	// Character keeps the rolls of this party member or foe (a name).
	Character string
	// Adventure keeps the rolls of this adventure (0: all).
	Adventure int
	// Physical keeps physical dice only; Program the program's only.
	Physical, Program bool
	// UpTo reads the log up to this seq (0: all of it).
	UpTo int64
}

// DiceReport reads the whole log once, in bounded memory, and reports the
// fairness of each die source and the luck of each character: nothing is
// written.
func (s *Service) DiceReport(q DiceQuery) (projections.DiceReport, error) {
	var rep projections.DiceReport
	if q.Physical && q.Program {
		return rep, rules.Errorf(rules.CodeInvalid, "--physical and --program exclude each other: give one, or neither for both")
	}
	if q.Adventure < 0 {
		return rep, rules.Errorf(rules.CodeInvalid, "--adventure is numbered from 1")
	}
	head, _, err := s.store.Head()
	if err != nil {
		return rep, err
	}
	if q.UpTo > 0 && q.UpTo < head {
		head = q.UpTo
	}
	v := &view{s: s, upTo: head}
	if v.rv, err = s.reverts(head); err != nil {
		return rep, err
	}
	camp, err := v.campaign()
	if err != nil {
		return rep, err
	}
	f := projections.DiceFilter{Actor: strings.TrimSpace(q.Actor), Adventure: q.Adventure, Physical: q.Physical, Program: q.Program}
	rep.Filter = projections.DiceReportFilter{Actor: f.Actor, Adventure: q.Adventure}
	if q.Character != "" {
		r, err := v.roster()
		if err != nil {
			return rep, err
		}
		m, err := findCombatant(&r, q.Character)
		if err != nil {
			return rep, err
		}
		f.Character, rep.Filter.Character = m.ID, m.Name
	}
	if q.Adventure > camp.Adventure {
		return rep, rules.Errorf(rules.CodeNotFound, "no adventure %d: the campaign has had %d", q.Adventure, camp.Adventure)
	}
	switch {
	case q.Physical:
		rep.Filter.Source = "physical"
	case q.Program:
		rep.Filter.Source = "program"
	}
	t := projections.NewDiceTally(f, func(id string) (events.Event, error) {
		e, err := s.store.EventByID(id)
		if err == nil && !v.rv.InEffect(e) {
			return e, fmt.Errorf("seq %d: %w", e.Seq, projections.ErrOutOfEffect)
		}
		return e, err
	})
	for e, err := range s.store.Iter(events.Query{Types: projections.DiceEventTypes(), UpToSeq: head}) {
		if err != nil {
			return rep, err
		}
		if !v.rv.InEffect(e) {
			continue
		}
		p, err := events.Decode(e)
		if err != nil {
			return rep, fmt.Errorf("seq %d: %w", e.Seq, err)
		}
		if err := t.Apply(e, p); err != nil {
			return rep, err
		}
	}
	rep.Campaign, rep.Edition, rep.Seq = camp.Name, string(camp.Edition), head
	fillDiceFigures(&rep, t)
	return rep, nil
}

// fillDiceFigures turns the tally into the report's figures: each
// source's test, corrected (Holm) when several are compared, and each
// character's percentile.
func fillDiceFigures(rep *projections.DiceReport, t *projections.DiceTally) {
	rep.Level, rep.Bias = DiceLevel, stats.LoadedDie()
	rep.Sources, rep.Characters = []projections.DieReport{}, []projections.LuckReport{}
	var raw []float64
	for _, src := range t.Sources {
		fit, err := stats.FitUniform(src.Counts)
		if err != nil {
			continue // no faces of this source passed the filter
		}
		bias := loadedDie(src.Sides)
		d := projections.DieReport{Actor: src.Actor, Source: "program", Sides: src.Sides, Faces: src.Counts, Thrown: fit.N,
			Chi2: fit.Chi2, DF: fit.DF, PRaw: fit.PValue, Power: stats.Power(fit.N, bias, DiceLevel),
			FacesFor90: stats.FacesForPower(bias, DiceLevel, 0.9)}
		if src.Physical {
			d.Source = "physical"
		}
		rep.Sources = append(rep.Sources, d)
		raw = append(raw, fit.PValue)
	}
	adjusted := raw
	if len(raw) > 1 {
		adjusted, rep.Holm = stats.Holm(raw), true
	}
	for i := range rep.Sources {
		d := &rep.Sources[i]
		d.PValue = adjusted[i]
		d.Flagged = d.PValue < DiceLevel
		d.Verdict = dieVerdict(*d)
	}
	for _, c := range t.Characters {
		l := projections.LuckReport{Character: c.Character, CharacterID: c.CharacterID, Luck: luckOf(c.Stood), Adventures: []projections.AdventureLuck{}}
		if n, _ := c.Replaced.Checks(); n > 0 {
			r := luckOf(c.Replaced)
			l.Rerolled = &r
		}
		for _, a := range c.Adventures {
			if n, _ := a.Checks.Checks(); n > 0 {
				l.Adventures = append(l.Adventures, projections.AdventureLuck{Adventure: a.Adventure, Luck: luckOf(a.Checks)})
			}
		}
		if l.Checks > 0 || l.Rerolled != nil {
			rep.Characters = append(rep.Characters, l)
		}
	}
}

// luckOf is the luck of a set of checks: passes against the exact
// distribution of passes.
func luckOf(g projections.CheckGroups) projections.Luck {
	n, passed := g.Checks()
	groups := make([]stats.Group, len(g.Groups))
	for i, c := range g.Groups {
		groups[i] = stats.Group{P: c.P, N: c.N}
	}
	return projections.Luck{Checks: n, Passed: passed, Expected: g.Expected(), Percentile: stats.Percentile(groups, passed)}
}

// loadedDie is the bias a source's power is stated against: for a d6
// the report's loaded die (2,3,3,3,3,4 out of 18); for a die of other
// sides the same shape, its lowest face two thirds as likely as a fair
// face and its highest four thirds.
func loadedDie(sides int) []float64 {
	if sides == 6 {
		return stats.LoadedDie()
	}
	p := make([]float64, sides)
	for i := range p {
		p[i] = 3
	}
	p[0], p[sides-1] = 2, 4
	for i := range p {
		p[i] /= float64(3 * sides)
	}
	return p
}

// dieVerdict says what a source's figures mean, in a sentence.
func dieVerdict(d projections.DieReport) string {
	power := math.Round(100 * d.Power)
	switch {
	case d.Flagged:
		return fmt.Sprintf("flagged: a fair die would come out this uneven with p %s", formatP(d.PValue))
	case d.Power < 0.8:
		return fmt.Sprintf("too few faces to tell: the test would catch the loaded die %.0f%% of the time (%d faces for 90%%)", power, d.FacesFor90)
	default:
		return fmt.Sprintf("no sign of bias; the test would catch the loaded die %.0f%% of the time", power)
	}
}

// formatP writes a p-value for people, with its relation: "= 0.0312",
// "< 0.0001".
func formatP(p float64) string {
	if p < 0.0001 {
		return "< 0.0001"
	}
	return fmt.Sprintf("= %.4f", p)
}
