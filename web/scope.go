package web

import (
	"fmt"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// viewer is who reads a page: a link's share, and the start of the link's
// paths.
//
// What each link may see is decided here and nowhere else:
//   - the GM's link sees everything: every sheet, foes in full, every
//     audit, the log with its dice, the timeline;
//   - a player's link sees the party's public parts (name, attributes,
//     armour, weapon, damage, fatigue, status), his own character in full
//     (sheet, XP audit, his rolls), and foes by name and condition only
//     (ok, hurt, down): never a foe's attributes or skills, another
//     player's skills, XP, karma or rolls, the GM's notes or the log. Of
//     a contest he took part in, he reads his own side in full and of the
//     other side (a foe, another player) the name, the roll and the
//     outcome: its attribute and target would tell a foe's attributes and
//     skills, or another player's skill levels (lineText).
type viewer struct {
	share projections.Share
	base  string
}

// gm reports whether the viewer holds the GM's link.
func (v viewer) gm() bool { return v.share.Scope == events.ShareScopeGM }

// own reports whether the character of member ID is the viewer's own.
func (v viewer) own(id string) bool {
	return v.share.Scope == events.ShareScopePlayer && v.share.CharacterID == id
}

// full reports whether the viewer may read the whole of the character or
// foe of member ID: his sheet, audit and rolls.
func (v viewer) full(id string) bool { return v.gm() || v.own(id) }

// key tells viewers apart in the page cache: the pages of one scope are
// the same for every link of it.
func (v viewer) key() string {
	if v.gm() {
		return "gm"
	}
	return "player:" + v.share.CharacterID
}

// condition is what a player sees of a foe: ok, hurt or down.
func condition(sh projections.Sheet) string {
	switch {
	case sh.Dead || sh.Status != "ok" && sh.Status != "":
		return "down"
	case sh.Damage > 0 || sh.Fatigue > 0:
		return "hurt"
	}
	return "ok"
}

// lineText is what an event says on a page of events to viewer v: the
// log's words (projections.Describe), except in a player's contests, where
// the other side's attribute and target are left out.
func (v viewer) lineText(e events.Event, seqOf func(id string) (int64, bool)) string {
	text := projections.Describe(e, seqOf)
	if v.gm() || e.Type != events.TypeContestResolved {
		return text
	}
	p, err := events.Decode(e)
	c, ok := p.(*events.ContestResolved)
	if err != nil || !ok {
		return text
	}
	side := func(s events.ContestSide) string {
		if v.own(s.CharacterID) {
			return fmt.Sprintf("%s rolled %d on %s %d", s.Name, s.Total, s.Attribute, s.Target)
		}
		return fmt.Sprintf("%s rolled %d", s.Name, s.Total)
	}
	a, b := c.Sides[0], c.Sides[1]
	var out string
	if t := c.Tackle; t != nil {
		out = fmt.Sprintf("%s tackles %s on DX: %s, %s: ", t.Tackler, t.Foe, side(a), side(b))
		switch t.Outcome {
		case rules.TackleGrappling:
			out += t.Tackler + " wins: they are grappling"
		case rules.TackleFoeRetreats:
			out += t.Tackler + " fails, stronger: " + t.Foe + " retreats"
		default:
			out += t.Tackler + " fails, not stronger: he goes back"
		}
	} else {
		out = fmt.Sprintf("contest: %s, %s: ", side(a), side(b))
		switch c.Outcome {
		case "win":
			out += c.Sides[c.Winner].Name + " wins"
		case "tie":
			out += "tie"
		default:
			out += "both fail"
		}
	}
	if c.Rerolls != "" {
		if seq, ok := seqOf(c.Rerolls); ok {
			out += fmt.Sprintf(", re-roll of seq %d", seq)
		}
	}
	return out
}
