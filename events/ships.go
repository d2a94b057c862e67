package events

// Event types of star craft: a ship is a stream of its own, "ship/<ulid>".
const (
	TypeShipBuilt    = "ship.built"
	TypeShipCrewed   = "ship.crewed"
	TypeShipUncrewed = "ship.uncrewed"
	TypeShipHit      = "ship.hit"
	TypeShipRepaired = "ship.repaired"
)

// ShipStreamPrefix prefixes every ship's stream.
const ShipStreamPrefix = "ship/"

// ShipStream returns the stream name of the ship with the given ULID.
func ShipStream(shipID string) string { return ShipStreamPrefix + shipID }

// ShipBuilt starts a ship's stream: its record, in canonical long form, and
// its build cost by the rules.
type ShipBuilt struct {
	Stamp
	ShipID string `json:"ship_id"`
	Name   string `json:"name"`
	Record string `json:"record"`
	Cost   int    `json:"cost"`
	// CostFormula shows the sum: sections + weapons + shields + maneuver (+ systems).
	CostFormula string `json:"cost_formula"`
	// OwnerID and Owner name the character who owns the craft, if any.
	OwnerID string `json:"owner_id,omitempty"`
	Owner   string `json:"owner,omitempty"`
	Edition string `json:"edition"`
}

// ShipCrewed puts a character aboard, in a section (moving him if he was
// aboard elsewhere in this ship).
type ShipCrewed struct {
	Stamp
	CharacterID string `json:"character_id"`
	Character   string `json:"character"`
	Section     string `json:"section"`
}

// ShipUncrewed takes a character off the ship.
type ShipUncrewed struct {
	Stamp
	CharacterID string `json:"character_id"`
	Character   string `json:"character"`
}

// SectionHit is the damage one section took in a hit.
type SectionHit struct {
	Section   string `json:"section"`
	Points    int    `json:"points"`
	Destroyed bool   `json:"destroyed"`
	// Killed are the IDs of the characters aboard when it was destroyed.
	Killed []string `json:"killed,omitempty"`
}

// ShipHit records a hit: the points rolled, the shields subtracted once, the
// points the attacker chose to inflict, and where they landed.
type ShipHit struct {
	Stamp
	// Faces are the weapon dice when rolled with the hit; empty when the
	// damage was given as a number.
	Faces     []int        `json:"faces,omitempty"`
	Entered   bool         `json:"entered,omitempty"`
	Rolled    int          `json:"rolled"`
	Shields   int          `json:"shields"`
	Inflicted int          `json:"inflicted"`
	Wasted    int          `json:"wasted,omitempty"`
	Sections  []SectionHit `json:"sections"`
	// DIW is true when the hit left the craft dead in the water
	// (Engineering or Operations destroyed).
	DIW    bool   `json:"diw"`
	Source string `json:"source,omitempty"`
	// FireID is the dogfight.fired event whose hit this is.
	FireID string `json:"fire_id,omitempty"`
}

// ShipRepaired removes damage from a section.
type ShipRepaired struct {
	Stamp
	Section string `json:"section"`
	Points  int    `json:"points"`
	Note    string `json:"note,omitempty"`
}

// EventType implements Payload.
func (ShipBuilt) EventType() string { return TypeShipBuilt }

// EventType implements Payload.
func (ShipCrewed) EventType() string { return TypeShipCrewed }

// EventType implements Payload.
func (ShipUncrewed) EventType() string { return TypeShipUncrewed }

// EventType implements Payload.
func (ShipHit) EventType() string { return TypeShipHit }

// EventType implements Payload.
func (ShipRepaired) EventType() string { return TypeShipRepaired }

// PayloadVersion implements Payload; every ship payload is at version 1.
func (ShipBuilt) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (ShipCrewed) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (ShipUncrewed) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (ShipHit) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (ShipRepaired) PayloadVersion() int { return 1 }

// shipDecoders registers the ship types with Decode.
func shipDecoders() map[string]func() Payload {
	return map[string]func() Payload{
		TypeShipBuilt:    func() Payload { return &ShipBuilt{} },
		TypeShipCrewed:   func() Payload { return &ShipCrewed{} },
		TypeShipUncrewed: func() Payload { return &ShipUncrewed{} },
		TypeShipHit:      func() Payload { return &ShipHit{} },
		TypeShipRepaired: func() Payload { return &ShipRepaired{} },
	}
}
