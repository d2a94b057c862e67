package campaign

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// TestShareKeepsOnlyTheTokensHash: a link's token is 256 random bits in
// base64url; the log holds its SHA-256 and nothing of the token itself,
// and the token finds its link again, no other does.
func TestShareKeepsOnlyTheTokensHash(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Kira", 10, 12, 10)
	kira, err := s.Share(ShareRequest{Character: "Kira", For: 30 * 24 * time.Hour, Uses: 5, Reason: "table"})
	if err != nil {
		t.Fatal(err)
	}
	gm, err := s.Share(ShareRequest{GM: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(kira.Token) != 43 || strings.ContainsAny(kira.Token, "+/=") {
		t.Errorf("token %q: want 43 letters of base64url (256 bits)", kira.Token)
	}
	sum := sha256.Sum256([]byte(kira.Token))
	if kira.Share.TokenHash != hex.EncodeToString(sum[:]) {
		t.Errorf("hash %s, want the token's SHA-256", kira.Share.TokenHash)
	}
	evs, err := s.store.Read(events.Query{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if strings.Contains(string(e.Payload), kira.Token) || strings.Contains(string(e.Payload), gm.Token) {
			t.Fatalf("event %d holds a token: %s", e.Seq, e.Payload)
		}
	}
	sh := kira.Share
	if sh.Scope != events.ShareScopePlayer || sh.Character != "Kira" || sh.Uses != 5 || sh.Expires.Sub(sh.GrantedAt).Round(time.Hour) != 30*24*time.Hour {
		t.Errorf("Kira's link: %+v", sh)
	}
	for token, want := range map[string]string{kira.Token: kira.Share.ID, gm.Token: gm.Share.ID, "x" + kira.Token[1:]: "", "": ""} {
		got, ok, err := s.ShareByToken(token)
		if err != nil {
			t.Fatal(err)
		}
		if (want == "") == ok || got.ID != want {
			t.Errorf("ShareByToken(%q) = %s %v, want %q", token, got.ID, ok, want)
		}
	}
}

// TestShareRefusals: a link for nobody, for a foe, for both a character and
// the GM, of negative uses or a past expiry, appends nothing.
func TestShareRefusals(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Kira", 10, 12, 10)
	if _, err := s.AddFoe(NewFoe{Name: "Pirate", Attributes: rules.Attributes{ST: 12, DX: 12, IQ: 9}}); err != nil {
		t.Fatal(err)
	}
	before := count(t, s)
	for _, tc := range []struct {
		req  ShareRequest
		want string
	}{
		{ShareRequest{Character: "Nobody"}, `no character "Nobody"`},
		{ShareRequest{Character: "Pirate"}, "is a foe: links are for the party's characters"},
		{ShareRequest{Character: "Kira", GM: true}, "not both"},
		{ShareRequest{}, "not neither"},
		{ShareRequest{Character: "Kira", Uses: -1}, "--uses -1"},
		{ShareRequest{Character: "Kira", For: -time.Hour}, "a time to come"},
	} {
		if _, err := s.Share(tc.req); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Share(%+v): %v, want an error saying %q", tc.req, err, tc.want)
		}
	}
	if got := count(t, s); got != before {
		t.Errorf("%d events appended by refused shares", got-before)
	}
}

// TestRevokeShare: by the first letters of its ID, once; an undo of the
// grant takes the link out of the list, as if never granted.
func TestRevokeShare(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Kira", 10, 12, 10)
	a, err := s.Share(ShareRequest{Character: "Kira"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Share(ShareRequest{GM: true})
	if err != nil {
		t.Fatal(err)
	}
	common := 0
	for common < len(a.Share.ID) && a.Share.ID[common] == b.Share.ID[common] {
		common++
	}
	if _, _, err := s.RevokeShare(a.Share.ID[:common], ""); err == nil || !strings.Contains(err.Error(), "begins 2 links") {
		t.Errorf("a prefix of both IDs: %v, want it refused as ambiguous", err)
	}
	sh, e, err := s.RevokeShare(strings.ToLower(a.Share.ID[:common+1]), "phone lost")
	if err != nil {
		t.Fatal(err)
	}
	if sh.ID != a.Share.ID || !sh.Revoked || sh.RevokedSeq != e.Seq {
		t.Errorf("revoked %+v at %d", sh, e.Seq)
	}
	if _, _, err := s.RevokeShare(a.Share.ID, ""); err == nil || !strings.Contains(err.Error(), "revoked already") {
		t.Errorf("a second revoke: %v", err)
	}
	found, ok, err := s.ShareByToken(a.Token)
	if err != nil || !ok || found.Open(time.Now()) {
		t.Errorf("the revoked link: found %v, open %v (%v); want found and closed", ok, found.Open(time.Now()), err)
	}
	if _, err := s.Undo(UndoRequest{Target: b.Event.CommandID}); err != nil {
		t.Fatal(err)
	}
	list, err := s.Shares()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != a.Share.ID {
		t.Errorf("after the GM link's grant was undone: %+v, want Kira's alone", list)
	}
	if _, ok, _ := s.ShareByToken(b.Token); ok {
		t.Error("an undone grant's token still finds its link")
	}
}
