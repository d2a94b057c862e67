package projections

import (
	"fmt"
	"time"

	"github.com/ltscamp/ltscamp/events"
)

// Share is a link `ltscamp serve` answers, as the log has it.
type Share struct {
	ID    string `json:"id"`
	Scope string `json:"scope"`
	// CharacterID and Character name a player's character ("" for the
	// GM's link).
	CharacterID string `json:"character_id,omitempty"`
	Character   string `json:"character,omitempty"`
	// TokenHash is the hex SHA-256 of the link's token.
	TokenHash string `json:"-"`
	// Expires is when the link stops opening; zero for never.
	Expires time.Time `json:"expires,omitzero"`
	// Uses is how many page loads a server allows the link, 0 for no
	// limit.
	Uses int `json:"uses,omitempty"`
	// Seq, GrantedAt and Actor say when and by whom it was granted.
	Seq       int64     `json:"seq"`
	GrantedAt time.Time `json:"granted_at"`
	Actor     string    `json:"actor"`
	// Revoked is set once a share.revoked closed it, at RevokedSeq.
	Revoked    bool  `json:"revoked"`
	RevokedSeq int64 `json:"revoked_seq,omitempty"`
}

// Open reports whether the link opens at now: not revoked, not expired.
func (s Share) Open(now time.Time) bool {
	return !s.Revoked && (s.Expires.IsZero() || now.Before(s.Expires))
}

// Shares folds the shares stream: every link granted, in order.
type Shares struct {
	List    []Share
	byID    map[string]int
	Version int64
}

// Apply folds one event of the shares stream.
func (s *Shares) Apply(e events.Event) error {
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	s.Version = e.StreamVersion
	if s.byID == nil {
		s.byID = map[string]int{}
	}
	switch p := p.(type) {
	case *events.ShareGranted:
		if _, ok := s.byID[p.ShareID]; ok {
			return fmt.Errorf("event %d: share %s granted twice", e.Seq, p.ShareID)
		}
		sh := Share{ID: p.ShareID, Scope: p.Scope, CharacterID: p.CharacterID, Character: p.Character,
			TokenHash: p.TokenHash, Uses: p.Uses, Seq: e.Seq, GrantedAt: e.RecordedAt, Actor: e.Actor}
		if p.Expires != "" {
			if sh.Expires, err = events.ParseTime(p.Expires); err != nil {
				return fmt.Errorf("event %d: share %s expires %q: %w", e.Seq, p.ShareID, p.Expires, err)
			}
		}
		s.byID[p.ShareID] = len(s.List)
		s.List = append(s.List, sh)
	case *events.ShareRevoked:
		i, ok := s.byID[p.ShareID]
		if !ok {
			return fmt.Errorf("event %d: share %s revoked, never granted", e.Seq, p.ShareID)
		}
		s.List[i].Revoked, s.List[i].RevokedSeq = true, e.Seq
	}
	return nil
}

// Find returns the share with the ID.
func (s *Shares) Find(id string) (Share, bool) {
	i, ok := s.byID[id]
	if !ok {
		return Share{}, false
	}
	return s.List[i], true
}
