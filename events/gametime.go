package events

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// GameTime is where an event happened in the game's own time: the
// adventure (numbered from 1; 0 between adventures), the day of that
// adventure (from 1; 0 between adventures) and the encounter under way
// (numbered from 1 within the adventure; 0 when none is).
type GameTime struct {
	Adventure int `json:"adventure"`
	Day       int `json:"day"`
	Encounter int `json:"encounter,omitempty"`
}

// String writes the game time for people: "adventure 1, day 3, encounter 2"
// or "between adventures".
func (g GameTime) String() string {
	if g.Adventure == 0 {
		return "between adventures"
	}
	s := fmt.Sprintf("adventure %d, day %d", g.Adventure, g.Day)
	if g.Encounter > 0 {
		s += fmt.Sprintf(", encounter %d", g.Encounter)
	}
	return s
}

// Stamp carries an event's game time. Every payload embeds it, so the time
// is inside the hashed payload; Encode writes it.
type Stamp struct {
	// At is where in game time the event happened (absent on events
	// recorded before game time was tracked).
	At *GameTime `json:"at,omitempty"`
}

// GameTimeOf returns the game time the decoded payload p was stamped
// with: false when it has none, or is of a type that embeds no Stamp.
func GameTimeOf(p Payload) (GameTime, bool) {
	if st, ok := p.(interface{ GameTimeOf() (GameTime, bool) }); ok {
		return st.GameTimeOf()
	}
	return GameTime{}, false
}

// GameTimeOf returns the game time a decoded payload was stamped with.
func (s Stamp) GameTimeOf() (GameTime, bool) {
	if s.At == nil {
		return GameTime{}, false
	}
	return *s.At, true
}

// stamp writes "at" as the first key of a payload's JSON object.
func stamp(raw []byte, at GameTime) ([]byte, error) {
	if len(raw) < 2 || raw[0] != '{' {
		return nil, fmt.Errorf("payload is not a JSON object")
	}
	g, err := json.Marshal(at)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(`{"at":`)
	b.Write(g)
	if rest := bytes.TrimSpace(raw[1:]); !bytes.Equal(rest, []byte("}")) {
		b.WriteByte(',')
		b.Write(rest)
	} else {
		b.WriteByte('}')
	}
	return b.Bytes(), nil
}
