package events

// The turns of an encounter (RULES "Battle: initiative, turns, reactions"):
// who moves first, the turns passed, and the lost turns the GM overruled.
// They live on their own stream, like the dogfights: the campaign's clock
// does not change with them.
const (
	// TurnsStream holds the initiative, surprise and turn events.
	TurnsStream = "turns"

	TypeInitiativeRolled   = "initiative.rolled"
	TypeInitiativeSurprise = "initiative.surprise"
	TypeTurnEnded          = "turn.ended"
	TypeTurnOverruled      = "turn.overruled"
	TypeInitiativeStalker  = "initiative.stalker"
)

// Sides of an encounter: the party members, and the foes.
const (
	SideParty = "party"
	SideFoes  = "foes"
)

// InitiativeRolled records the initiative of an encounter: one die per
// side ("each side rolls one die. The side rolling the higher die moves
// first"), rolled again on a tie. Party and Foes hold every die of each
// side in order, the ties first; First is the side that moves first.
type InitiativeRolled struct {
	Stamp
	Encounter int    `json:"encounter"`
	Party     []int  `json:"party"`
	Foes      []int  `json:"foes"`
	Entered   bool   `json:"entered"`
	First     string `json:"first"`
	// Tactician is the character who tried to steal the initiative
	// ("steals initiative by winning IQ"), when one did: his side lost
	// the die. First is his side when he won.
	Tactician *InitiativeSteal `json:"tactician,omitempty"`
	Edition   string           `json:"edition"`
	// Rerolls is the initiative this one replaces, when Karma re-rolled
	// one side's die: Party and Foes then start with the new die against
	// the other side's last die, kept, and go on with any ties.
	Rerolls string           `json:"rerolls,omitempty"`
	Karma   *InitiativeKarma `json:"karma,omitempty"`
}

// InitiativeKarma is who spent karma (or, in 2010, a wish) on re-rolling
// his side's initiative die.
type InitiativeKarma struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Side string `json:"side"`
}

// InitiativeSteal is a Tactician's IQ contest for the initiative.
type InitiativeSteal struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Side    string `json:"side"`
	Against string `json:"against"`
	// ContestIDs are the contest.resolved events of the IQ contest (one
	// on each combatant's stream), the Tactician's side first; a karma
	// re-roll of the contest decides the initiative again.
	ContestIDs []string `json:"contest_ids"`
	Stolen     bool     `json:"stolen"`
}

// InitiativeSurprise records that one side has surprise: "one free
// unopposed turn, and then takes the first turn".
type InitiativeSurprise struct {
	Stamp
	Encounter int    `json:"encounter"`
	Side      string `json:"side"`
	// Alertness is the check of a character of the other side with the
	// Alertness skill ("Negates surprise on 3/IQ"), when one rolled.
	Alertness *SurpriseCheck `json:"alertness,omitempty"`
	Edition   string         `json:"edition"`
}

// SurpriseCheck is an Alertness check against surprise: RollID is its
// roll.made event (a karma re-roll of it decides again), Negated whether
// it passed.
type SurpriseCheck struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	RollID  string `json:"roll_id"`
	Negated bool   `json:"negated"`
}

// InitiativeStalker records a Stalker's try for surprise at the start of
// the encounter: in 2020/2021 the character "gets surprise on 3/DX" (a
// roll.made, RollID); in 2010 he "gets a free turn by winning a DX check
// against the opponent's IQ" (a contest.resolved on each combatant's
// stream, ContestIDs, the Stalker's first, against Against). Free is
// whether he won it: one free action of his own, before the first turn.
// A karma re-roll of the roll or contest decides again.
type InitiativeStalker struct {
	Stamp
	Encounter  int      `json:"encounter"`
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	Side       string   `json:"side"`
	RollID     string   `json:"roll_id,omitempty"`
	Against    string   `json:"against,omitempty"`
	ContestIDs []string `json:"contest_ids,omitempty"`
	Free       bool     `json:"free"`
	Edition    string   `json:"edition"`
}

// TurnEnded passes the turn to the other side (`turn end`). The other
// side's first action passes it too, with no event of its own.
type TurnEnded struct {
	Stamp
	Encounter int `json:"encounter"`
	// Turn is the turn that ended (0: the surprise turn), Round its
	// round, Side the side whose turn it was.
	Turn  int    `json:"turn"`
	Round int    `json:"round"`
	Side  string `json:"side"`
}

// TurnOverruled records the GM letting a character act in a turn he had
// lost by reacting ("loses his next turn"), with the GM's reason. The
// action follows in the same command.
type TurnOverruled struct {
	Stamp
	Encounter int    `json:"encounter"`
	ID        string `json:"id"`
	Name      string `json:"name"`
	Side      string `json:"side"`
	Turn      int    `json:"turn"`
	Round     int    `json:"round"`
	Reason    string `json:"reason"`
}

// EventType implements Payload.
func (InitiativeRolled) EventType() string { return TypeInitiativeRolled }

// EventType implements Payload.
func (InitiativeSurprise) EventType() string { return TypeInitiativeSurprise }

// EventType implements Payload.
func (InitiativeStalker) EventType() string { return TypeInitiativeStalker }

// EventType implements Payload.
func (TurnEnded) EventType() string { return TypeTurnEnded }

// EventType implements Payload.
func (TurnOverruled) EventType() string { return TypeTurnOverruled }

// PayloadVersion implements Payload; every turn payload is at version 1.
func (InitiativeRolled) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (InitiativeSurprise) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (InitiativeStalker) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (TurnEnded) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload.
func (TurnOverruled) PayloadVersion() int { return 1 }

func turnDecoders() map[string]func() Payload {
	return map[string]func() Payload{
		TypeInitiativeRolled:   func() Payload { return &InitiativeRolled{} },
		TypeInitiativeSurprise: func() Payload { return &InitiativeSurprise{} },
		TypeTurnEnded:          func() Payload { return &TurnEnded{} },
		TypeTurnOverruled:      func() Payload { return &TurnOverruled{} },
		TypeInitiativeStalker:  func() Payload { return &InitiativeStalker{} },
	}
}
