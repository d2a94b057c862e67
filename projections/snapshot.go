package projections

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/ltscamp/ltscamp/events"
)

// SnapshotCode versions the folds whose state is snapshotted: the Apply
// methods of Sheet, Rolls, Campaign and Reverts, and the shapes of those
// types. Bump it with any change to one of them, so that no stored
// snapshot folded by the old code is trusted (the campaign layer adds the
// build's revision to it as well).
const SnapshotCode = "1"

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

// revertsState is what a reverts snapshot holds: the commands out of
// effect, each with its undo's seq and its place in the undo's list, in
// gob (a long campaign has thousands of undone commands). The undos'
// details are not kept: Reverts reads them from the log when asked.
type revertsState struct {
	IDs     []string
	Seqs    []int64
	Pos     []int
	Version int64
}

// Encode encodes the reverts' state for a snapshot.
func (r *Reverts) Encode() ([]byte, error) {
	st := revertsState{Version: r.Version}
	for _, id := range slices.Sorted(maps.Keys(r.out)) {
		ref := r.out[id]
		st.IDs, st.Seqs, st.Pos = append(st.IDs, id), append(st.Seqs, ref.seq), append(st.Pos, ref.pos)
	}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(st); err != nil {
		return nil, fmt.Errorf("reverts snapshot: %w", err)
	}
	return b.Bytes(), nil
}

// DecodeReverts decodes what Reverts.Encode encoded; lookup reads an
// event of the commands stream by seq, for the undos' details.
func DecodeReverts(state []byte, lookup func(seq int64) (events.Event, error)) (Reverts, error) {
	var st revertsState
	if err := gob.NewDecoder(bytes.NewReader(state)).Decode(&st); err != nil {
		return Reverts{}, fmt.Errorf("reverts snapshot: %w", err)
	}
	if len(st.Seqs) != len(st.IDs) || len(st.Pos) != len(st.IDs) {
		return Reverts{}, fmt.Errorf("reverts snapshot: %d commands, %d seqs, %d places", len(st.IDs), len(st.Seqs), len(st.Pos))
	}
	r := Reverts{out: make(map[string]revertRef, len(st.IDs)), Lookup: lookup, Version: st.Version}
	for i, id := range st.IDs {
		r.out[id] = revertRef{seq: st.Seqs[i], pos: st.Pos[i]}
	}
	return r, nil
}
