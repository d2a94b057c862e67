package events

// Event types of detailed ship records (INTERCEPTOR, issue 14). A detailed
// ship is a stream of its own, "ship/<ulid>", as a section ship is; its
// events have types of their own, so that the folds of section ships never
// meet them. Damage templates a campaign adds live on ShipTemplatesStream.
const (
	TypeDetailedShipBuilt    = "ship.detailed.built"
	TypeDetailedShipHit      = "ship.detailed.hit"
	TypeShipTemplatesAdded   = "ship.templates.added"
	TypeDetailedShipRepaired = "ship.detailed.repaired"
	TypeDetailedTurnEnded    = "ship.detailed.turn_ended"
)

// ShipTemplatesStream holds the damage templates a campaign added.
const ShipTemplatesStream = "ship-templates"

// DetailedArmour gives the armour boxes of each facing.
type DetailedArmour struct {
	Forward int `json:"forward"`
	Aft     int `json:"aft"`
	Left    int `json:"left"`
	Right   int `json:"right"`
}

// DetailedExternal is an externally mounted system on a facing's column.
type DetailedExternal struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Facing string `json:"facing"`
	Column int    `json:"column"`
}

// DetailedTurret is a turret's armour and Internal Component Block.
type DetailedTurret struct {
	Name       string            `json:"name"`
	Armour     int               `json:"armour"`
	Internal   [][]string        `json:"internal"`
	Components map[string]string `json:"components"`
	Cargo      map[string]string `json:"cargo,omitempty"`
}

// DetailedCrew is a named crewman at a station.
type DetailedCrew struct {
	Name    string `json:"name"`
	Race    string `json:"race"`
	Station string `json:"station"`
}

// DetailedRecord is a detailed ship record as it was read, field for field,
// with stable JSON names: a fold builds the ship from it with the rules, so
// a replay gives the same ship whatever importer read the file.
type DetailedRecord struct {
	Name            string             `json:"name"`
	Armour          DetailedArmour     `json:"armour"`
	Internal        [][]string         `json:"internal"`
	Components      map[string]string  `json:"components"`
	Cargo           map[string]string  `json:"cargo,omitempty"`
	OccupiedHangars []string           `json:"occupied_hangars,omitempty"`
	Externals       []DetailedExternal `json:"externals,omitempty"`
	Turrets         []DetailedTurret   `json:"turrets,omitempty"`
	Crew            []DetailedCrew     `json:"crew,omitempty"`
}

// DetailedShipBuilt starts a detailed ship's stream with its record.
type DetailedShipBuilt struct {
	Stamp
	ShipID string         `json:"ship_id"`
	Name   string         `json:"name"`
	Record DetailedRecord `json:"record"`
	// File names the file the record was read from, for the log.
	File string `json:"file,omitempty"`
}

// ShipTemplate is a damage template: rows of X (destroyed) and . cells.
type ShipTemplate struct {
	Name string   `json:"name"`
	Rows []string `json:"rows"`
}

// ShipTemplatesAdded adds damage templates to the campaign.
type ShipTemplatesAdded struct {
	Stamp
	Templates []ShipTemplate `json:"templates"`
	File      string         `json:"file,omitempty"`
}

// ShipPlace names one box of a detailed ship: the turret (0 for the hull),
// the block ("forward", "aft", "left", "right", "armour" of a turret,
// "internal", "external") and its 1-based row and column.
type ShipPlace struct {
	Turret int    `json:"turret,omitempty"`
	Block  string `json:"block"`
	Row    int    `json:"row"`
	Column int    `json:"column"`
}

// ShipComponentRef names a component of the hull (turret 0) or a turret.
type ShipComponentRef struct {
	Turret int    `json:"turret,omitempty"`
	Code   string `json:"code"`
	Type   string `json:"type"`
}

// DetailedShot is one weapon's damage that struck a detailed ship, and
// what it did on its own: the weapon, the facing, the column die and the
// turret dice, then every box it destroyed.
type DetailedShot struct {
	Facing string `json:"facing"`
	// Points is a laser's strength; 0 when Template is set.
	Points   int           `json:"points,omitempty"`
	Template *ShipTemplate `json:"template,omitempty"`
	// Sample is set when Template is one of the program's sample
	// templates rather than one the campaign added.
	Sample bool `json:"sample,omitempty"`
	// Column is the d10 face for the hit's centre column; Entered is
	// true when it was given, false when the program rolled it.
	Column  int  `json:"column"`
	Entered bool `json:"entered"`
	// TurretChance is the highest d10 face that hits a turret (TURRETS,
	// book l.341: turrets / 2, rounding up, at least 1 while one stands),
	// and TurretRoll the d10 rolled against it: every hit on a ship with
	// a standing turret makes the roll (both are 0 when no turret
	// stood). TurretPicks are the rolls of which
	// turret is hit, 1 to the number of turrets, in order until one names
	// a standing turret; made only when the roll hit a turret and there
	// is more than one. TurretEntered is true when the roll and picks
	// were given, false when the program rolled them.
	TurretChance  int   `json:"turret_chance,omitempty"`
	TurretRoll    int   `json:"turret_roll,omitempty"`
	TurretPicks   []int `json:"turret_picks,omitempty"`
	TurretEntered bool  `json:"turret_entered,omitempty"`
	// Turret is the turret struck (1-based), 0 for the hull.
	Turret int `json:"turret,omitempty"`

	Destroyed []ShipPlace `json:"destroyed"`
	Exploded  []ShipPlace `json:"exploded,omitempty"`
	Wasted    int         `json:"wasted"`
	Residual  int         `json:"residual,omitempty"`
	// TurretDestroyed is the turret the shot destroyed, or 0.
	TurretDestroyed int `json:"turret_destroyed,omitempty"`
}

// DetailedShipHit records the hits on a detailed ship at one point of its
// movement and what they did: each shot's weapon, facing and dice and the
// boxes it destroyed, in order, then the widowed armour removed once after
// them all ("When all damage against a ship at a given point in its
// movement has been resolved", book l.330), the components disabled and
// the rolls they called for. A fold re-applies the shots with the rules;
// verify holds the result against what was recorded.
//
// The first shot is embedded, so its fields sit at the top of the payload
// as they did in payload version 1, when a hit was one shot; MoreShots
// (version 2) holds the shots after it. A version 1 hit is a version 2 hit
// of one shot, read as it is.
type DetailedShipHit struct {
	Stamp
	DetailedReroll
	DetailedShot
	MoreShots []DetailedShot `json:"more_shots,omitempty"`
	Source    string         `json:"source,omitempty"`

	Widowed       []ShipPlace        `json:"widowed,omitempty"`
	ExternalsLost []string           `json:"externals_lost,omitempty"`
	Disabled      []ShipComponentRef `json:"disabled,omitempty"`
	ShipExploded  bool               `json:"ship_exploded,omitempty"`
	Killed        []string           `json:"killed,omitempty"`
	// Rolls describe the rolls the hit calls for (consciousness, turret
	// jam). They are made in the hit's command: the consciousness rolls
	// of cockpit hits are recorded in CrewRolls, the turret jam roll of a
	// Turret Structure the hit disabled (book l.409) in JamRolls.
	Rolls     []string           `json:"rolls,omitempty"`
	CrewRolls []DetailedShipRoll `json:"crew_rolls,omitempty"`
	JamRolls  []DetailedShipRoll `json:"jam_rolls,omitempty"`
}

// Shots returns the hit's shots in order: the first, then MoreShots.
func (h *DetailedShipHit) Shots() []DetailedShot {
	return append([]DetailedShot{h.DetailedShot}, h.MoreShots...)
}

// DetailedReroll marks a hit or a turn end that replaces the ship's
// latest one (Rerolls, its event ID) for a karma re-roll of one of its
// rolls: the roll numbered RerolledRoll (1-based, counting a hit's crew
// rolls then its jam rolls, a turn end's rolls then its wake rolls),
// made by the character RerolledBy, who paid for it in the same command.
// RerolledDie is 2 when only the roll's second die (the consciousness die
// of a wound, the chart die of a collapse roll) was rolled again, 0 when
// the roll was made again from its first die. Everything else is made as
// before: the terms of the hit, the rolls before it, and the dice of the
// rolls after it as far as they are still called for.
type DetailedReroll struct {
	Rerolls      string `json:"rerolls,omitempty"`
	RerolledBy   string `json:"rerolled_by,omitempty"`
	RerolledRoll int    `json:"rerolled_roll,omitempty"`
	RerolledDie  int    `json:"rerolled_die,omitempty"`
}

// DetailedShipRoll is a roll the INTERCEPTOR rules call for, made: its
// terms (as rules/interceptor's Roll gives them), the d10 faces and what
// they did. A moot roll (the crewman is dead, or already out for a
// consciousness roll) takes no faces.
type DetailedShipRoll struct {
	// Kind is consciousness, wound, wake, structural_collapse or
	// turret_jam.
	Kind    string `json:"kind"`
	Crew    string `json:"crew,omitempty"`
	Station string `json:"station,omitempty"`
	// Turret is a turret jam roll's turret (1-based).
	Turret int `json:"turret,omitempty"`
	// Column is the Consciousness Table column, Number the number rolled
	// against, Percent a wound roll's chance.
	Column  int   `json:"column,omitempty"`
	Number  int   `json:"number,omitempty"`
	Percent int   `json:"percent,omitempty"`
	Faces   []int `json:"faces,omitempty"`
	// Entered is true when the faces were given, false when the program
	// rolled them.
	Entered bool `json:"entered,omitempty"`
	Moot    bool `json:"moot,omitempty"`
	Wounded bool `json:"wounded,omitempty"`
	// Status is the crewman's status after the roll; Breakup a structural
	// collapse roll's result.
	Status  string `json:"status,omitempty"`
	Breakup string `json:"breakup,omitempty"`
	// JamFacing is a turret jam roll's result: the turret is jammed
	// facing 1 (the ship's front) to 6, clockwise; Abandoned is set
	// instead when its weapons cannot fire at all (7-10).
	JamFacing int  `json:"jam_facing,omitempty"`
	Abandoned bool `json:"abandoned,omitempty"`
}

// DetailedTurnEnded records the end of a turn for a detailed ship and the
// start of the next one's Decision Phase: the wound rolls of the crew of
// a Bridge or Quarters hit this turn and a structural collapse roll if
// the Ship Destroyed row was hit (Rolls, book l.353, l.433, l.466), then
// the wake rolls of the crewmen unconscious after them (Wake, l.367).
//
// Payload version 2 (issue 21) adds what a structural collapse and the
// time to abandon ship did, and makes the wake rolls on the column of each
// crewman's total hits; version 1 turn ends made them on the column of his
// last roll, and a fold replays them so (see projections' ApplyTurnEnd).
// In order: Abandoned left the ship first; on a ship broken up before
// this turn its crew's time to abandon ship ran one turn shorter; then the
// rolls; then, after a collapse roll that broke the ship up or blew it up
// after a delay, Ejected abandoned ship; then the wake rolls. Killed are
// the crewmen who died at this turn's end, of any of them (a wound on the
// 4 Hits column, an explosion, the time to abandon ship run out), and
// AbandonTurns the turns left to abandon a broken-up ship after it.
type DetailedTurnEnded struct {
	Stamp
	DetailedReroll
	Abandoned    []string           `json:"abandoned,omitempty"`
	Rolls        []DetailedShipRoll `json:"rolls,omitempty"`
	Ejected      []string           `json:"ejected,omitempty"`
	Wake         []DetailedShipRoll `json:"wake,omitempty"`
	Killed       []string           `json:"killed,omitempty"`
	AbandonTurns *int               `json:"abandon_turns,omitempty"`
}

// EventType implements Payload.
func (DetailedTurnEnded) EventType() string { return TypeDetailedTurnEnded }

// PayloadVersion implements Payload: 2 since issue 21 (see
// DetailedTurnEnded).
func (DetailedTurnEnded) PayloadVersion() int { return 2 }

// ShipClock is a time of day on the campaign's game clock: the adventure,
// the day and the minutes since the day began (0-1439). The campaign's
// clock counts days (GameTime); the hours that timed work such as a repair
// takes are carried from one repair to the next on the repairs themselves.
type ShipClock struct {
	Adventure int `json:"adventure"`
	Day       int `json:"day"`
	Minute    int `json:"minute"`
}

// DetailedShipRepaired records a repair of boxes of one component of a
// detailed ship (DAMAGE CONTROL AND REPAIR, book l.479-481): which boxes
// came back, the book's time per box and the whole time taken. During an
// adventure the time passes on the game clock: From is the time of day the
// work began (where the last repair of the day left it, or the day's
// start), Until when it ended; a repair that runs past midnight is
// followed, in the same command, by day.advanced. Between adventures the
// clock does not run and From and Until are absent.
type DetailedShipRepaired struct {
	Stamp
	Turret int    `json:"turret,omitempty"`
	Code   string `json:"code"`
	// External is set for the repair of an external system (External
	// Hardpoint, External Heavy Hardpoint, External Rescue Compartment;
	// book l.343-345): Code is then the external system's name, Turret is
	// 0, and its one box comes back (Boxes 1, Restored its place, block
	// "external").
	External bool `json:"external,omitempty"`
	// Type is the component type's stable key (engine).
	Type     string      `json:"type"`
	Boxes    int         `json:"boxes"`
	Restored []ShipPlace `json:"restored"`
	// LostBefore and LostAfter are the component's lost boxes.
	LostBefore    int `json:"lost_before"`
	LostAfter     int `json:"lost_after"`
	MinutesPerBox int `json:"minutes_per_box"`
	Minutes       int `json:"minutes"`
	// Source cites the book's REPAIR TIME entry.
	Source string     `json:"source,omitempty"`
	From   *ShipClock `json:"from,omitempty"`
	Until  *ShipClock `json:"until,omitempty"`
}

// EventType implements Payload.
func (DetailedShipRepaired) EventType() string { return TypeDetailedShipRepaired }

// PayloadVersion implements Payload.
func (DetailedShipRepaired) PayloadVersion() int { return 1 }

// EventType implements Payload.
func (DetailedShipBuilt) EventType() string { return TypeDetailedShipBuilt }

// EventType implements Payload.
func (DetailedShipHit) EventType() string { return TypeDetailedShipHit }

// EventType implements Payload.
func (ShipTemplatesAdded) EventType() string { return TypeShipTemplatesAdded }

// PayloadVersion implements Payload.
func (DetailedShipBuilt) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload: 2 since a hit may carry several
// shots (MoreShots) and its crew deaths reach their sheets; a version 1
// hit is one shot.
func (DetailedShipHit) PayloadVersion() int { return 2 }

// PayloadVersion implements Payload.
func (ShipTemplatesAdded) PayloadVersion() int { return 1 }

// detailedShipDecoders registers the detailed ship types with Decode.
func detailedShipDecoders() map[string]func() Payload {
	return map[string]func() Payload{
		TypeDetailedShipBuilt:    func() Payload { return &DetailedShipBuilt{} },
		TypeDetailedShipHit:      func() Payload { return &DetailedShipHit{} },
		TypeShipTemplatesAdded:   func() Payload { return &ShipTemplatesAdded{} },
		TypeDetailedShipRepaired: func() Payload { return &DetailedShipRepaired{} },
		TypeDetailedTurnEnded:    func() Payload { return &DetailedTurnEnded{} },
	}
}
