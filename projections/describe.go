package projections

import (
	"fmt"
	"strings"

	"github.com/ltscamp/ltscamp/events"
)

// Describe returns a one-line, human summary of an event, for logs and
// audit trails. seqOf, when not nil, names the events it refers to (the roll
// a re-roll replaces) by seq instead of by ULID; undo and redo refer to
// commands, which seqOf names by the seq of their first event.
func Describe(e events.Event, seqOf func(id string) (int64, bool)) string {
	ref := func(id string) string {
		if seqOf != nil {
			if seq, ok := seqOf(id); ok {
				return fmt.Sprintf("seq %d", seq)
			}
		}
		return id
	}
	p, err := events.Decode(e)
	if err != nil {
		return fmt.Sprintf("(%v)", err)
	}
	switch p := p.(type) {
	case *events.CampaignCreated:
		return fmt.Sprintf("campaign %q created, edition %s", p.Name, p.Edition)
	case *events.CharacterCreated:
		skills := make([]string, 0, len(p.Skills))
		for _, s := range p.Skills {
			skills = append(skills, fmt.Sprintf("%s %d", s.Name, s.Level))
		}
		sk := ""
		if len(skills) > 0 {
			sk = ", " + strings.Join(skills, ", ")
		}
		return fmt.Sprintf("%s created: ST%d DX%d IQ%d%s", p.Name, p.Attributes.ST, p.Attributes.DX, p.Attributes.IQ, sk)
	case *events.RollMade:
		who := p.Character
		if who == "" {
			who = "bare roll"
		}
		faces := make([]string, len(p.Faces))
		for i, f := range p.Faces {
			faces[i] = fmt.Sprint(f)
		}
		s := fmt.Sprintf("%s: %s [%s] = %d", who, p.Expr, strings.Join(faces, ","), p.Total)
		if p.Kind == "check" {
			s += fmt.Sprintf(" vs %d, %s", p.Target, p.Outcome)
		}
		if p.Rerolls != "" {
			s += ", re-roll of " + ref(p.Rerolls)
		}
		return s
	case *events.ContestResolved:
		a, b := p.Sides[0], p.Sides[1]
		s := fmt.Sprintf("contest: %s rolled %d on %s %d, %s rolled %d on %s %d: ", a.Name, a.Total, a.Attribute, a.Target, b.Name, b.Total, b.Attribute, b.Target)
		switch p.Outcome {
		case "win":
			s += p.Sides[p.Winner].Name + " wins"
		case "tie":
			s += "tie"
		default:
			s += "both fail"
		}
		if p.Rerolls != "" {
			s += ", re-roll of " + ref(p.Rerolls)
		}
		return s
	case *events.KarmaGranted:
		return fmt.Sprintf("+%d karma%s", p.Amount, because(p.Reason))
	case *events.KarmaSpent:
		return fmt.Sprintf("-%d karma for a %s of %s", p.Amount, p.For, ref(p.RollID))
	case *events.WishGranted:
		return fmt.Sprintf("+%s%s", Count(p.Amount, "wish", "wishes"), because(p.Reason))
	case *events.WishSpent:
		return fmt.Sprintf("-1 wish for a %s of %s", p.For, ref(p.RollID))
	case *events.CurseAdded:
		return fmt.Sprintf("+%s%s", Count(p.Levels, "curse level", "curse levels"), because(p.Reason))
	case *events.XPAwarded:
		return fmt.Sprintf("+%d XP%s", p.Amount, because(p.Reason))
	case *events.XPSpent:
		what := p.Attribute
		if p.On == "skill" {
			what = p.SkillName
		}
		return fmt.Sprintf("-%d XP: %s %d→%d (%s, edition %s)", p.Price, what, p.From, p.To, p.Formula, p.Edition)
	case *events.PlotwordAcquired:
		return fmt.Sprintf("plotword %s acquired", p.Word)
	case *events.CommandReverted:
		s := "undo of " + ref(p.CommandID)
		if n := len(p.Cascade); n > 0 {
			s += fmt.Sprintf(" (+%d by cascade)", n)
		}
		return s + because(p.Reason)
	case *events.CommandRestored:
		if len(p.CommandIDs) == 0 {
			return "redo of nothing" + because(p.Reason)
		}
		s := "redo of " + ref(p.CommandIDs[0])
		if n := len(p.CommandIDs) - 1; n > 0 {
			s += fmt.Sprintf(" (+%d more)", n)
		}
		return s + because(p.Reason)
	}
	return e.Type
}

func because(reason string) string {
	if reason == "" {
		return ""
	}
	return ": " + reason
}

// Count writes n with the singular or plural noun: "1 wish", "2 wishes".
func Count(n int, one, many string) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
