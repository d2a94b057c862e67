package campaign

import (
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// Recent is one event near the end of the log, for a shell completion or
// a prompt to name: its seq, what it was, who recorded it.
type Recent struct {
	Seq       int64
	CommandID string
	Type      string
	Actor     string
	Summary   string
}

// recentWindow is how far back from the log's end completions look: the
// commands a GM undoes or re-rolls are the last few, and a completion must
// not read a long log.
const recentWindow = 500

// RecentCommands returns the commands in effect among the log's last
// events, newest first, each by its first event, at most limit.
func (s *Service) RecentCommands(limit int) ([]Recent, error) {
	evs, rv, err := s.recentEvents()
	if err != nil {
		return nil, err
	}
	var out []Recent
	seen := map[string]bool{}
	for i := len(evs) - 1; i >= 0 && len(out) < limit; i-- {
		e := evs[i]
		if seen[e.CommandID] || e.Stream == events.CommandsStream || !rv.InEffect(e) {
			continue
		}
		seen[e.CommandID] = true
		// The command's first event within the window names it.
		first := e
		for j := i - 1; j >= 0 && evs[j].CommandID == e.CommandID; j-- {
			first = evs[j]
		}
		out = append(out, s.recent(first))
	}
	return out, nil
}

// RecentRolls returns the rolls, contests, attacks and dogfight actions in
// effect among the log's last events that a karma re-roll may name, newest
// first, at most limit.
func (s *Service) RecentRolls(limit int) ([]Recent, error) {
	evs, rv, err := s.recentEvents()
	if err != nil {
		return nil, err
	}
	var out []Recent
	for i := len(evs) - 1; i >= 0 && len(out) < limit; i-- {
		e := evs[i]
		switch e.Type {
		case events.TypeRollMade, events.TypeContestResolved, events.TypeAttackMade, events.TypeDogfightManeuvered, events.TypeDogfightFired:
		default:
			continue
		}
		if !rv.InEffect(e) || e.Stream == events.DiceStream || strings.HasPrefix(e.Stream, events.FoeStreamPrefix) && e.Type != events.TypeAttackMade {
			continue
		}
		out = append(out, s.recent(e))
	}
	return out, nil
}

func (s *Service) recentEvents() ([]events.Event, *projections.Reverts, error) {
	evs, err := s.store.Read(events.Query{Limit: recentWindow, Last: true})
	if err != nil {
		return nil, nil, err
	}
	rv, err := s.reverts(0)
	if err != nil {
		return nil, nil, err
	}
	return evs, &rv, nil
}

func (s *Service) recent(e events.Event) Recent {
	return Recent{Seq: e.Seq, CommandID: e.CommandID, Type: e.Type, Actor: e.Actor, Summary: projections.Describe(e, s.SeqOf)}
}

// Purchase is one thing XP can buy a character now, at the edition's
// price.
type Purchase struct {
	// Target is what `xp spend` takes: "ST", "DX", "IQ" or "skill:Name".
	Target  string
	Price   int
	Formula string
	// Affordable is true when his unspent XP covers it.
	Affordable bool
	// From and To are the levels.
	From, To int
}

// Purchases lists what XP can raise for a character, one level each: the
// attributes the edition lets him raise and every skill of the edition,
// priced at his current levels.
func (s *Service) Purchases(name string) ([]Purchase, projections.Sheet, error) {
	sh, err := s.Sheet(name)
	if err != nil {
		return nil, sh, err
	}
	if sh.Foe {
		return nil, sh, rules.Errorf(rules.CodeRule, "%s is a foe; foes have no XP", sh.Name)
	}
	camp, err := s.campaignNow()
	if err != nil {
		return nil, sh, err
	}
	ed := sh.Edition
	var out []Purchase
	for _, at := range rules.AttributeNames() {
		if rules.CheckAttributeRaise(ed, sh.Name, sh.Attributes, at) != nil {
			continue
		}
		cur := sh.Attributes.Get(at)
		p := rules.AttributePrice(ed, cur)
		out = append(out, Purchase{Target: string(at), Price: p.XP, Formula: p.Formula, Affordable: p.XP <= sh.XP.Unspent, From: cur, To: cur + 1})
	}
	for _, sk := range rules.SkillCatalogue(ed) {
		level := sh.SkillLevel(sk.Key)
		if rules.CheckSkillPurchase(ed, sh.Name, sk, level, camp.BetweenAdventures()) != nil {
			continue
		}
		p := rules.SkillPrice(ed, level)
		out = append(out, Purchase{Target: "skill:" + sk.NameIn(ed), Price: p.XP, Formula: p.Formula, Affordable: p.XP <= sh.XP.Unspent, From: level, To: level + 1})
	}
	return out, sh, nil
}

// campaignNow folds the campaign stream as it is now.
func (s *Service) campaignNow() (projections.Campaign, error) {
	v, err := s.view("")
	if err != nil {
		return projections.Campaign{}, err
	}
	return v.campaign()
}
