package events

// Event types of dogfights, on the "dogfight" stream.
const (
	TypeDogfightStarted    = "dogfight.started"
	TypeDogfightManeuvered = "dogfight.maneuvered"
	TypeDogfightFired      = "dogfight.fired"
	TypeDogfightExited     = "dogfight.exited"
	TypeDogfightEnded      = "dogfight.ended"
)

// DogfightStream holds the dogfights: who is in them, their positions,
// maneuvers and fire.
const DogfightStream = "dogfight"

// DogfightShip names a craft in a dogfight.
type DogfightShip struct {
	ShipID string `json:"ship_id"`
	Name   string `json:"name"`
}

// DogfightStarted begins a dogfight; craft begin disengaged.
type DogfightStarted struct {
	Stamp
	Number int            `json:"number"`
	Ships  []DogfightShip `json:"ships"`
}

// PairPosition is one craft's position relative to another.
type PairPosition struct {
	ShipID   string `json:"ship_id"`
	OtherID  string `json:"other_id"`
	Position string `json:"position"`
}

// DogfightManeuvered records a maneuver: the pilot contest (absent when
// unopposed), the winner's choice and the positions it left.
type DogfightManeuvered struct {
	Stamp
	Mover       DogfightShip     `json:"mover"`
	Target      DogfightShip     `json:"target"`
	Pilot       string           `json:"pilot"`
	TargetPilot string           `json:"target_pilot,omitempty"`
	Contest     *ContestResolved `json:"contest,omitempty"`
	Unopposed   bool             `json:"unopposed,omitempty"`
	Winner      string           `json:"winner,omitempty"`
	Chosen      string           `json:"chosen,omitempty"`
	// Positions are the pairs the maneuver changed, each craft's position
	// relative to the other (including a target disengaged because its
	// pursuer maneuvered against its own tail).
	Positions   []PairPosition `json:"positions"`
	Explanation string         `json:"explanation"`
	Round       int            `json:"round"`
	Edition     string         `json:"edition"`
	// Rerolls is the maneuver this one replaces (a karma re-roll of one
	// pilot's dice), and RerolledBy that pilot.
	Rerolls    string `json:"rerolls,omitempty"`
	RerolledBy string `json:"rerolled_by,omitempty"`
}

// DogfightFired records a craft firing on a target: the gunner's check and,
// on a hit, the weapon dice; the hit itself is a ship.hit on the target.
type DogfightFired struct {
	Stamp
	Attacker DogfightShip `json:"attacker"`
	Target   DogfightShip `json:"target"`
	Gunner   string       `json:"gunner"`
	// Kind is "pursuit", "run" or "facing".
	Kind string `json:"kind"`
	// PilotContest is the 2010 firing run's pilot check.
	PilotContest *ContestResolved `json:"pilot_contest,omitempty"`
	Check        AttackRoll       `json:"check"`
	Hit          bool             `json:"hit"`
	Damage       *AttackRoll      `json:"damage,omitempty"`
	// Positions are the pairs the fire changed (a firing run leaves both
	// craft disengaged).
	Positions []PairPosition `json:"positions,omitempty"`
	Round     int            `json:"round"`
	Edition   string         `json:"edition"`
	// Rerolls is the shot this one replaces (a karma re-roll of the
	// gunner's check, "hit", or of the weapon dice, "damage"), Rerolled
	// the set re-rolled and RerolledBy the gunner.
	Rerolls    string `json:"rerolls,omitempty"`
	Rerolled   string `json:"rerolled,omitempty"`
	RerolledBy string `json:"rerolled_by,omitempty"`
}

// DogfightExited records a disengaged craft leaving the dogfight for good.
type DogfightExited struct {
	Stamp
	Ship DogfightShip `json:"ship"`
}

// DogfightEnded ends the dogfight.
type DogfightEnded struct {
	Stamp
	Number int `json:"number"`
}

// EventType implements Payload.
func (DogfightStarted) EventType() string { return TypeDogfightStarted }

// EventType implements Payload.
func (DogfightManeuvered) EventType() string { return TypeDogfightManeuvered }

// EventType implements Payload.
func (DogfightFired) EventType() string { return TypeDogfightFired }

// EventType implements Payload.
func (DogfightExited) EventType() string { return TypeDogfightExited }

// EventType implements Payload.
func (DogfightEnded) EventType() string { return TypeDogfightEnded }

// PayloadVersion implements Payload; every dogfight payload is at version 1.
func (DogfightStarted) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (DogfightManeuvered) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (DogfightFired) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (DogfightExited) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (DogfightEnded) PayloadVersion() int { return 1 }

// dogfightDecoders registers the dogfight types with Decode.
func dogfightDecoders() map[string]func() Payload {
	return map[string]func() Payload{
		TypeDogfightStarted:    func() Payload { return &DogfightStarted{} },
		TypeDogfightManeuvered: func() Payload { return &DogfightManeuvered{} },
		TypeDogfightFired:      func() Payload { return &DogfightFired{} },
		TypeDogfightExited:     func() Payload { return &DogfightExited{} },
		TypeDogfightEnded:      func() Payload { return &DogfightEnded{} },
	}
}
