package events

// Foes are the non-player combatants the GM runs: pirates, drones, an
// enemy craft's pilot and gunner. Each has its own stream, foe/<id>, which
// holds the same rolls, attacks, damage and deaths as a character's, but no
// XP, karma, wishes or curses: foes have no ledger.
const (
	TypeFoeAdded   = "foe.added"
	TypeFoeRemoved = "foe.removed"
	// TypeDamageWithdrawn takes back the points an attack dealt when a
	// karma re-roll replaced one of its rolls; the re-rolled attack's
	// points follow in the same command.
	TypeDamageWithdrawn = "damage.withdrawn"
	// TypeHealingWithdrawn takes back a medic's healing when a karma
	// re-roll replaced his check; the new check's healing follows.
	TypeHealingWithdrawn = "healing.withdrawn"

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
}

// FoeRemoved takes a foe off the roster: he can no longer be named, and his
// name is free again. His stream stays in the log.
type FoeRemoved struct {
	Stamp
	Reason string `json:"reason,omitempty"`
}

// DamageWithdrawn takes back what an attack dealt to its target, because a
// karma re-roll (in the same command) replaced one of the attack's rolls.
type DamageWithdrawn struct {
	Stamp
	// AttackID is the replaced attack.made event; RerollID the attack that
	// replaced it.
	AttackID string `json:"attack_id"`
	RerollID string `json:"reroll_id"`
	Damage   int    `json:"damage"`
	Fatigue  int    `json:"fatigue"`
}

// HealingWithdrawn takes back a medic's treatment (the points it healed,
// and the treatment itself, so he may treat the patient again) because a
// karma re-roll (in the same command) replaced the medic's check.
type HealingWithdrawn struct {
	Stamp
	// RollID is the replaced medic's check; RerollID the check that
	// replaced it.
	RollID   string `json:"roll_id"`
	RerollID string `json:"reroll_id"`
	MedicID  string `json:"medic_id"`
	Points   int    `json:"points"`
}

// EventType implements Payload.
func (HealingWithdrawn) EventType() string { return TypeHealingWithdrawn }

// PayloadVersion implements Payload; HealingWithdrawn is at version 1.
func (HealingWithdrawn) PayloadVersion() int { return 1 }

// EventType implements Payload.
func (FoeAdded) EventType() string { return TypeFoeAdded }

// EventType implements Payload.
func (FoeRemoved) EventType() string { return TypeFoeRemoved }

// EventType implements Payload.
func (DamageWithdrawn) EventType() string { return TypeDamageWithdrawn }

// PayloadVersion implements Payload; FoeAdded is at version 1.
func (FoeAdded) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload; FoeRemoved is at version 1.
func (FoeRemoved) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload; DamageWithdrawn is at version 1.
func (DamageWithdrawn) PayloadVersion() int { return 1 }

func foeDecoders() map[string]func() Payload {
	return map[string]func() Payload{
		TypeFoeAdded:         func() Payload { return &FoeAdded{} },
		TypeFoeRemoved:       func() Payload { return &FoeRemoved{} },
		TypeDamageWithdrawn:  func() Payload { return &DamageWithdrawn{} },
		TypeHealingWithdrawn: func() Payload { return &HealingWithdrawn{} },
	}
}
