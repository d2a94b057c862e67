package events

import (
	"encoding/json"
	"fmt"
	"sort"
)

// Stable event type names. These strings are stored in the log: never
// rename one. A changed payload shape gets a new payload version and an
// upcaster in Decode.
const (
	TypeCampaignCreated  = "campaign.created"
	TypeCharacterCreated = "character.created"
	TypeRollMade         = "roll.made"
	TypeContestResolved  = "contest.resolved"
	TypeKarmaGranted     = "karma.granted"
	TypeKarmaSpent       = "karma.spent"
	TypeWishGranted      = "wish.granted"
	TypeWishSpent        = "wish.spent"
	TypeCurseAdded       = "curse.added"
	TypeXPAwarded        = "xp.awarded"
	TypeXPSpent          = "xp.spent"
	TypePlotwordAcquired = "plotword.acquired"
	TypeNoteRecorded     = "note.recorded"
	TypeCommandReverted  = "command.reverted"
	TypeCommandRestored  = "command.restored"
)

// Stream names and prefixes.
const (
	// CampaignStream holds campaign-wide facts: creation, plotwords, and
	// (later) adventures and game days.
	CampaignStream = "campaign"
	// DiceStream holds rolls made for nobody in the party.
	DiceStream = "dice"
	// CommandsStream holds undo and redo: command.reverted and
	// command.restored. Folding it gives the commands not in effect.
	CommandsStream = "commands"
	// CharacterStreamPrefix prefixes every character's stream.
	CharacterStreamPrefix = "character/"
)

// CharacterStream returns the stream name of the character with the given ULID.
func CharacterStream(characterID string) string { return CharacterStreamPrefix + characterID }

// Payload is implemented by every event payload.
type Payload interface {
	// EventType returns the stable type name the payload is stored under.
	EventType() string
	// PayloadVersion returns the version of the payload's shape.
	PayloadVersion() int
}

// CampaignCreated starts a campaign. It is the first event of the log.
type CampaignCreated struct {
	Stamp
	Name    string `json:"name"`
	Edition string `json:"edition"`
}

// SkillLevel is a skill at a level, by its stable catalogue key and the name
// shown in the campaign's edition.
type SkillLevel struct {
	Skill string `json:"skill"`
	Name  string `json:"name"`
	Level int    `json:"level"`
}

// Attributes are a character's ST, DX and IQ.
type Attributes struct {
	ST int `json:"ST"`
	DX int `json:"DX"`
	IQ int `json:"IQ"`
}

// CharacterCreated starts a character's stream.
type CharacterCreated struct {
	Stamp
	CharacterID string       `json:"character_id"`
	Name        string       `json:"name"`
	Edition     string       `json:"edition"`
	Attributes  Attributes   `json:"attributes"`
	Skills      []SkillLevel `json:"skills"`
}

// Modifier is one adjustment to a roll, with where it applies: "target"
// (the number to roll under) or "total" (the dice total).
type Modifier struct {
	Source  string `json:"source"`
	Value   int    `json:"value"`
	Applies string `json:"applies"`
}

// RollMade records one roll, with everything needed to re-check it.
type RollMade struct {
	Stamp
	// CharacterID and Character name who rolled; empty for a bare roll.
	CharacterID string `json:"character_id,omitempty"`
	Character   string `json:"character,omitempty"`
	// Expr is the expression as canonically written ("3/DX", "2d6-1").
	Expr string `json:"expr"`
	// Kind is "check" (roll under), "damage" (a character's damage roll) or
	// "dice" (a plain roll).
	Kind string `json:"kind"`
	// Dice and Sides: how many dice of how many sides were rolled.
	Dice  int `json:"dice"`
	Sides int `json:"sides"`
	// Faces are the faces rolled, in order; empty when a required skill was
	// lacking and no dice were rolled.
	Faces []int `json:"faces"`
	// Entered is true when the faces were typed in from physical dice.
	Entered bool `json:"entered"`
	// Sum is the faces added up.
	Sum int `json:"sum"`
	// Modifiers are every adjustment applied (skill, curse, armour, the
	// expression's own +N).
	Modifiers []Modifier `json:"modifiers"`
	// Total is the sum after modifiers that apply to the total.
	Total int `json:"total"`
	// Target is the number to roll under (checks only).
	Target int `json:"target,omitempty"`
	// Outcome is "pass" or "fail" for checks, "rolled" otherwise.
	Outcome string `json:"outcome"`
	// Margin is Target - Total for checks.
	Margin int `json:"margin"`
	// Probability is the chance the check had of passing, in [0,1].
	Probability float64 `json:"probability,omitempty"`
	// AttributeValue, SkillLevel, Restriction and Curses are the roller's
	// standing when the roll was made (attribute and skill for checks,
	// curses for checks and damage), so the roll can be re-checked, and
	// re-rolled with karma, under the same conditions.
	AttributeValue int `json:"attribute_value,omitempty"`
	SkillLevel     int `json:"skill_level,omitempty"`
	Restriction    int `json:"restriction,omitempty"`
	Curses         int `json:"curses,omitempty"`
	// Note explains an outcome the dice did not decide, such as a lacking
	// required skill or the edition's damage minimum.
	Note string `json:"note,omitempty"`
	// Reason is the GM's note of what the roll was for.
	Reason string `json:"reason,omitempty"`
	// Rerolls is the event ID of the roll this one replaces (a karma re-roll).
	Rerolls string `json:"rerolls,omitempty"`
	// Edition whose rules decided the roll.
	Edition string `json:"edition"`
}

// ContestSide is one side of a contest.
type ContestSide struct {
	CharacterID string     `json:"character_id,omitempty"`
	Name        string     `json:"name"`
	Attribute   string     `json:"attribute"`
	Value       int        `json:"value"`
	Restriction int        `json:"restriction,omitempty"`
	Curses      int        `json:"curses,omitempty"`
	Skill       string     `json:"skill,omitempty"`
	SkillLevel  int        `json:"skill_level,omitempty"`
	Dice        int        `json:"dice"`
	Modifiers   []Modifier `json:"modifiers"`
	Target      int        `json:"target"`
	Faces       []int      `json:"faces"`
	Entered     bool       `json:"entered"`
	Total       int        `json:"total"`
	Over        bool       `json:"over"`
}

// ContestResolved records a contest ("winning a check"). The same payload is
// appended to the stream of each party member taking part.
type ContestResolved struct {
	Stamp
	Sides [2]ContestSide `json:"sides"`
	// Winner is 0 or 1, the index of the winning side, or -1 for none.
	Winner int `json:"winner"`
	// Outcome is "win", "tie" or "both_fail".
	Outcome string `json:"outcome"`
	// Explanation says in words why, e.g. "13 exceeds Ajax's ST 12".
	Explanation string `json:"explanation"`
	Reason      string `json:"reason,omitempty"`
	// Rerolls is the event ID of the contest this one replaces.
	Rerolls string `json:"rerolls,omitempty"`
	Edition string `json:"edition"`
	// Tackle, when set, makes the contest a tackle (a DX contest, side 0
	// the tackler, side 1 his foe). Absent in older logs.
	Tackle *ContestTackle `json:"tackle,omitempty"`
}

// ContestTackle is what a tackle adds to its DX contest.
type ContestTackle struct {
	TacklerID string `json:"tackler_id"`
	Tackler   string `json:"tackler"`
	FoeID     string `json:"foe_id"`
	Foe       string `json:"foe"`
	// TacklerST and FoeST are the sides' ST, for "stronger".
	TacklerST int `json:"tackler_st"`
	FoeST     int `json:"foe_st"`
	// Outcome is "grappling", "foe retreats" or "back".
	Outcome string `json:"outcome"`
	// Reacts is the attack event (by the foe on the tackler) that a
	// tackle as a reaction answers; empty for a tackle as an action.
	Reacts string `json:"reacts,omitempty"`
}

// KarmaGranted gives a character karma points.
type KarmaGranted struct {
	Stamp
	Amount int    `json:"amount"`
	Reason string `json:"reason,omitempty"`
	// ExpiresAtDayEnd marks karma that must be used in the current game
	// day (a Storyteller's); it expires when the day ends.
	ExpiresAtDayEnd bool `json:"expires_at_day_end,omitempty"`
	// StorytellerID is the character whose storytelling gave it.
	StorytellerID string `json:"storyteller_id,omitempty"`
	// RollID is the storyteller's roll.
	RollID string `json:"roll_id,omitempty"`
}

// KarmaSpent spends karma points, e.g. on a re-roll.
type KarmaSpent struct {
	Stamp
	Amount int `json:"amount"`
	// For is what it bought: "reroll".
	For string `json:"for"`
	// RollID is the event ID of the roll re-rolled.
	RollID string `json:"roll_id,omitempty"`
	// Which is the set of an attack's dice re-rolled: "hit", "damage" or
	// "dodge" (empty for a roll or a contest).
	Which string `json:"which,omitempty"`
}

// WishGranted gives a character wishes.
type WishGranted struct {
	Stamp
	Amount int    `json:"amount"`
	Reason string `json:"reason,omitempty"`
}

// WishSpent spends a wish; in 2010 a wish may stand in for a karma point.
type WishSpent struct {
	Stamp
	For    string `json:"for"`
	RollID string `json:"roll_id,omitempty"`
	// Which is the set of an attack's dice re-rolled (see KarmaSpent).
	Which string `json:"which,omitempty"`
}

// CurseAdded lays curse levels on a character.
type CurseAdded struct {
	Stamp
	Levels int    `json:"levels"`
	Reason string `json:"reason,omitempty"`
}

// XPAwarded gives a character experience points.
type XPAwarded struct {
	Stamp
	Amount int    `json:"amount"`
	Reason string `json:"reason"`
	// Plotword is set when the award came from acquiring a plotword.
	Plotword string `json:"plotword,omitempty"`
	// Source is "encounter" for a victory's XP, "karma" for karma taken as
	// XP (2010); empty for an award the GM gives.
	Source string `json:"source,omitempty"`
}

// XPSpent spends experience points to raise an attribute or a skill one
// level, with the price the edition's rules gave at that moment.
type XPSpent struct {
	Stamp
	// On is "attribute" or "skill".
	On string `json:"on"`
	// Attribute is "ST", "DX" or "IQ" when On is "attribute".
	Attribute string `json:"attribute,omitempty"`
	// Skill is the catalogue key and SkillName the name shown, when On is
	// "skill".
	Skill     string `json:"skill,omitempty"`
	SkillName string `json:"skill_name,omitempty"`
	From      int    `json:"from"`
	To        int    `json:"to"`
	Price     int    `json:"price"`
	// Formula is the rule that priced it, e.g. "current level + 6 = 12 + 6".
	Formula string `json:"formula"`
	Edition string `json:"edition"`
}

// PlotwordAcquired records that the party acquired a plotword.
type PlotwordAcquired struct {
	Stamp
	Word string `json:"word"`
}

// NoteRecorded is a line of the story the table wants kept: what happened,
// in the GM's words, at its place in game time. It changes no state.
type NoteRecorded struct {
	Stamp
	Text string `json:"text"`
}

// CommandReverted takes commands out of effect (undo). Projections fold as if
// their events were absent; nothing is deleted.
type CommandReverted struct {
	Stamp
	// CommandID is the command the user undid.
	CommandID string `json:"command_id"`
	// Cascade names the later commands reverted with it because they
	// depended on it (undo --cascade).
	Cascade []string `json:"cascade,omitempty"`
	Reason  string   `json:"reason,omitempty"`
}

// Commands returns every command the event reverts: CommandID, then Cascade.
func (c CommandReverted) Commands() []string {
	return append([]string{c.CommandID}, c.Cascade...)
}

// CommandRestored puts reverted commands back in effect (redo).
type CommandRestored struct {
	Stamp
	// CommandIDs are the commands restored.
	CommandIDs []string `json:"command_ids"`
	Reason     string   `json:"reason,omitempty"`
}

// EventType implements Payload.
func (CampaignCreated) EventType() string { return TypeCampaignCreated }

// EventType implements Payload.
func (CharacterCreated) EventType() string { return TypeCharacterCreated }

// EventType implements Payload.
func (RollMade) EventType() string { return TypeRollMade }

// EventType implements Payload.
func (ContestResolved) EventType() string { return TypeContestResolved }

// EventType implements Payload.
func (KarmaGranted) EventType() string { return TypeKarmaGranted }

// EventType implements Payload.
func (KarmaSpent) EventType() string { return TypeKarmaSpent }

// EventType implements Payload.
func (WishGranted) EventType() string { return TypeWishGranted }

// EventType implements Payload.
func (WishSpent) EventType() string { return TypeWishSpent }

// EventType implements Payload.
func (CurseAdded) EventType() string { return TypeCurseAdded }

// EventType implements Payload.
func (XPAwarded) EventType() string { return TypeXPAwarded }

// EventType implements Payload.
func (XPSpent) EventType() string { return TypeXPSpent }

// EventType implements Payload.
func (PlotwordAcquired) EventType() string { return TypePlotwordAcquired }

// EventType implements Payload.
func (NoteRecorded) EventType() string { return TypeNoteRecorded }

// EventType implements Payload.
func (CommandReverted) EventType() string { return TypeCommandReverted }

// EventType implements Payload.
func (CommandRestored) EventType() string { return TypeCommandRestored }

// PayloadVersion implements Payload; CommandReverted is at version 1.
func (CommandReverted) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload; CommandRestored is at version 1.
func (CommandRestored) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload; CampaignCreated is at version 1.
func (CampaignCreated) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload; CharacterCreated is at version 1.
func (CharacterCreated) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload; RollMade is at version 1.
func (RollMade) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload; ContestResolved is at version 1.
func (ContestResolved) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload; KarmaGranted is at version 1.
func (KarmaGranted) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload; KarmaSpent is at version 1.
func (KarmaSpent) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload; WishGranted is at version 1.
func (WishGranted) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload; WishSpent is at version 1.
func (WishSpent) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload; CurseAdded is at version 1.
func (CurseAdded) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload; XPAwarded is at version 1.
func (XPAwarded) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload; XPSpent is at version 1.
func (XPSpent) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload; PlotwordAcquired is at version 1.
func (PlotwordAcquired) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload; NoteRecorded is at version 1.
func (NoteRecorded) PayloadVersion() int { return 1 }

// decoders maps each type name to a constructor of its current payload. It
// is the single registry of known event types.
var decoders = withLifecycle(map[string]func() Payload{
	TypeCampaignCreated:  func() Payload { return &CampaignCreated{} },
	TypeCharacterCreated: func() Payload { return &CharacterCreated{} },
	TypeRollMade:         func() Payload { return &RollMade{} },
	TypeContestResolved:  func() Payload { return &ContestResolved{} },
	TypeKarmaGranted:     func() Payload { return &KarmaGranted{} },
	TypeKarmaSpent:       func() Payload { return &KarmaSpent{} },
	TypeWishGranted:      func() Payload { return &WishGranted{} },
	TypeWishSpent:        func() Payload { return &WishSpent{} },
	TypeCurseAdded:       func() Payload { return &CurseAdded{} },
	TypeXPAwarded:        func() Payload { return &XPAwarded{} },
	TypeXPSpent:          func() Payload { return &XPSpent{} },
	TypePlotwordAcquired: func() Payload { return &PlotwordAcquired{} },
	TypeNoteRecorded:     func() Payload { return &NoteRecorded{} },
	TypeCommandReverted:  func() Payload { return &CommandReverted{} },
	TypeCommandRestored:  func() Payload { return &CommandRestored{} },
})

// withLifecycle adds the game-time, lifecycle and ship types to the
// registry.
func withLifecycle(m map[string]func() Payload) map[string]func() Payload {
	for _, more := range []map[string]func() Payload{lifecycleDecoders(), shipDecoders(), detailedShipDecoders(), dogfightDecoders(), foeDecoders(), rerollDecoders(), turnDecoders(), shareDecoders()} {
		for t, mk := range more {
			m[t] = mk
		}
	}
	return m
}

// KnownType reports whether t is a registered event type name.
func KnownType(t string) bool { _, ok := decoders[t]; return ok }

// Encode marshals a payload into a Pending event for stream, stamped with
// the game time at (nil: no stamp). The caller sets the event ID.
func Encode(id, stream string, p Payload, at *GameTime) (Pending, error) {
	raw, err := json.Marshal(p)
	if err != nil {
		return Pending{}, fmt.Errorf("encode %s: %w", p.EventType(), err)
	}
	if at != nil {
		if raw, err = stamp(raw, *at); err != nil {
			return Pending{}, fmt.Errorf("encode %s: %w", p.EventType(), err)
		}
	}
	return Pending{ID: id, Stream: stream, Type: p.EventType(), PayloadVersion: p.PayloadVersion(), Payload: raw}, nil
}

// Decode unmarshals an event's payload into its current Go type (a pointer,
// such as *XPSpent), upcasting older payload versions.
func Decode(e Event) (Payload, error) {
	d, ok := registry[e.Type]
	if !ok {
		return nil, fmt.Errorf("event %d: unknown type %q", e.Seq, e.Type)
	}
	if e.PayloadVersion > d.version {
		return nil, fmt.Errorf("event %d: %s payload version %d is newer than this program reads (%d); upgrade ltscamp", e.Seq, e.Type, e.PayloadVersion, d.version)
	}
	// Every type is still at version 1, so there is nothing to upcast yet.
	// An upcaster goes here: raw = upcastXPSpentV1(raw) when version 1 < 2.
	if d.fast != nil {
		// The common payloads without reflection; anything the fast
		// decoder does not read as encoding/json would, it leaves to it.
		if p, ok := d.fast(e.Payload); ok {
			return p, nil
		}
	}
	p := d.mk()
	if err := json.Unmarshal(e.Payload, p); err != nil {
		return nil, fmt.Errorf("event %d: decode %s: %w", e.Seq, e.Type, err)
	}
	return p, nil
}

// decoder is how Decode reads one type's payload.
type decoder struct {
	// mk makes an empty payload for encoding/json to fill; fast, when
	// set, reads the common payloads faster (see fastDecoders).
	mk   func() Payload
	fast func(b []byte) (Payload, bool)
	// version is the type's current payload version.
	version int
}

// registry is decoders with each type's fast decoder and version, for
// Decode to find with one lookup.
var registry = func() map[string]decoder {
	m := make(map[string]decoder, len(decoders))
	for t, mk := range decoders {
		m[t] = decoder{mk: mk, fast: fastDecoders[t], version: mk().PayloadVersion()}
	}
	return m
}()

// TypeNames returns every registered event type name, sorted.
func TypeNames() []string {
	names := make([]string, 0, len(decoders))
	for t := range decoders {
		names = append(names, t)
	}
	sort.Strings(names)
	return names
}
