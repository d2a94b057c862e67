package projections

import (
	"math"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// TestFoldsRefuseOverflow: a log whose counts would wrap round (forged, or
// written before the commands bounded their numbers) makes Apply fail with
// an invalid-log error instead of folding a negative ledger.
func TestFoldsRefuseOverflow(t *testing.T) {
	for _, r := range []struct {
		name string
		evs  []events.Payload
		want string
	}{
		{"XP earned", []events.Payload{events.XPAwarded{Amount: math.MaxInt64, Reason: "a"}, events.XPAwarded{Amount: 1, Reason: "b"}},
			"event 3 (xp.awarded): XP earned overflows: 9223372036854775807 + 1 is beyond the range of a count"},
		{"karma", []events.Payload{events.KarmaGranted{Amount: math.MaxInt64}, events.KarmaGranted{Amount: 5}}, "karma overflows"},
		{"wishes", []events.Payload{events.WishGranted{Amount: math.MaxInt64}, events.WishGranted{Amount: 1}}, "wishes overflows"},
		{"curses", []events.Payload{events.CurseAdded{Levels: math.MaxInt64}, events.CurseAdded{Levels: 1}}, "curse levels overflows"},
		{"damage", []events.Payload{events.DamageTaken{Dealt: 1, Damage: math.MaxInt64}, events.DamageTaken{Dealt: 1, Damage: 1}}, "damage overflows"},
		{"healing below the floor", []events.Payload{events.DamageTaken{Dealt: 1, Damage: math.MinInt64}, events.DamageHealed{Points: 1, Reason: "healing"}}, "damage overflows"},
		{"unspent", []events.Payload{events.XPAwarded{Amount: math.MaxInt64, Reason: "a"}, events.XPSpent{On: "skill", Skill: "knife", SkillName: "Knife", From: 0, To: 1, Price: -1}}, "unspent XP overflows"},
	} {
		t.Run(r.name, func(t *testing.T) {
			evs := stream(t, append([]events.Payload{ajaxCreated()}, r.evs...)...)
			var s Sheet
			var err error
			for _, e := range evs {
				if err = s.Apply(e); err != nil {
					break
				}
			}
			if err == nil || !strings.Contains(err.Error(), r.want) || rules.CodeOf(err) != rules.CodeInvalidLog {
				t.Fatalf("Apply = %v (code %s), want an invalid-log error with %q; sheet %+v", err, rules.CodeOf(err), r.want, s)
			}
		})
	}
}

func TestLedgerRefusesOverflow(t *testing.T) {
	evs := stream(t, ajaxCreated(), events.XPAwarded{Amount: math.MaxInt64, Reason: "a"}, events.XPAwarded{Amount: 1, Reason: "b"})
	var l Ledger
	if err := l.Apply(evs[1], nil); err != nil {
		t.Fatal(err)
	}
	err := l.Apply(evs[2], nil)
	if err == nil || rules.CodeOf(err) != rules.CodeInvalidLog || !strings.Contains(err.Error(), "XP earned overflows: 9223372036854775807 + 1") {
		t.Fatalf("Apply = %v, want an XP earned overflow", err)
	}
	if l.Earned != math.MaxInt64 || len(l.Entries) != 1 {
		t.Errorf("the failed award changed the ledger: earned %d, %d entries", l.Earned, len(l.Entries))
	}
	spend := stream(t, ajaxCreated(), events.XPSpent{On: "skill", Skill: "knife", SkillName: "Knife", To: 1, Price: math.MinInt64 + 1}, events.XPAwarded{Amount: 2, Reason: "c"})
	var l2 Ledger
	_ = l2.Apply(spend[1], nil)
	if err := l2.Apply(spend[2], nil); err == nil || !strings.Contains(err.Error(), "the XP balance overflows") {
		t.Fatalf("Apply = %v, want a balance overflow", err)
	}
}
