package web

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/rules"
)

// TestAuditKeyFollowsWhatTheAuditReads: an audit is folded again when his
// stream moves or an undo is logged, and not for another character's
// write; a file of another campaign names other audits.
func TestAuditKeyFollowsWhatTheAuditReads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.ltscamp")
	s, err := campaign.Create(path, "Keys", rules.Edition2021, campaign.Options{Now: time.Now, Actor: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ids := map[string]string{}
	for _, name := range []string{"Kira", "Brann"} {
		sh, err := s.CreateCharacter(campaign.NewCharacter{Name: name, Attributes: rules.Attributes{ST: 10, DX: 12, IQ: 10}})
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = sh.ID
	}
	key := func() string {
		t.Helper()
		k, err := auditKey(s, "C1", ids["Kira"])
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	award := func(name string) {
		t.Helper()
		if _, err := s.AwardXP([]string{name}, 3, "r"); err != nil {
			t.Fatal(err)
		}
	}
	k0 := key()
	award("Brann")
	if key() != k0 {
		t.Error("Brann's award changed Kira's audit key")
	}
	award("Kira")
	k1 := key()
	if k1 == k0 {
		t.Error("Kira's award left her audit key as it was")
	}
	if _, err := s.Undo(campaign.UndoRequest{}); err != nil {
		t.Fatal(err)
	}
	if key() == k1 {
		t.Error("an undo left her audit key as it was")
	}
	if k, _ := auditKey(s, "C2", ids["Kira"]); k == key() {
		t.Error("another campaign's audit has the same key")
	}
}
