package events

// A karma re-roll replaces a roll, and whatever followed from the first
// roll is decided again in the re-roll's own command: these events take
// back what the first roll's command did, before the new roll's outcome is
// recorded. Nothing earlier is updated or deleted; undo of the re-roll puts
// the first result back.
const (
	// TypeDamageWithdrawn takes back the points an attack dealt.
	TypeDamageWithdrawn = "damage.withdrawn"
	// TypeHealingWithdrawn takes back a medic's treatment.
	TypeHealingWithdrawn = "healing.withdrawn"
	// TypeShipHitWithdrawn takes back a shot's damage to a craft.
	TypeShipHitWithdrawn = "ship.hit.withdrawn"
)

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

// ShipHitWithdrawn takes back the section damage of a shot whose gunner's
// check or weapon dice a karma re-roll (in the same command) replaced. A
// hit that killed the crew of a section it destroyed is not withdrawn.
type ShipHitWithdrawn struct {
	Stamp
	// FireID is the replaced dogfight.fired event, HitID its ship.hit and
	// RerollID the shot that replaced it.
	FireID   string       `json:"fire_id"`
	HitID    string       `json:"hit_id"`
	RerollID string       `json:"reroll_id"`
	Sections []SectionHit `json:"sections"`
}

// EventType implements Payload.
func (DamageWithdrawn) EventType() string { return TypeDamageWithdrawn }

// EventType implements Payload.
func (HealingWithdrawn) EventType() string { return TypeHealingWithdrawn }

// EventType implements Payload.
func (ShipHitWithdrawn) EventType() string { return TypeShipHitWithdrawn }

// PayloadVersion implements Payload; DamageWithdrawn is at version 1.
func (DamageWithdrawn) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload; HealingWithdrawn is at version 1.
func (HealingWithdrawn) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload; ShipHitWithdrawn is at version 1.
func (ShipHitWithdrawn) PayloadVersion() int { return 1 }

func rerollDecoders() map[string]func() Payload {
	return map[string]func() Payload{
		TypeDamageWithdrawn:  func() Payload { return &DamageWithdrawn{} },
		TypeHealingWithdrawn: func() Payload { return &HealingWithdrawn{} },
		TypeShipHitWithdrawn: func() Payload { return &ShipHitWithdrawn{} },
	}
}
