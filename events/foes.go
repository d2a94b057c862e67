package events

// Foes are the non-player combatants the GM runs: pirates, drones, an
// enemy craft's pilot and gunner. Each has its own stream, foe/<id>, which
// holds the same rolls, attacks, damage and deaths as a character's, but no
// XP, karma, wishes or curses: foes have no ledger.
const (
	TypeFoeAdded   = "foe.added"
	TypeFoeRemoved = "foe.removed"

	// FoeStreamPrefix prefixes every foe's stream.
	FoeStreamPrefix = "foe/"
)

// FoeStream returns the stream name of the foe with the given ULID.
func FoeStream(foeID string) string { return FoeStreamPrefix + foeID }

// FoeAdded puts a foe on the campaign's roster of non-player combatants.
// Foes are not held to the character-creation rules: any attributes of 1
// or more, any skills of the edition's list.
type FoeAdded struct {
	Stamp
	FoeID      string       `json:"foe_id"`
	Name       string       `json:"name"`
	Edition    string       `json:"edition"`
	Attributes Attributes   `json:"attributes"`
	Skills     []SkillLevel `json:"skills"`
	// Encounter is the number of the encounter the foe belongs to: he
	// leaves the roster (foe.removed) when it ends. 0 (absent in logs
	// written before it) is a standing foe, who stays until removed.
	Encounter int `json:"encounter,omitempty"`
}

// FoeRemoved takes a foe off the roster: he can no longer be named, and his
// name is free again. His stream stays in the log. `foe remove` records
// it, and so does the end of the encounter a foe belongs to (Reason
// "encounter N ended").
type FoeRemoved struct {
	Stamp
	Reason string `json:"reason,omitempty"`
}

// EventType implements Payload.
func (FoeAdded) EventType() string { return TypeFoeAdded }

// EventType implements Payload.
func (FoeRemoved) EventType() string { return TypeFoeRemoved }

// PayloadVersion implements Payload; FoeAdded is at version 1.
func (FoeAdded) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload; FoeRemoved is at version 1.
func (FoeRemoved) PayloadVersion() int { return 1 }

func foeDecoders() map[string]func() Payload {
	return map[string]func() Payload{
		TypeFoeAdded:   func() Payload { return &FoeAdded{} },
		TypeFoeRemoved: func() Payload { return &FoeRemoved{} },
	}
}
