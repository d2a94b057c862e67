package projections

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// logOf builds a whole log from (stream, command, payload) steps, numbering
// seq, stream versions and event IDs.
type step struct {
	stream  string
	command string
	payload events.Payload
}

func logOf(t *testing.T, steps ...step) []events.Event {
	t.Helper()
	versions := map[string]int64{}
	out := make([]events.Event, len(steps))
	for i, st := range steps {
		raw, err := json.Marshal(st.payload)
		if err != nil {
			t.Fatal(err)
		}
		versions[st.stream]++
		out[i] = events.Event{Seq: int64(i + 1), ID: "E" + strings.Repeat("x", i), CommandID: st.command, Stream: st.stream,
			StreamVersion: versions[st.stream], Type: st.payload.EventType(), PayloadVersion: 1, Payload: raw, Actor: "gm",
			RecordedAt: time.Date(2026, 11, 21, 20, 0, i, 0, time.UTC)}
	}
	return out
}

const ajaxStream = "character/A"

func goodStart(ed string) []step {
	return []step{
		{events.CampaignStream, "K1", events.CampaignCreated{Name: "t", Edition: ed}},
		{ajaxStream, "K2", events.CharacterCreated{CharacterID: "A", Name: "Ajax", Edition: ed, Attributes: events.Attributes{ST: 12, DX: 11, IQ: 9}}},
		{ajaxStream, "K3", events.XPAwarded{Amount: 20, Reason: "r"}},
	}
}

// grant is a link granted with a well-formed token hash.
func grant(id, scope, charID, name string) events.ShareGranted {
	return events.ShareGranted{ShareID: id, Scope: scope, CharacterID: charID, Character: name, TokenHash: strings.Repeat("ab", 32)}
}

func stRaise(price int, formula, ed string) events.XPSpent {
	return events.XPSpent{On: "attribute", Attribute: "ST", From: 12, To: 13, Price: price, Formula: formula, Edition: ed}
}

func TestReplayViolations(t *testing.T) {
	check := events.RollMade{CharacterID: "A", Character: "Ajax", Expr: "3/DX", Kind: "check", Dice: 3, Sides: 6, Faces: []int{1, 3, 6},
		Sum: 10, Total: 10, Target: 11, Outcome: "pass", Margin: 1, Probability: 0.625, Modifiers: []events.Modifier{}, AttributeValue: 11, Edition: "2021"}
	tests := []struct {
		name  string
		steps []step
		seq   int64
		want  string
	}{
		{"clean", append(goodStart("2021"), step{ajaxStream, "K4", stRaise(18, "current level + 6 = 12 + 6", "2021")}), 0, ""},
		{"hand-edited price", append(goodStart("2021"), step{ajaxStream, "K4", stRaise(5, "current level + 6 = 12 + 6", "2021")}), 4, "recorded at 5 XP"},
		{"price of another edition", append(goodStart("2021"), step{ajaxStream, "K4", stRaise(13, "next level = 13", "2010")}), 4, "priced by edition 2010"},
		{"spend beyond the balance", append(goodStart("2021"), step{ajaxStream, "K4", stRaise(18, "current level + 6 = 12 + 6", "2021")},
			step{ajaxStream, "K5", events.XPSpent{On: "attribute", Attribute: "ST", From: 13, To: 14, Price: 19, Formula: "current level + 6 = 13 + 6", Edition: "2021"}}), 5, "had 2 unspent"},
		{"raise from the wrong level", append(goodStart("2021"), step{ajaxStream, "K4", events.XPSpent{On: "attribute", Attribute: "ST", From: 14, To: 15, Price: 20, Formula: "current level + 6 = 14 + 6", Edition: "2021"}}), 4, "had ST 12"},
		{"2020 attribute cap", []step{
			{events.CampaignStream, "K1", events.CampaignCreated{Name: "t", Edition: "2020"}},
			{ajaxStream, "K2", events.CharacterCreated{CharacterID: "A", Name: "Ajax", Edition: "2020", Attributes: events.Attributes{ST: 12, DX: 11, IQ: 9}}},
			{ajaxStream, "K3", events.XPAwarded{Amount: 1000, Reason: "r"}},
			{ajaxStream, "K4", events.XPSpent{On: "attribute", Attribute: "ST", From: 12, To: 13, Price: 18, Formula: "next level + 5 = 13 + 5", Edition: "2020"}},
		}, 0, ""},
		{"illegal character", []step{
			{events.CampaignStream, "K1", events.CampaignCreated{Name: "t", Edition: "2021"}},
			{ajaxStream, "K2", events.CharacterCreated{CharacterID: "A", Name: "Ajax", Edition: "2021", Attributes: events.Attributes{ST: 12, DX: 12, IQ: 9}}},
		}, 2, "33 attribute points"},
		{"hand-edited roll", append(goodStart("2021"), step{ajaxStream, "K4", func() events.RollMade { r := check; r.Total, r.Outcome = 9, "pass"; return r }()}), 4, "the rules give 10 vs 11"},
		{"hand-edited chance", append(goodStart("2021"), step{ajaxStream, "K4", func() events.RollMade { r := check; r.Probability = 0.9; return r }()}), 4, "recorded a 90.0% chance"},
		{"hand-edited modifiers", append(goodStart("2021"), step{ajaxStream, "K4", func() events.RollMade {
			r := check
			r.Modifiers = []events.Modifier{{Source: "skill Pilot", Value: 3, Applies: "target"}}
			return r
		}()}), 4, "recorded modifiers"},
		{"roll with a stale attribute", append(goodStart("2021"), step{ajaxStream, "K4", func() events.RollMade { r := check; r.AttributeValue, r.Target, r.Margin = 12, 12, 2; return r }()}), 4, "roll recorded DX 12; Ajax had 11"},
		{"re-roll without karma", append(goodStart("2021"), step{ajaxStream, "K4", check},
			step{ajaxStream, "K5", func() events.RollMade { r := check; r.Rerolls = "Exxx"; return r }()}), 5, "no karma or wish spent"},
		{"karma spent with none", append(goodStart("2021"), step{ajaxStream, "K4", check},
			step{ajaxStream, "K5", events.KarmaSpent{Amount: 1, For: "reroll", RollID: "Exxx"}},
			step{ajaxStream, "K5", func() events.RollMade { r := check; r.Rerolls = "Exxx"; return r }()}), 5, "spent 1 karma with 0"},
		{"plotword twice", append(goodStart("2021"),
			step{events.CampaignStream, "K4", events.PlotwordAcquired{Word: "KITKAT"}},
			step{events.CampaignStream, "K5", events.PlotwordAcquired{Word: "KITKAT"}}), 5, "already acquired at seq 4"},
		{"event before the campaign", []step{{ajaxStream, "K1", events.XPAwarded{Amount: 1, Reason: "r"}}}, 1, "before campaign.created"},
		{"an event for nobody", append(goodStart("2021"), step{"character/Z", "K4", events.XPAwarded{Amount: 1, Reason: "r"}}), 4, "does not exist"},
		{"negative award", append(goodStart("2021"), step{ajaxStream, "K4", events.XPAwarded{Amount: -5, Reason: "r"}}), 4, "an award of -5 XP"},
		{"links granted and revoked", append(goodStart("2021"),
			step{events.SharesStream, "K4", grant("S1", events.ShareScopePlayer, "A", "Ajax")},
			step{events.SharesStream, "K5", grant("S2", events.ShareScopeGM, "", "")},
			step{events.SharesStream, "K6", events.ShareRevoked{ShareID: "S1"}}), 0, ""},
		{"a link for a stranger", append(goodStart("2021"), step{events.SharesStream, "K4", grant("S1", events.ShareScopePlayer, "Z", "Zed")}), 4, "who is not of the party"},
		{"a link of an unknown scope", append(goodStart("2021"), step{events.SharesStream, "K4", grant("S1", "admin", "", "")}), 4, `scope "admin"`},
		{"a GM link naming a character", append(goodStart("2021"), step{events.SharesStream, "K4", grant("S1", events.ShareScopeGM, "A", "Ajax")}), 4, "names a character"},
		{"a token kept, not its hash", append(goodStart("2021"), step{events.SharesStream, "K4", func() events.ShareGranted {
			g := grant("S1", events.ShareScopeGM, "", "")
			g.TokenHash = "c2VjcmV0LXRva2Vu"
			return g
		}()}), 4, "not SHA-256's 64"},
		{"a link granted twice", append(goodStart("2021"),
			step{events.SharesStream, "K4", grant("S1", events.ShareScopeGM, "", "")},
			step{events.SharesStream, "K5", grant("S1", events.ShareScopeGM, "", "")}), 5, "granted twice"},
		{"a link revoked twice", append(goodStart("2021"),
			step{events.SharesStream, "K4", grant("S1", events.ShareScopeGM, "", "")},
			step{events.SharesStream, "K5", events.ShareRevoked{ShareID: "S1"}},
			step{events.SharesStream, "K6", events.ShareRevoked{ShareID: "S1"}}), 6, "revoked twice"},
		{"a link revoked, never granted", append(goodStart("2021"), step{events.SharesStream, "K4", events.ShareRevoked{ShareID: "S9"}}), 4, "never granted"},
		{"a link on another stream", append(goodStart("2021"), step{ajaxStream, "K4", grant("S1", events.ShareScopeGM, "", "")}), 4, "share.granted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := Replay(logOf(t, tt.steps...), nil)
			if tt.want == "" {
				if len(w.Violations) != 0 {
					t.Fatalf("violations in a good log: %+v", w.Violations)
				}
				return
			}
			if len(w.Violations) == 0 {
				t.Fatalf("no violation, want one at seq %d containing %q", tt.seq, tt.want)
			}
			v := w.Violations[0]
			if v.Seq != tt.seq || !strings.Contains(v.Problem, tt.want) {
				t.Fatalf("violation %+v, want seq %d containing %q", v, tt.seq, tt.want)
			}
		})
	}
}

func TestReplaySkipsCommandsOutOfEffect(t *testing.T) {
	log := logOf(t, append(goodStart("2021"), step{ajaxStream, "K4", stRaise(18, "current level + 6 = 12 + 6", "2021")})...)
	// Without the award, the spend overdraws.
	w := Replay(log, func(e events.Event) bool { return e.CommandID == "K3" })
	if cmds := w.ViolatingCommands(); len(cmds) != 1 || cmds[0] != "K4" {
		t.Fatalf("violating commands %v, want [K4]", cmds)
	}
	// Without the spend, all is well and Ajax keeps 20.
	w = Replay(log, func(e events.Event) bool { return e.CommandID == "K4" })
	if len(w.Violations) != 0 || w.Sheets["A"].XP.Unspent != 20 || w.Sheets["A"].Attributes.ST != 12 {
		t.Fatalf("replay without the spend: %+v %+v", w.Violations, w.Sheets["A"])
	}
}

func TestReplayChecksShots(t *testing.T) {
	built := func(id, name string) step {
		return step{events.ShipStream(id), "K" + id, events.ShipBuilt{ShipID: id, Name: name, Record: "Cargo1, Engineering1, Operations1, Living1, d6/1", Cost: 12, Edition: "2021"}}
	}
	shot := func(faces []int, total int, outcome string, hit bool, dmg []int) events.DogfightFired {
		f := events.DogfightFired{Attacker: events.DogfightShip{ShipID: "A", Name: "A"}, Target: events.DogfightShip{ShipID: "B", Name: "B"}, Gunner: "Hector", Kind: "pursuit",
			Check: events.AttackRoll{Expr: "3/DX+Gunner", Faces: faces, Sum: total, Total: total, Target: 13, Outcome: outcome}, Hit: hit, Edition: "2021"}
		if dmg != nil {
			f.Damage = &events.AttackRoll{Expr: "d6", Faces: dmg, Sum: dmg[0], Total: dmg[0]}
		}
		return f
	}
	base := []step{
		{events.CampaignStream, "K1", events.CampaignCreated{Name: "t", Edition: "2021"}},
		built("A", "A"), built("B", "B"),
		{events.DogfightStream, "K4", events.DogfightStarted{Number: 1, Ships: []events.DogfightShip{{ShipID: "A", Name: "A"}, {ShipID: "B", Name: "B"}}}},
	}
	for _, tt := range []struct {
		name string
		shot events.DogfightFired
		want string
	}{
		{"a fair miss", shot([]int{6, 6, 6}, 18, "miss", false, nil), ""},
		{"a miss recorded as a hit", shot([]int{6, 6, 6}, 18, "hit", true, []int{3}), "as hit"},
		{"faces that do not add up", shot([]int{1, 1, 1}, 9, "hit", true, []int{3}), "as hit"},
		{"a hit without its weapon dice", shot([]int{3, 3, 3}, 9, "hit", true, nil), "without its 1d6"},
		{"a weapon die of 7", shot([]int{3, 3, 3}, 9, "hit", true, []int{7}), "weapon die recorded as 7"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := Replay(logOf(t, append(base, step{events.DogfightStream, "K5", tt.shot})...), nil)
			if tt.want == "" {
				if len(w.Violations) != 0 {
					t.Fatalf("violations: %+v", w.Violations)
				}
				return
			}
			if len(w.Violations) == 0 || !strings.Contains(w.Violations[0].Problem, tt.want) || w.Violations[0].Seq != 5 {
				t.Fatalf("violations %+v, want seq 5 containing %q", w.Violations, tt.want)
			}
		})
	}
}

func TestReplayChecksAttacksRestAndEquipment(t *testing.T) {
	hector := events.CharacterCreated{CharacterID: "H", Name: "Hector", Edition: "2021", Attributes: events.Attributes{ST: 11, DX: 12, IQ: 9}}
	attack := func(taken int) events.AttackMade {
		// Example 4: a handgun, 2d6-1 with 5,2 = 6; no armour: 6 taken.
		return events.AttackMade{AttackerID: "A", Attacker: "Ajax", TargetID: "H", Target: "Hector", TargetST: 11, Weapon: "handgun", WeaponName: "Handgun", DX: 11,
			Hit:    events.AttackRoll{Expr: "3/DX", Faces: []int{1, 3, 6}, Sum: 10, Total: 10, Target: 11, Outcome: "hit"},
			Damage: &events.AttackRoll{Expr: "2d6-1", Faces: []int{5, 2}, Sum: 7, Total: 6}, BeforeArmor: 6, Taken: taken, Edition: "2021"}
	}
	base := func() []step {
		return []step{
			{events.CampaignStream, "K1", events.CampaignCreated{Name: "t", Edition: "2021"}},
			{ajaxStream, "K2", events.CharacterCreated{CharacterID: "A", Name: "Ajax", Edition: "2021", Attributes: events.Attributes{ST: 12, DX: 11, IQ: 9}}},
			{"character/H", "K3", hector},
		}
	}
	for _, tt := range []struct {
		name string
		more []step
		want string
	}{
		{"worked example 4", []step{{ajaxStream, "K4", attack(6)}}, ""},
		{"a forged damage", []step{{ajaxStream, "K4", attack(2)}}, "the rules give 6, 0, 6"},
		{"a weapon above the heft", []step{{"character/H", "K4", events.ItemEquipped{Slot: "weapon", Item: "fire_axe", Name: "Fire Axe", Edition: "2021"}}}, "heft is 12"},
		{"rest that heals too much", []step{
			{"character/H", "K4", events.DamageTaken{Dealt: 5, Damage: 5}},
			{"character/H", "K5", events.RestTaken{Stamp: events.Stamp{At: &events.GameTime{Adventure: 1, Day: 3}}, Days: 2, StayedPut: true, Sheltered: true, Provisioned: true, NoStrenuous: true, Healed: 5, RestedDays: 2, UntilDay: 3, Edition: "2021"}},
		}, "the 2021 rules give 2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := Replay(logOf(t, append(base(), tt.more...)...), nil)
			if tt.want == "" {
				if len(w.Violations) != 0 {
					t.Fatalf("violations: %+v", w.Violations)
				}
				return
			}
			if len(w.Violations) == 0 || !strings.Contains(w.Violations[0].Problem, tt.want) {
				t.Fatalf("violations %+v, want one containing %q", w.Violations, tt.want)
			}
		})
	}
}

// TestRollIndex: the roll index finds every roll set, by its latest
// setting, whether the IDs come in order or not, and whatever their length.
func TestRollIndex(t *testing.T) {
	x := newRollIndex()
	want := map[string]rollRef{}
	set := func(id string, seq int64) {
		x.set(id, rollRef{seq: seq})
		want[id] = rollRef{seq: seq}
	}
	ulid := func(i int) string { return fmt.Sprintf("01KDXEWPW0AE67Z5NH%08d", i) }
	for i := range 1000 {
		set(ulid(2*i), int64(i+1))
	}
	set(ulid(1998), 5000) // the last one again
	set(ulid(7), 5001)    // out of order
	set(ulid(10), 5002)   // set before, out of order
	set(ulid(10), 5003)   // and again
	set("short", 5004)    // another length
	set(ulid(2001), 5005) // in order again
	set(ulid(7), 5006)    // the out-of-order one again
	for id, ref := range want {
		if got, ok := x.get(id); !ok || got != ref {
			t.Errorf("%s: %v %v, want %v", id, got, ok, ref)
		}
	}
	for _, id := range []string{ulid(1), ulid(3001), "", "shor", ulid(-1)[:26]} {
		if _, set := want[id]; set {
			continue
		}
		if got, ok := x.get(id); ok {
			t.Errorf("%s: found %v, never set", id, got)
		}
	}
}

// TestStepPreparedMatchesStep: a fold of events prepared ahead (with the
// campaign's edition guessed right, wrong, or not at all; with or without
// XP ledgers) finds what Step finds, violation for violation.
func TestStepPreparedMatchesStep(t *testing.T) {
	check := events.RollMade{CharacterID: "A", Character: "Ajax", Expr: "3/DX", Kind: "check", Dice: 3, Sides: 6, Faces: []int{1, 3, 6},
		Sum: 10, Total: 10, Target: 11, Outcome: "pass", Margin: 1, Probability: 0.625, Modifiers: []events.Modifier{}, AttributeValue: 11, Edition: "2021"}
	edited := func(f func(r *events.RollMade)) events.RollMade { r := check; f(&r); return r }
	logs := map[string][]step{
		"rolls": append(goodStart("2021"),
			step{ajaxStream, "K4", check},
			step{ajaxStream, "K5", edited(func(r *events.RollMade) { r.Total, r.Outcome = 9, "pass" })},
			step{ajaxStream, "K6", edited(func(r *events.RollMade) { r.Probability = 0.9 })},
			step{ajaxStream, "K7", edited(func(r *events.RollMade) { r.Expr = "3/DX+Climbing" })},
			step{ajaxStream, "K8", edited(func(r *events.RollMade) { r.Expr = "3/DX+Nosuchskill" })},
			step{ajaxStream, "K9", edited(func(r *events.RollMade) { r.Expr = "nonsense" })},
			step{ajaxStream, "K10", edited(func(r *events.RollMade) { r.Edition = "2010" })},
			step{ajaxStream, "K11", events.KarmaGranted{Amount: 1}},
			step{ajaxStream, "K12", events.KarmaSpent{Amount: 1, For: "reroll", RollID: "Exxx"}},
			step{ajaxStream, "K12", edited(func(r *events.RollMade) {
				r.Rerolls = "Exxx"
				r.Faces = []int{2, 2, 2}
				r.Sum, r.Total, r.Margin = 6, 6, 5
			})},
			step{events.DiceStream, "K13", events.RollMade{Expr: "2d6", Kind: "dice", Dice: 2, Sides: 6, Faces: []int{1, 2}, Sum: 3, Total: 3, Outcome: "rolled", Edition: "2021"}},
			step{events.DiceStream, "K14", events.RollMade{Expr: "2d6", Kind: "dice", Dice: 2, Sides: 6, Faces: []int{1, 2}, Sum: 4, Total: 4, Outcome: "rolled", Edition: "2021"}},
		),
		"2010": {
			{events.CampaignStream, "K1", events.CampaignCreated{Name: "t", Edition: "2010"}},
			{ajaxStream, "K2", events.CharacterCreated{CharacterID: "A", Name: "Ajax", Edition: "2010", Attributes: events.Attributes{ST: 12, DX: 11, IQ: 9}}},
			{ajaxStream, "K3", edited(func(r *events.RollMade) { r.Edition = "2010" })},
			{ajaxStream, "K4", edited(func(r *events.RollMade) { r.Edition = "2010"; r.Expr = "3/DX+Climbing" })},
		},
		"no campaign": {{ajaxStream, "K1", check}},
	}
	for name, steps := range logs {
		log := logOf(t, steps...)
		want := Replay(log, nil)
		for _, guess := range []rules.Edition{"", rules.Edition2010, rules.Edition2020, rules.Edition2021, "1999"} {
			// Without its ledgers, the world checks and folds the same.
			w := NewWorld(WorldOptions{NoLedgers: guess == rules.Edition2021})
			var pp Preparer
			for _, e := range log {
				pr := pp.Prepare(e, guess)
				w.StepPrepared(e, &pr, false)
			}
			w.Finish()
			if !reflect.DeepEqual(w.Violations, want.Violations) || !reflect.DeepEqual(w.Sheets, want.Sheets) {
				t.Errorf("%s, edition guessed %q: violations\n%+v\nwant\n%+v", name, guess, w.Violations, want.Violations)
			}
		}
		if name == "rolls" && len(want.Violations) < 6 {
			t.Errorf("the rolls log has only %d violations: %+v", len(want.Violations), want.Violations)
		}
	}
}

// TestRulesCacheMatchesRules: what the cache remembers is what the rules
// give, asked once or again, errors included.
func TestRulesCacheMatchesRules(t *testing.T) {
	var c rulesCache
	exprs := []string{"3/DX", "4/ST", "3/IQ+Medic", "3/DX+Climbing", "3/ST against Swimming", "2d6-1", "0/DX", "3/XX", "", "3/DX+Nosuch"}
	for round := range 2 {
		for i := range 3000 {
			s := exprs[i%len(exprs)]
			want, wantErr := rules.ParseExpr(s)
			got, err := c.parseExpr(s)
			if !reflect.DeepEqual(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("round %d: parseExpr(%q) = %+v, %v; rules give %+v, %v", round, s, got, err, want, wantErr)
			}
			ed := []rules.Edition{rules.Edition2010, rules.Edition2021, "1999"}[i%3]
			if want.Check != nil && want.Check.Skill != "" {
				wantSk, wantErr := rules.LookupSkill(ed, want.Check.Skill)
				sk, err := c.lookupSkill(ed, want.Check.Skill)
				if !reflect.DeepEqual(sk, wantSk) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
					t.Fatalf("lookupSkill(%s, %q) = %+v, %v; rules give %+v, %v", ed, want.Check.Skill, sk, err, wantSk, wantErr)
				}
			}
			if want.Check == nil {
				continue
			}
			in := rules.CheckInput{Edition: ed, Expr: *want.Check, AttributeValue: 8 + i%7, Restriction: i % 3 % 2, SkillName: want.Check.Skill,
				SkillLevel: i % 4, Curses: i % 5 % 3}
			faces := make([]int, i%5)
			for j := range faces {
				faces[j] = 1 + (i*7+j*3)%7 // a 7 now and then: not on a d6
			}
			given := rules.NewGivenFaces(faces)
			wantO, wantErr := rules.ResolveCheck(in, given)
			o, used, err := c.resolveCheck(in, faces)
			if !reflect.DeepEqual(o, wantO) || used != len(faces)-given.Remaining() || fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("resolveCheck(%+v, %v) = %+v, %d, %v; rules give %+v, %d, %v", in, faces, o, used, err, wantO, len(faces)-given.Remaining(), wantErr)
			}
		}
	}
}

// Issue 21: verify holds an attack's skill placement against the
// attacker's sheet (his level, his standing choice unless --skill-bonus
// chose), an attack that hits without a roll to having none, and the
// standing choice to hit or damage. Attacks recorded before keep
// verifying.
func TestReplayChecksSkillPlacementAndAutomaticHits(t *testing.T) {
	base := func() []step {
		return []step{
			{events.CampaignStream, "K1", events.CampaignCreated{Name: "t", Edition: "2021"}},
			{ajaxStream, "K2", events.CharacterCreated{CharacterID: "A", Name: "Ajax", Edition: "2021", Attributes: events.Attributes{ST: 12, DX: 11, IQ: 9},
				Skills: []events.SkillLevel{{Skill: "pistol", Name: "Pistol", Level: 1}}}},
			{"character/H", "K3", events.CharacterCreated{CharacterID: "H", Name: "Hector", Edition: "2021", Attributes: events.Attributes{ST: 11, DX: 12, IQ: 9}}},
		}
	}
	// Example 4's handgun: 1,3,6 = 10; 2d6-1 with 5,2.
	shot := func(bonus, from string, level, target, dmg int) events.AttackMade {
		return events.AttackMade{AttackerID: "A", Attacker: "Ajax", TargetID: "H", Target: "Hector", TargetST: 11, Weapon: "handgun", WeaponName: "Handgun", DX: 11,
			Bonus: bonus, BonusFrom: from, Skill: "Pistol", SkillLevel: level,
			Hit:    events.AttackRoll{Expr: "3/DX", Faces: []int{1, 3, 6}, Sum: 10, Total: 10, Target: target, Outcome: "hit"},
			Damage: &events.AttackRoll{Expr: "2d6-1", Faces: []int{5, 2}, Sum: 7, Total: dmg}, BeforeArmor: dmg, Taken: dmg, Edition: "2021"}
	}
	// Bare hands, grappling: d3 2, +1 stronger, 3 fatigue.
	grapple := func(auto string, hit events.AttackRoll) events.AttackMade {
		return events.AttackMade{AttackerID: "A", Attacker: "Ajax", TargetID: "H", Target: "Hector", TargetST: 11, Weapon: "unarmed", WeaponName: "Unarmed", DX: 11,
			Grappling: true, AutoHit: auto, Hit: hit,
			Damage: &events.AttackRoll{Expr: "d3", Faces: []int{2}, Sum: 2, Total: 3}, BeforeArmor: 3, Taken: 3, Fatigue: true, Edition: "2021"}
	}
	noRoll := events.AttackRoll{Faces: []int{}, Outcome: "hit"}
	oldRoll := events.AttackRoll{Expr: "3/DX", Faces: []int{1, 3, 6}, Sum: 10, Total: 10, Target: 11, Outcome: "hit"}
	for _, tt := range []struct {
		name string
		more []step
		want string
	}{
		{"the standing choice: hit", []step{{ajaxStream, "K4", shot("hit", "standing", 1, 12, 6)}}, ""},
		{"--skill-bonus damage", []step{{ajaxStream, "K4", shot("damage", "flag", 1, 11, 7)}}, ""},
		{"the standing choice forged to damage", []step{{ajaxStream, "K4", shot("damage", "standing", 1, 11, 7)}}, "standing choice puts it on \"hit\""},
		{"char set damage, then the standing choice", []step{
			{ajaxStream, "K4", events.SkillBonusSet{Bonus: "damage", Previous: "hit"}},
			{ajaxStream, "K5", shot("damage", "standing", 1, 11, 7)}}, ""},
		{"a level the sheet lacks", []step{{ajaxStream, "K4", shot("hit", "standing", 2, 13, 6)}}, "the sheet had 1"},
		{"an unknown source", []step{{ajaxStream, "K4", shot("hit", "luck", 1, 12, 6)}}, `came from "luck"`},
		{"recorded before the standing choice, no bonus", []step{{ajaxStream, "K4", shot("", "", 0, 11, 6)}}, ""},
		{"a grapple with no hit roll", []step{{ajaxStream, "K4", grapple("grapple", noRoll)}}, ""},
		{"a grapple recorded before, with its hit roll", []step{{ajaxStream, "K4", grapple("", oldRoll)}}, ""},
		{"a grapple that claims a hit roll", []step{{ajaxStream, "K4", grapple("grapple", oldRoll)}}, "hits without a roll recorded a hit roll"},
		{"an outside attack in 2021", []step{{ajaxStream, "K4", func() events.AttackMade {
			a := shot("", "", 0, 0, 6)
			a.AutoHit, a.Hit = "outside", noRoll
			return a
		}()}}, "edition 2021 states no rule for attacks into a grappling space"},
		{"a standing choice of sideways", []step{{ajaxStream, "K4", events.SkillBonusSet{Bonus: "sideways", Previous: "hit"}}}, `a standing skill bonus of "sideways"`},
		{"a standing choice set to what it was", []step{{ajaxStream, "K4", events.SkillBonusSet{Bonus: "hit", Previous: "hit"}}}, "the sheet had hit"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := Replay(logOf(t, append(base(), tt.more...)...), nil)
			if tt.want == "" {
				if len(w.Violations) != 0 {
					t.Fatalf("violations: %+v", w.Violations)
				}
				return
			}
			if len(w.Violations) == 0 || !strings.Contains(w.Violations[0].Problem, tt.want) {
				t.Fatalf("violations %+v, want one containing %q", w.Violations, tt.want)
			}
		})
	}
}
