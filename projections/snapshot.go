package projections

import (
	"encoding/json"
	"fmt"

	"github.com/ltscamp/ltscamp/events"
)

// SnapshotCode versions the folds whose state is snapshotted: the Apply
// methods of Sheet, Rolls, Campaign and Reverts, and the shapes of those
// types. Bump it with any change to one of them, so that no stored
// snapshot folded by the old code is trusted (the campaign layer adds the
// build's revision to it as well).
const SnapshotCode = "6"

// Snapshot kinds: which projection a snapshot holds.
const (
	// SnapCharacter is a character's or a foe's sheet and rolls.
	SnapCharacter = "character"
	// SnapCampaign is the campaign stream's state.
	SnapCampaign = "campaign"
	// SnapReverts is the commands stream's state: which commands are undone.
	SnapReverts = "reverts"
	// SnapRoster is the party roster and the foes.
	SnapRoster = "roster"
	// SnapAudit is a character's XP audit, folded so far.
	SnapAudit = "audit"
)

// characterState is what a character snapshot holds.
type characterState struct {
	Sheet Sheet `json:"sheet"`
	Rolls Rolls `json:"rolls"`
}

// EncodeCharacter encodes a character's folded sheet and rolls.
func EncodeCharacter(sh Sheet, r Rolls) ([]byte, error) {
	return json.Marshal(characterState{Sheet: sh, Rolls: r})
}

// DecodeCharacter decodes what EncodeCharacter encoded.
func DecodeCharacter(state []byte) (Sheet, Rolls, error) {
	var st characterState
	if err := json.Unmarshal(state, &st); err != nil {
		return Sheet{}, Rolls{}, fmt.Errorf("character snapshot: %w", err)
	}
	return st.Sheet, st.Rolls, nil
}

// EncodeCampaign encodes the campaign stream's state.
func EncodeCampaign(c Campaign) ([]byte, error) { return json.Marshal(c) }

// DecodeCampaign decodes what EncodeCampaign encoded.
func DecodeCampaign(state []byte) (Campaign, error) {
	var c Campaign
	if err := json.Unmarshal(state, &c); err != nil {
		return Campaign{}, fmt.Errorf("campaign snapshot: %w", err)
	}
	if c.Plotwords == nil && c.Name != "" {
		c.Plotwords = map[string]int64{}
	}
	c.CreatedAt = c.CreatedAt.UTC()
	return c, nil
}

// EncodeRoster encodes the roster.
func EncodeRoster(r Roster) ([]byte, error) { return json.Marshal(r) }

// DecodeRoster decodes what EncodeRoster encoded.
func DecodeRoster(state []byte) (Roster, error) {
	var r Roster
	if err := json.Unmarshal(state, &r); err != nil {
		return Roster{}, fmt.Errorf("roster snapshot: %w", err)
	}
	return r, nil
}

// Encode encodes the reverts' state for a snapshot (see revertBase).
func (r *Reverts) Encode() ([]byte, error) { return encodeBase(r.all(), r.Version), nil }

// DecodeReverts decodes what Reverts.Encode encoded, in place (state must
// not change afterwards); lookup reads an event of the commands stream by
// seq, for the undos' details.
func DecodeReverts(state []byte, lookup func(seq int64) (events.Event, error)) (Reverts, error) {
	base, version, err := decodeBase(state)
	if err != nil {
		return Reverts{}, err
	}
	return Reverts{out: map[string]revertRef{}, base: base, Lookup: lookup, Version: version}, nil
}
