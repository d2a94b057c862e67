package web

import (
	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
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
//     player's skills, XP, karma or rolls, the GM's notes or the log.
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
