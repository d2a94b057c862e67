package events

// Event types of game time and the character lifecycle. Campaign-stream
// events move the clock; character-stream events change a body.
const (
	TypeAdventureStarted   = "adventure.started"
	TypeAdventureEnded     = "adventure.ended"
	TypeDayAdvanced        = "day.advanced"
	TypeEncounterStarted   = "encounter.started"
	TypeEncounterEnded     = "encounter.ended"
	TypePartySlept         = "party.slept"
	TypeItemEquipped       = "item.equipped"
	TypeItemUnequipped     = "item.unequipped"
	TypeAttackMade         = "attack.made"
	TypeDamageTaken        = "damage.taken"
	TypeDamageHealed       = "damage.healed"
	TypeFatigueRecovered   = "fatigue.recovered"
	TypeCharacterRecovered = "character.recovered"
	TypeRestTaken          = "rest.taken"
	TypeCharacterDied      = "character.died"
	TypeCharacterRevived   = "character.revived"
	TypeCurseLifted        = "curse.lifted"
	TypeKarmaExpired       = "karma.expired"
	TypeSuitFailed         = "suit.failed"
	// TypeSkillBonusSet is a character's standing choice of where his
	// combat skill levels go.
	TypeSkillBonusSet = "character.skill_bonus_set"
)

// SkillBonusSet records a character's standing choice of where the level
// of his combat skill goes on his attacks: "hit" or "damage" ("Each level
// is +1DX to hit OR +1 damage; decide before attacking"). Until he sets
// one it is "hit"; --skill-bonus on one attack overrides it.
type SkillBonusSet struct {
	Stamp
	Bonus string `json:"bonus"`
	// Previous is the choice it replaces ("hit" when none was set).
	Previous string `json:"previous"`
}

// AdventureStarted begins an adventure: day 1 starts with it, and new
// skills may no longer be learned until it ends.
type AdventureStarted struct {
	Stamp
	Number int    `json:"number"`
	Title  string `json:"title"`
}

// AdventureEnded ends the adventure; the party is between adventures again.
type AdventureEnded struct {
	Stamp
	Number int `json:"number"`
}

// DayAdvanced moves the adventure from one game day to a later one.
type DayAdvanced struct {
	Stamp
	From int `json:"from"`
	To   int `json:"to"`
	// Reason is "day next", "day end" or "rest".
	Reason string `json:"reason"`
}

// EncounterStarted opens an encounter (a combat) in the current day.
type EncounterStarted struct {
	Stamp
	Number int    `json:"number"`
	Title  string `json:"title,omitempty"`
}

// EncounterEnded closes the encounter with its outcome.
type EncounterEnded struct {
	Stamp
	Number int `json:"number"`
	// Outcome is "victory", "fled" or "other".
	Outcome string `json:"outcome"`
	// Contributors are the IDs of the characters who contributed to a
	// victory (and earned its XP).
	Contributors []string `json:"contributors,omitempty"`
}

// PartySlept records a full night of sleep.
type PartySlept struct {
	Stamp
}

// ItemEquipped puts a weapon or armour on a character, as the edition's
// table gives it.
type ItemEquipped struct {
	Stamp
	// Slot is "weapon" or "armor".
	Slot        string   `json:"slot"`
	Item        string   `json:"item"`
	Name        string   `json:"name"`
	Damage      string   `json:"damage,omitempty"`
	Heft        int      `json:"heft,omitempty"`
	Flags       []string `json:"flags,omitempty"`
	Protection  int      `json:"protection,omitempty"`
	Restriction int      `json:"restriction,omitempty"`
	NoBullets   bool     `json:"no_bullets,omitempty"`
	SpaceSuit   bool     `json:"space_suit,omitempty"`
	// Over is true for armour put on over the armour he already wears
	// (armour is cumulative); without it an armour item replaces what he
	// wore, as every armour event did before armour was worn in layers.
	Over    bool   `json:"over,omitempty"`
	Edition string `json:"edition"`
}

// ItemUnequipped takes a weapon or armour off: for armour, the item named
// (every item when Item is empty).
type ItemUnequipped struct {
	Stamp
	Slot string `json:"slot"`
	Item string `json:"item"`
}

// AttackRoll is one roll of an attack: the hit check or the damage.
type AttackRoll struct {
	Expr      string     `json:"expr"`
	Faces     []int      `json:"faces"`
	Entered   bool       `json:"entered"`
	Sum       int        `json:"sum"`
	Modifiers []Modifier `json:"modifiers"`
	Total     int        `json:"total"`
	Target    int        `json:"target,omitempty"`
	Outcome   string     `json:"outcome,omitempty"`
}

// AttackMade records an attack on the attacker's stream: the hit roll and,
// on a hit, the damage roll, with every modifier, the armour and the points
// the target took.
type AttackMade struct {
	Stamp
	AttackerID string `json:"attacker_id"`
	Attacker   string `json:"attacker"`
	TargetID   string `json:"target_id,omitempty"`
	Target     string `json:"target"`
	TargetST   int    `json:"target_st,omitempty"`
	Weapon     string `json:"weapon"`
	WeaponName string `json:"weapon_name"`
	// Thrown is true for a throw (a grenade, or a (T) weapon thrown).
	Thrown bool `json:"thrown,omitempty"`
	// Grappling is true for an attack between grapplers.
	Grappling bool `json:"grappling,omitempty"`
	// AutoHit says why the attack hit with no hit roll: "grapple" (the
	// grappler who won the ST check) or "outside" (2020: an attack into a
	// grappling space). Hit then has no faces. Grappling attacks recorded
	// before it made a hit roll and have none.
	AutoHit string `json:"auto_hit,omitempty"`
	// Bonus is where the combat skill's level went: "hit", "damage" or "".
	Bonus string `json:"bonus,omitempty"`
	// BonusFrom says who placed the level: "flag" (--skill-bonus) or
	// "standing" (the attacker's standing choice); empty in attacks
	// recorded before the standing choice, which used a level only with
	// --skill-bonus. BonusNote says why the level is not where the choice
	// put it (no hit roll; Unarmed grappling adds to ST).
	BonusFrom   string     `json:"bonus_from,omitempty"`
	BonusNote   string     `json:"bonus_note,omitempty"`
	Skill       string     `json:"skill,omitempty"`
	SkillLevel  int        `json:"skill_level,omitempty"`
	Curses      int        `json:"curses,omitempty"`
	DX          int        `json:"dx"`
	Restriction int        `json:"restriction,omitempty"`
	Hit         AttackRoll `json:"hit"`
	// Dodge is the target's 3/DX to dodge after a hit, when he tried.
	Dodge        *AttackRoll `json:"dodge,omitempty"`
	Damage       *AttackRoll `json:"damage,omitempty"`
	BeforeArmor  int         `json:"before_armor"`
	Armor        string      `json:"armor,omitempty"`
	ArmorStopped int         `json:"armor_stopped"`
	Taken        int         `json:"taken"`
	Fatigue      bool        `json:"fatigue,omitempty"`
	Explanation  string      `json:"explanation"`
	// SpareDamage are damage dice entered with a hit roll that missed:
	// not used, but kept for a karma re-roll of the hit that lands.
	SpareDamage []int `json:"spare_damage,omitempty"`
	// Rerolls is the attack this one replaces (a karma re-roll), and
	// Rerolled the set of dice rolled again: "hit", "damage" or "dodge".
	Rerolls  string `json:"rerolls,omitempty"`
	Rerolled string `json:"rerolled,omitempty"`
	// HitOnly is true for an attack entered as its hit alone: on a hit
	// its damage waits (DamageToCome) for the target's dodge (`dodge`)
	// or its dice (`damage dice`). "He views the attacker's hit roll,
	// but not damage roll, before deciding to dodge."
	HitOnly bool `json:"hit_only,omitempty"`
	// Completes is the attack whose damage was to come that this one
	// completes, with the same hit dice: with the target's dodge, the
	// damage, or both. It replaces that attack, as a re-roll does.
	Completes string `json:"completes,omitempty"`
	// Counters is the attack on the attacker that this one answers: a
	// counterattack, the defender's reaction ("A defender surviving an
	// attack may immediately counterattack by striking or shooting his
	// attacker"). It is no action of his turn; he loses his next turn.
	// Empty for an ordinary attack (and in logs from before it).
	Counters string `json:"counters,omitempty"`
	Edition  string `json:"edition"`
}

// DamageToCome reports whether the attack hit and its damage waits: it
// was entered as the hit alone, and neither the damage nor a dodge that
// passed has come since.
func (a *AttackMade) DamageToCome() bool {
	return a.HitOnly && a.Hit.Outcome == "hit" && a.Damage == nil && (a.Dodge == nil || a.Dodge.Outcome != "pass")
}

// Reacted reports whether the target reacted to the attack by dodging
// (passed or not): "A defender can react to ONE attacker, but loses his
// next turn." Both `attack --dodge` and `dodge NAME` record it here. An
// attack that re-rolls (Rerolls) or completes (Completes) one that had the
// dodge carries it too: it is the same reaction, not a second one.
func (a *AttackMade) Reacted() bool { return a.Dodge != nil }

// DamageTaken records points dealt to a character: damage, or fatigue
// (part of which becomes damage when he is incapacitated).
type DamageTaken struct {
	Stamp
	// Dealt is the points dealt after armour; Damage and Fatigue are how
	// they landed.
	Dealt        int    `json:"dealt"`
	Damage       int    `json:"damage"`
	Fatigue      int    `json:"fatigue"`
	ArmorStopped int    `json:"armor_stopped,omitempty"`
	Source       string `json:"source,omitempty"`
	// AttackID is the attack.made event that dealt it.
	AttackID string `json:"attack_id,omitempty"`
}

// DamageHealed removes damage points: by a medic, by rest, or by other
// healing the GM logs.
type DamageHealed struct {
	Stamp
	Points int `json:"points"`
	// Reason is "medic", "rest" or "healing".
	Reason  string `json:"reason"`
	MedicID string `json:"medic_id,omitempty"`
	Medic   string `json:"medic,omitempty"`
	// RollID is the medic's 3/IQ roll.made event.
	RollID string `json:"roll_id,omitempty"`
	Source string `json:"source,omitempty"`
}

// FatigueRecovered removes fatigue points.
type FatigueRecovered struct {
	Stamp
	Points int `json:"points"`
	// Reason is "encounter" (one point after each) or "sleep" (all).
	Reason string `json:"reason"`
}

// CharacterRecovered is a full recovery between adventures.
type CharacterRecovered struct {
	Stamp
	Damage  int `json:"damage"`
	Fatigue int `json:"fatigue"`
	// Reason says why: "between adventures", or a week of rest (2010).
	Reason string `json:"reason"`
}

// RestTaken records days of rest and the conditions they were taken in.
type RestTaken struct {
	Stamp
	Days        int  `json:"days"`
	StayedPut   bool `json:"stayed_put"`
	Sheltered   bool `json:"sheltered"`
	Provisioned bool `json:"provisioned"`
	NoStrenuous bool `json:"no_strenuous"`
	// Healed is the damage the rest healed (also a damage.healed event).
	Healed int `json:"healed"`
	// RestedDays counts consecutive days of proper rest after this one
	// (2010: a week heals everything); UntilDay is the day rest reached.
	RestedDays int    `json:"rested_days"`
	UntilDay   int    `json:"until_day"`
	Note       string `json:"note,omitempty"`
	Edition    string `json:"edition"`
}

// CharacterDied records a death: at the end of combat, mortally wounded
// and not healed, or unrecoverable.
type CharacterDied struct {
	Stamp
	Cause  string `json:"cause"`
	Damage int    `json:"damage"`
}

// CharacterRevived records what a wish did: 2020/2021 revive fully; 2010
// negates all damage.
type CharacterRevived struct {
	Stamp
	DamageTo  int    `json:"damage_to"`
	FatigueTo int    `json:"fatigue_to"`
	Revived   bool   `json:"revived"`
	Rule      string `json:"rule"`
	Edition   string `json:"edition"`
}

// CurseLifted lifts one curse level, with what it cost by the edition's
// rules: a wish, the highest attribute lowered by one, three karma or 10 XP.
type CurseLifted struct {
	Stamp
	Method    string `json:"method"`
	Wishes    int    `json:"wishes,omitempty"`
	Karma     int    `json:"karma,omitempty"`
	XP        int    `json:"xp,omitempty"`
	Attribute string `json:"attribute,omitempty"`
	From      int    `json:"from,omitempty"`
	To        int    `json:"to,omitempty"`
	Rule      string `json:"rule"`
	Edition   string `json:"edition"`
}

// KarmaExpired removes karma that had to be used within the game day.
type KarmaExpired struct {
	Stamp
	Amount int    `json:"amount"`
	Reason string `json:"reason"`
}

// SuitFailed records a space suit's power failure on an all-sixes check:
// its restriction becomes 3.
type SuitFailed struct {
	Stamp
	Armor       string `json:"armor"`
	Restriction int    `json:"restriction"`
	RollID      string `json:"roll_id"`
}

// EventType implements Payload.
func (AdventureStarted) EventType() string { return TypeAdventureStarted }

// EventType implements Payload.
func (AdventureEnded) EventType() string { return TypeAdventureEnded }

// EventType implements Payload.
func (DayAdvanced) EventType() string { return TypeDayAdvanced }

// EventType implements Payload.
func (EncounterStarted) EventType() string { return TypeEncounterStarted }

// EventType implements Payload.
func (EncounterEnded) EventType() string { return TypeEncounterEnded }

// EventType implements Payload.
func (PartySlept) EventType() string { return TypePartySlept }

// EventType implements Payload.
func (ItemEquipped) EventType() string { return TypeItemEquipped }

// EventType implements Payload.
func (ItemUnequipped) EventType() string { return TypeItemUnequipped }

// EventType implements Payload.
func (AttackMade) EventType() string { return TypeAttackMade }

// EventType implements Payload.
func (DamageTaken) EventType() string { return TypeDamageTaken }

// EventType implements Payload.
func (DamageHealed) EventType() string { return TypeDamageHealed }

// EventType implements Payload.
func (FatigueRecovered) EventType() string { return TypeFatigueRecovered }

// EventType implements Payload.
func (CharacterRecovered) EventType() string { return TypeCharacterRecovered }

// EventType implements Payload.
func (RestTaken) EventType() string { return TypeRestTaken }

// EventType implements Payload.
func (CharacterDied) EventType() string { return TypeCharacterDied }

// EventType implements Payload.
func (CharacterRevived) EventType() string { return TypeCharacterRevived }

// EventType implements Payload.
func (CurseLifted) EventType() string { return TypeCurseLifted }

// EventType implements Payload.
func (KarmaExpired) EventType() string { return TypeKarmaExpired }

// EventType implements Payload.
func (SuitFailed) EventType() string { return TypeSuitFailed }

// EventType implements Payload.
func (SkillBonusSet) EventType() string { return TypeSkillBonusSet }

// PayloadVersion implements Payload; every lifecycle payload is at version 1.
func (AdventureStarted) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (AdventureEnded) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (DayAdvanced) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (EncounterStarted) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (EncounterEnded) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (PartySlept) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (ItemEquipped) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (ItemUnequipped) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (AttackMade) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (DamageTaken) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (DamageHealed) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (FatigueRecovered) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (CharacterRecovered) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (RestTaken) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (CharacterDied) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (CharacterRevived) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (CurseLifted) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (KarmaExpired) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (SuitFailed) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (SkillBonusSet) PayloadVersion() int { return 1 }

// lifecycleDecoders registers the lifecycle types with Decode.
func lifecycleDecoders() map[string]func() Payload {
	return map[string]func() Payload{
		TypeAdventureStarted:   func() Payload { return &AdventureStarted{} },
		TypeAdventureEnded:     func() Payload { return &AdventureEnded{} },
		TypeDayAdvanced:        func() Payload { return &DayAdvanced{} },
		TypeEncounterStarted:   func() Payload { return &EncounterStarted{} },
		TypeEncounterEnded:     func() Payload { return &EncounterEnded{} },
		TypePartySlept:         func() Payload { return &PartySlept{} },
		TypeItemEquipped:       func() Payload { return &ItemEquipped{} },
		TypeItemUnequipped:     func() Payload { return &ItemUnequipped{} },
		TypeAttackMade:         func() Payload { return &AttackMade{} },
		TypeDamageTaken:        func() Payload { return &DamageTaken{} },
		TypeDamageHealed:       func() Payload { return &DamageHealed{} },
		TypeFatigueRecovered:   func() Payload { return &FatigueRecovered{} },
		TypeCharacterRecovered: func() Payload { return &CharacterRecovered{} },
		TypeRestTaken:          func() Payload { return &RestTaken{} },
		TypeCharacterDied:      func() Payload { return &CharacterDied{} },
		TypeCharacterRevived:   func() Payload { return &CharacterRevived{} },
		TypeCurseLifted:        func() Payload { return &CurseLifted{} },
		TypeKarmaExpired:       func() Payload { return &KarmaExpired{} },
		TypeSuitFailed:         func() Payload { return &SuitFailed{} },
		TypeSkillBonusSet:      func() Payload { return &SkillBonusSet{} },
	}
}
