package projections

import (
	"fmt"
	"strconv"
)

// WhatIfReport is what `ltscamp whatif` shows: the campaign's commands
// replayed under another edition's rules, with the same dice, beside
// what the log holds.
type WhatIfReport struct {
	Campaign string `json:"campaign"`
	// Edition is the campaign's own; Under the one replayed.
	Edition string `json:"edition"`
	Under   string `json:"under"`
	// Seq is the last event replayed.
	Seq int64 `json:"seq"`
	// Characters are the party members and foes, each with the fields of
	// his sheet that would differ (none when the edition changes nothing
	// of him).
	Characters []WhatIfCharacter `json:"characters"`
	// Commands are the commands whose outcome would change, and those
	// the replay could not replay as recorded, in log order.
	Commands []WhatIfCommand `json:"commands"`
	// Carried says what the replay carried as recorded, and why.
	Carried []string `json:"carried"`
}

// WhatIfCharacter is one character's sheet under the other edition,
// as its differences from the real one.
type WhatIfCharacter struct {
	Character   string             `json:"character"`
	CharacterID string             `json:"character_id"`
	Foe         bool               `json:"foe,omitempty"`
	Differences []WhatIfDifference `json:"differences"`
	// StoppedAt is the seq where the replay stopped his line (a command
	// it could not replay as recorded), 0 when it replayed it all; his
	// would-be sheet is as it stood just before.
	StoppedAt int64 `json:"stopped_at,omitempty"`
	// NotReplayed is how many of his later commands were not replayed
	// (the report's commands list the first few).
	NotReplayed int `json:"not_replayed,omitempty"`
}

// WhatIfDifference is a field of a sheet, as it is and as it would be.
type WhatIfDifference struct {
	Field   string `json:"field"`
	Real    string `json:"real"`
	WouldBe string `json:"would_be"`
}

// The kinds of WhatIfCommand.
const (
	// WhatIfDiverges is a command whose outcome the other edition
	// changes: a check that would pass or fail, a price that differs.
	WhatIfDiverges = "diverges"
	// WhatIfStops is a command the other edition cannot replay as
	// recorded (a spend he could not afford, a dead man's roll): the
	// character's line stops there.
	WhatIfStops = "stops"
	// WhatIfSkipped is a later command of a stopped line, not replayed.
	WhatIfSkipped = "skipped"
)

// WhatIfCommand is a command the replay changed or could not replay.
type WhatIfCommand struct {
	Seq       int64  `json:"seq"`
	CommandID string `json:"command_id"`
	Type      string `json:"type"`
	Character string `json:"character,omitempty"`
	// Kind is WhatIfDiverges, WhatIfStops or WhatIfSkipped.
	Kind string `json:"kind"`
	// What names the first divergence, in words.
	What string `json:"what"`
}

// SheetDifferences lists the fields of a sheet that would differ: the
// attributes, skills, XP earned, spent and unspent, karma, wishes,
// curses, damage, fatigue and status.
func SheetDifferences(real, would *Sheet) []WhatIfDifference {
	diffs := []WhatIfDifference{}
	add := func(field string, a, b string) {
		if a != b {
			diffs = append(diffs, WhatIfDifference{Field: field, Real: a, WouldBe: b})
		}
	}
	num := func(field string, a, b int) { add(field, strconv.Itoa(a), strconv.Itoa(b)) }
	num("ST", real.Attributes.ST, would.Attributes.ST)
	num("DX", real.Attributes.DX, would.Attributes.DX)
	num("IQ", real.Attributes.IQ, would.Attributes.IQ)
	skills := map[string][2]int{}
	var order []string
	for i, set := range [][]Skill{real.Skills, would.Skills} {
		for _, sk := range set {
			v, ok := skills[sk.Key]
			if !ok {
				order = append(order, sk.Key)
			}
			v[i] = sk.Level
			skills[sk.Key] = v
		}
	}
	names := map[string]string{}
	for _, sk := range append(append([]Skill{}, real.Skills...), would.Skills...) {
		if names[sk.Key] == "" {
			names[sk.Key] = sk.Name
		}
	}
	for _, k := range order {
		v := skills[k]
		num("skill "+names[k], v[0], v[1])
	}
	num("XP earned", real.XP.Earned, would.XP.Earned)
	num("XP spent", real.XP.Spent, would.XP.Spent)
	num("XP unspent", real.XP.Unspent, would.XP.Unspent)
	num("karma", real.Karma, would.Karma)
	num("wishes", real.Wishes, would.Wishes)
	num("curses", real.Curses, would.Curses)
	num("damage", real.Damage, would.Damage)
	num("fatigue", real.Fatigue, would.Fatigue)
	add("status", real.Status, would.Status)
	return diffs
}

// String writes a difference for people: "ST: 13 → 14".
func (d WhatIfDifference) String() string {
	return fmt.Sprintf("%s: %s → %s", d.Field, d.Real, d.WouldBe)
}
