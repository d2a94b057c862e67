package campaign

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"io"
	"strings"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// ShareRequest asks for a link `ltscamp serve` answers.
type ShareRequest struct {
	// Character names the player's character; "" with GM set.
	Character string
	GM        bool
	// For is how long the link opens (0: until revoked).
	For time.Duration
	// Uses is how many page loads a server allows it (0: no limit).
	Uses   int
	Reason string
}

// ShareResult is a link granted: the share as the log has it, and the
// token, which only this result ever holds (the log keeps its hash).
type ShareResult struct {
	Share projections.Share
	Token string
	Event events.Event
}

// shareTokenBytes is the size of a link's random token: 256 bits.
const shareTokenBytes = 32

// Share grants a link to a player's character, or the GM's link.
func (s *Service) Share(req ShareRequest) (ShareResult, error) {
	if req.Uses < 0 {
		return ShareResult{}, rules.Errorf(rules.CodeInvalid, "--uses %d: give a number of uses of 1 or more, or leave it out for no limit", req.Uses)
	}
	if req.For < 0 {
		return ShareResult{}, rules.Errorf(rules.CodeInvalid, "--expires %s: give a time to come, such as 30d or 12h", req.For)
	}
	if req.GM == (strings.TrimSpace(req.Character) != "") {
		return ShareResult{}, rules.Errorf(rules.CodeInvalid, "name one character (a player's link) or give --gm (the GM's link), not both and not neither")
	}
	raw := make([]byte, shareTokenBytes)
	if _, err := io.ReadFull(s.jitter, raw); err != nil {
		return ShareResult{}, err
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	g := events.ShareGranted{ShareID: s.newID(), Scope: events.ShareScopeGM, TokenHash: TokenHash(token), Uses: req.Uses, Reason: strings.TrimSpace(req.Reason)}
	if req.For > 0 {
		g.Expires = events.FormatTime(s.now().Add(req.For).Truncate(time.Second))
	}
	res, err := s.execute(func(d *decision) error {
		if !req.GM {
			r, err := d.rosterState()
			if err != nil {
				return err
			}
			if f, ok := r.FindFoe(projections.NormalizeName(req.Character)); ok {
				return rules.Errorf(rules.CodeRule, "%s is a foe: links are for the party's characters, and the GM's link (share --gm) shows the foes", f.Name)
			}
			c, err := d.character(req.Character)
			if err != nil {
				return err
			}
			g.Scope, g.CharacterID, g.Character = events.ShareScopePlayer, c.member.ID, c.sheet.Name
		}
		v, err := d.s.store.StreamVersion(events.SharesStream)
		if err != nil {
			return err
		}
		d.expect(events.SharesStream, v)
		return d.emit(events.SharesStream, g)
	})
	if err != nil {
		return ShareResult{}, err
	}
	var sh projections.Shares
	if err := sh.Apply(res.Events[0]); err != nil {
		return ShareResult{}, err
	}
	return ShareResult{Share: sh.List[0], Token: token, Event: res.Events[0]}, nil
}

// TokenHash is what the log keeps of a link's token: its SHA-256, in
// lowercase hex.
func TokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// Shares returns every link granted, in order, revoked ones included.
func (s *Service) Shares() ([]projections.Share, error) {
	sh, err := s.shares()
	return sh.List, err
}

// shares folds the shares stream's events in effect.
func (s *Service) shares() (projections.Shares, error) {
	var sh projections.Shares
	rv, err := s.reverts(0)
	if err != nil {
		return sh, err
	}
	_, err = s.foldStream(events.SharesStream, &rv, 0, sh.Apply)
	return sh, err
}

// ShareByToken returns the link whose token is token, comparing its hash
// with every link's in constant time; false when none has it.
func (s *Service) ShareByToken(token string) (projections.Share, bool, error) {
	sh, err := s.shares()
	if err != nil {
		return projections.Share{}, false, err
	}
	found, ok := FindToken(sh.List, token)
	return found, ok, nil
}

// FindToken returns the share of list whose token is token. Every hash is
// compared, in constant time, so that how long it takes tells nothing of
// which link comes near.
func FindToken(list []projections.Share, token string) (projections.Share, bool) {
	want := []byte(TokenHash(token))
	var found projections.Share
	ok := 0
	for _, sh := range list {
		if subtle.ConstantTimeCompare(want, []byte(sh.TokenHash)) == 1 {
			found, ok = sh, 1
		}
	}
	return found, ok == 1
}

// RevokeShare closes a link for good: by its ID, or the first letters of
// it when they name one link.
func (s *Service) RevokeShare(id, reason string) (projections.Share, events.Event, error) {
	var target projections.Share
	res, err := s.execute(func(d *decision) error {
		rv, err := d.revertsState()
		if err != nil {
			return err
		}
		var sh projections.Shares
		v, err := d.s.foldStream(events.SharesStream, rv, 0, sh.Apply)
		if err != nil {
			return err
		}
		d.expect(events.SharesStream, v)
		if target, err = findShare(sh.List, id); err != nil {
			return err
		}
		if target.Revoked {
			return rules.Errorf(rules.CodeRule, "link %s was revoked already, at seq %d", target.ID, target.RevokedSeq)
		}
		return d.emit(events.SharesStream, events.ShareRevoked{ShareID: target.ID, Reason: strings.TrimSpace(reason)})
	})
	if err != nil {
		return projections.Share{}, events.Event{}, err
	}
	target.Revoked, target.RevokedSeq = true, res.Events[0].Seq
	return target, res.Events[0], nil
}

// findShare finds a link by its ID or a prefix of it that names one.
func findShare(list []projections.Share, id string) (projections.Share, error) {
	id = strings.ToUpper(strings.TrimSpace(id))
	if id == "" {
		return projections.Share{}, rules.Errorf(rules.CodeInvalid, "name the link to revoke by its ID (see `ltscamp share list`)")
	}
	var hits []projections.Share
	for _, sh := range list {
		if sh.ID == id {
			return sh, nil
		}
		if strings.HasPrefix(sh.ID, id) {
			hits = append(hits, sh)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return projections.Share{}, rules.Errorf(rules.CodeNotFound, "no link %s: `ltscamp share list` shows them", id)
	}
	return projections.Share{}, rules.Errorf(rules.CodeInvalid, "%s begins %d links' IDs: give more of it", id, len(hits))
}
