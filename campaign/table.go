package campaign

import (
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// Table is the state of play at a glance, as `ltscamp play` shows it: the
// log's head, where the campaign is in game time, the turn under way, the
// party, the encounter's foes and the latest log lines.
type Table struct {
	Point LogPoint
	// Turns is the encounter's turn under way (its zero value outside an
	// encounter).
	Turns projections.Turns
	Party []Combatant
	// Foes are the foes on the roster, during an encounter.
	Foes []Combatant
	// Log is the log's last events, oldest first, each marked when its
	// command was undone.
	Log []LogEntry
}

// Combatant is a party member or a foe, with where he stands in the turn.
type Combatant struct {
	Sheet projections.Sheet
	// Turn is "acted", "to act", "waits", "loses this turn", "loses next
	// turn" or "free action" (projections.Turns.StateOf); "" when no turn
	// is tracked.
	Turn string
	// LosesTurn is set when he loses this turn or the next (he reacted).
	LosesTurn bool
}

// Table reads the state of play with the log's last logLines events. It
// reads what the party's sheets, the foes' and the turns need from their
// snapshots on, never the whole log.
func (s *Service) Table(logLines int) (Table, error) {
	p, err := s.Point("")
	if err != nil {
		return Table{}, err
	}
	t := Table{Point: p}
	sheets, err := s.SheetsAsOf(p.At())
	if err != nil {
		return Table{}, err
	}
	if p.Campaign.InEncounter {
		if t.Turns, err = s.Turns(); err != nil {
			return Table{}, err
		}
	}
	t.Party = combatants(&t.Turns, sheets, events.SideParty)
	if p.Campaign.InEncounter {
		foes, err := s.FoeSheetsAsOf(p.At())
		if err != nil {
			return Table{}, err
		}
		t.Foes = combatants(&t.Turns, foes, events.SideFoes)
	}
	if logLines > 0 && p.Seq > 0 {
		if t.Log, err = s.Log(LogFilter{Limit: logLines, All: true}); err != nil {
			return Table{}, err
		}
	}
	return t, nil
}

func combatants(t *projections.Turns, sheets []projections.Sheet, side string) []Combatant {
	out := make([]Combatant, len(sheets))
	for i, sh := range sheets {
		out[i].Sheet = sh
		out[i].Turn, out[i].LosesTurn = t.StateOf(sh.ID, side)
	}
	return out
}

// Head returns the log's last seq and hash: the cheap read a screen polls
// to learn that another process appended.
func (s *Service) Head() (int64, []byte, error) { return s.store.Head() }

// Chance is the chance of a check decided but not rolled: what `roll`
// would roll against, before the dice.
type Chance struct {
	// Expr is the check as it would be recorded ("3/DX", "3/DX+Medic").
	Expr      string
	Character string
	Target    int
	// Probability is the chance to pass, 0 to 1.
	Probability float64
	// Lacking is set when the character lacks the skill: the check fails
	// without a roll.
	Lacking bool
}

// Chance decides a check as Roll would, for req's expression and
// character, and returns its target and chance without rolling or
// recording anything. A roll that is not a check has no chance to show
// (CodeInvalid).
func (s *Service) Chance(req RollRequest) (Chance, error) {
	expr, err := rules.ParseExpr(req.Expr)
	if err != nil {
		return Chance{}, err
	}
	if expr.Check == nil || strings.TrimSpace(req.Character) == "" {
		return Chance{}, rules.Errorf(rules.CodeInvalid, "%s is not a character's check", req.Expr)
	}
	d := s.newDecision()
	camp, err := d.campaignState()
	if err != nil {
		return Chance{}, err
	}
	// The dice are never looked at: any faces do for the chance.
	faces := make([]int, expr.Check.Dice)
	for i := range faces {
		faces[i] = 1
	}
	rm, _, _, err := d.roll(camp.Edition, expr, req.Character, faces, nil)
	if err != nil {
		return Chance{}, err
	}
	return Chance{Expr: rm.Expr, Character: rm.Character, Target: rm.Target, Probability: rm.Probability,
		Lacking: rm.Note != "" && len(rm.Faces) == 0}, nil
}
