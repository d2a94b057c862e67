package campaign

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// diceFile makes a campaign file under t.TempDir() with a fixed clock and
// fixed ULID entropy, its own dice (the program's) drawn by roller.
func diceFile(t *testing.T, ed rules.Edition, roller rules.Roller) *Service {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dice.ltscamp")
	s, err := Create(path, "Dice", ed, Options{VerifyKept: true, Now: fixedClock(), Actor: "gm",
		Entropy: rand.NewChaCha8([32]byte{1}), Roller: roller})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// mustDiceReport runs the report and fails the test on an error.
func mustDiceReport(t *testing.T, s *Service, q DiceQuery) projections.DiceReport {
	t.Helper()
	rep, err := s.DiceReport(q)
	if err != nil {
		t.Fatalf("DiceReport(%+v): %v", q, err)
	}
	return rep
}

// sourceOf finds the report's source of an actor's physical dice, or the
// program's (actor "", physical false).
func sourceOf(t *testing.T, rep projections.DiceReport, actor string, physical bool) projections.DieReport {
	t.Helper()
	want := "program"
	if physical {
		want = "physical"
	}
	for _, d := range rep.Sources {
		if d.Actor == actor && d.Source == want {
			return d
		}
	}
	t.Fatalf("no %s source of %q in %+v", want, actor, rep.Sources)
	return projections.DieReport{}
}

// luckIn finds a character's luck in the report.
func luckIn(t *testing.T, rep projections.DiceReport, name string) projections.LuckReport {
	t.Helper()
	for _, c := range rep.Characters {
		if c.Character == name {
			return c
		}
	}
	t.Fatalf("no luck of %s in %+v", name, rep.Characters)
	return projections.LuckReport{}
}

// drawFaces draws n faces of a d6 whose faces 1..6 come up with the given
// integer weights, from a fixed seed.
func drawFaces(n int, weights [6]int) []int {
	r := rand.New(rand.NewPCG(42, 42))
	total := 0
	for _, w := range weights {
		total += w
	}
	out := make([]int, n)
	for i := range out {
		x := r.IntN(total)
		for f, w := range weights {
			if x < w {
				out[i] = f + 1
				break
			}
			x -= w
		}
	}
	return out
}

// rollBare logs faces as bare 3d6 rolls, three at a time, as actor.
func rollBare(t *testing.T, s *Service, actor string, faces []int) {
	t.Helper()
	if err := s.SetActor(actor); err != nil {
		t.Fatal(err)
	}
	for i := 0; i+3 <= len(faces); i += 3 {
		r, err := s.Roll(RollRequest{Expr: "3d6", Faces: faces[i : i+3]})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Roll.Entered || r.Roll.Kind != "dice" {
			t.Fatalf("a bare roll with faces given: entered %v, kind %q", r.Roll.Entered, r.Roll.Kind)
		}
	}
}

// facesCount counts faces 1..6.
func facesCount(faces []int) []int64 {
	c := make([]int64, 6)
	for _, f := range faces {
		c[f-1]++
	}
	return c
}

// TestDiceReportFlagsALoadedDie logs 600 faces of a die loaded 2,3,3,3,3,4
// (out of 18, the report's own bias) by one actor and 600 of a fair die by
// another: the loaded one is flagged, the fair one is not, and with two
// sources the p-values are Holm-corrected.
func TestDiceReportFlagsALoadedDie(t *testing.T) {
	s := diceFile(t, rules.Edition2021, nil)
	loaded := drawFaces(600, [6]int{2, 3, 3, 3, 3, 4})
	fair := drawFaces(600, [6]int{1, 1, 1, 1, 1, 1})
	rollBare(t, s, "loaded", loaded)

	// Alone, the loaded die is one source: no correction.
	alone := mustDiceReport(t, s, DiceQuery{})
	if alone.Holm || len(alone.Sources) != 1 {
		t.Fatalf("one source: holm %v, sources %+v", alone.Holm, alone.Sources)
	}
	if d := alone.Sources[0]; d.PValue != d.PRaw {
		t.Errorf("one source: p %v, raw %v; no correction is due", d.PValue, d.PRaw)
	}

	rollBare(t, s, "fair", fair)
	before := count(t, s)
	rep := mustDiceReport(t, s, DiceQuery{})
	if count(t, s) != before {
		t.Fatalf("the report appended %d events", count(t, s)-before)
	}
	if len(rep.Sources) != 2 || !rep.Holm {
		t.Fatalf("two sources: holm %v, sources %+v", rep.Holm, rep.Sources)
	}
	if rep.Level != DiceLevel || DiceLevel != 0.01 {
		t.Errorf("level %v", rep.Level)
	}
	ld := sourceOf(t, rep, "loaded", true)
	fd := sourceOf(t, rep, "fair", true)
	for _, c := range []struct {
		d       projections.DieReport
		faces   []int
		flagged bool
	}{{ld, loaded, true}, {fd, fair, false}} {
		d := c.d
		if d.Thrown != 600 || d.Sides != 6 || d.DF != 5 || !slices.Equal(d.Faces, facesCount(c.faces)) {
			t.Errorf("%s: thrown %d, sides %d, df %d, faces %v; want 600 faces %v", d.Actor, d.Thrown, d.Sides, d.DF, d.Faces, facesCount(c.faces))
		}
		// Pearson's statistic by hand: sum (o-100)^2/100.
		var chi2 float64
		for _, o := range facesCount(c.faces) {
			chi2 += float64((o-100)*(o-100)) / 100
		}
		if math.Abs(d.Chi2-chi2) > 1e-9 {
			t.Errorf("%s: chi2 %v, by hand %v", d.Actor, d.Chi2, chi2)
		}
		if d.PValue < d.PRaw {
			t.Errorf("%s: Holm's p %v below the raw %v", d.Actor, d.PValue, d.PRaw)
		}
		if d.Flagged != c.flagged || d.Flagged != (d.PValue < 0.01) {
			t.Errorf("%s: flagged %v at p %v (raw %v), want %v", d.Actor, d.Flagged, d.PValue, d.PRaw, c.flagged)
		}
		if d.Power <= 0.01 || d.Power >= 1 || d.FacesFor90 <= 0 {
			t.Errorf("%s: power %v, faces for 90%% %d", d.Actor, d.Power, d.FacesFor90)
		}
	}
	if ld.PValue >= 0.01 || !strings.HasPrefix(ld.Verdict, "flagged") {
		t.Errorf("loaded: p %v, verdict %q", ld.PValue, ld.Verdict)
	}
	// The same number of faces gives the same power, whatever they were.
	if ld.Power != fd.Power {
		t.Errorf("power %v and %v at 600 faces each", ld.Power, fd.Power)
	}
	// Holm's step-down for two: the smaller p doubled, the larger at
	// least that and itself.
	lo, hi := min(ld.PRaw, fd.PRaw), max(ld.PRaw, fd.PRaw)
	if got := min(ld.PValue, fd.PValue); math.Abs(got-min(1, 2*lo)) > 1e-15 {
		t.Errorf("Holm: smaller p %v, want 2×%v", got, lo)
	}
	if got := max(ld.PValue, fd.PValue); math.Abs(got-min(1, max(2*lo, hi))) > 1e-15 {
		t.Errorf("Holm: larger p %v, want max(2×%v, %v)", got, lo, hi)
	}
}

// TestDiceReportLuckExact checks a character's luck against the exact
// distribution of passes.
func TestDiceReportLuckExact(t *testing.T) {
	s := diceFile(t, rules.Edition2021, nil)
	// DX 10: 3/DX passes on 10 or less, exactly half of 3d6 (an 11 would
	// pass 62.5% of the time, 2021 "Passing a Check").
	mustCreate(t, s, "Ajax", 12, 10, 10)
	for range 20 {
		r, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax", Faces: []int{1, 2, 3}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Roll.Probability != 0.5 || r.Roll.Outcome != "pass" {
			t.Fatalf("3/DX [1 2 3] at DX 10: %+v", r.Roll)
		}
	}
	rep := mustDiceReport(t, s, DiceQuery{})
	l := luckIn(t, rep, "Ajax")
	want := 100 * (1 - math.Pow(0.5, 20))
	if l.Checks != 20 || l.Passed != 20 || l.Expected != 10 || math.Abs(l.Percentile-want) > 1e-9 || l.Rerolled != nil {
		t.Fatalf("20 passes at 1/2: %+v, want percentile %v", l, want)
	}
	if len(l.Adventures) != 1 || l.Adventures[0].Adventure != 0 || l.Adventures[0].Luck != l.Luck {
		t.Errorf("between adventures: %+v", l.Adventures)
	}

	// The row: every 3/DX at 11 passed over 20 rolls. 3d6 comes
	// to 11 or less in 135 of its 216 throws, so the chance of doing
	// worse is 1 − (135/216)^20, by hand.
	mustCreate(t, s, "Paris", 12, 11, 9)
	for range 20 {
		if _, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Paris", Faces: []int{6, 4, 1}}); err != nil {
			t.Fatal(err)
		}
	}
	paris := luckIn(t, mustDiceReport(t, s, DiceQuery{}), "Paris")
	byHand := 100 * (1 - math.Pow(135.0/216.0, 20))
	if paris.Checks != 20 || paris.Passed != 20 || math.Abs(paris.Expected-12.5) > 1e-12 || math.Abs(paris.Percentile-byHand) > 1e-9 {
		t.Errorf("20 passes of 3/DX at 11: %+v, want percentile %v", paris.Luck, byHand)
	}

	// Mixed chances: Hector (ST 11, DX 12, IQ 9) passes 3/ST, fails
	// 3/DX, passes 4/IQ.
	mustCreate(t, s, "Hector", 11, 12, 9)
	rolls := []struct {
		expr  string
		faces []int
		p     float64
		pass  bool
	}{
		{"3/ST", []int{2, 3, 4}, rules.PassProbability(3, 11, 0), true},
		{"3/DX", []int{6, 5, 4}, rules.PassProbability(3, 12, 0), false},
		{"4/IQ", []int{1, 2, 3, 2}, rules.PassProbability(4, 9, 0), true},
	}
	for _, c := range rolls {
		r, err := s.Roll(RollRequest{Expr: c.expr, Character: "Hector", Faces: c.faces})
		if err != nil {
			t.Fatal(err)
		}
		if (r.Roll.Outcome == "pass") != c.pass || r.Roll.Probability != c.p {
			t.Fatalf("%s %v: %+v", c.expr, c.faces, r.Roll)
		}
	}
	// P(fewer than 2 passes), enumerated over the 8 outcomes.
	var below, expected float64
	for mask := 0; mask < 8; mask++ {
		p, passes := 1.0, 0
		for i, c := range rolls {
			if mask&(1<<i) != 0 {
				p, passes = p*c.p, passes+1
			} else {
				p *= 1 - c.p
			}
		}
		if passes < 2 {
			below += p
		}
	}
	for _, c := range rolls {
		expected += c.p
	}
	h := luckIn(t, mustDiceReport(t, s, DiceQuery{}), "Hector")
	if h.Checks != 3 || h.Passed != 2 || math.Abs(h.Expected-expected) > 1e-12 || math.Abs(h.Percentile-100*below) > 1e-9 {
		t.Fatalf("Hector: %+v, want expected %v, percentile %v", h.Luck, expected, 100*below)
	}
}

// TestDiceReportRerollsAndUndo: a karma re-roll counts the roll that stood
// and sets the one it replaced apart; an undone command's dice are not
// counted at all.
func TestDiceReportRerollsAndUndo(t *testing.T) {
	s := diceFile(t, rules.Edition2021, nil)
	mustCreate(t, s, "Ajax", 12, 10, 10)
	failed, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax", Faces: []int{6, 5, 4}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.GrantKarma("Ajax", 1, "luck"); err != nil {
		t.Fatal(err)
	}
	rr, err := s.Reroll(RerollRequest{Roll: failed.Event.ID, Faces: []int{1, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	rep := mustDiceReport(t, s, DiceQuery{})
	l := luckIn(t, rep, "Ajax")
	if l.Checks != 1 || l.Passed != 1 || l.Expected != 0.5 {
		t.Errorf("the re-roll that stood: %+v", l.Luck)
	}
	if l.Rerolled == nil || l.Rerolled.Checks != 1 || l.Rerolled.Passed != 0 || l.Rerolled.Expected != 0.5 {
		t.Errorf("the roll replaced: %+v", l.Rerolled)
	}
	// Both throws were made: six faces.
	d := sourceOf(t, rep, "gm", true)
	if !slices.Equal(d.Faces, []int64{2, 1, 0, 1, 1, 1}) {
		t.Errorf("faces %v, want the failed roll's and the re-roll's", d.Faces)
	}

	// A roll undone counts for nothing: neither its faces nor its check.
	if _, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax", Faces: []int{6, 6, 3}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Undo(UndoRequest{Reason: "wrong character"}); err != nil {
		t.Fatal(err)
	}
	after := mustDiceReport(t, s, DiceQuery{})
	if got := sourceOf(t, after, "gm", true); !slices.Equal(got.Faces, d.Faces) {
		t.Errorf("after the undo: faces %v, want %v", got.Faces, d.Faces)
	}
	if got := luckIn(t, after, "Ajax"); got.Luck != l.Luck || *got.Rerolled != *l.Rerolled {
		t.Errorf("after the undo: %+v rerolled %+v, want %+v", got.Luck, got.Rerolled, l.Luck)
	}

	// Undoing the re-roll puts the failed roll back as the one that stood,
	// with its three faces alone.
	if _, err := s.Undo(UndoRequest{Target: rr.Events[0].CommandID, Reason: "no karma after all"}); err != nil {
		t.Fatal(err)
	}
	back := mustDiceReport(t, s, DiceQuery{})
	if got := luckIn(t, back, "Ajax"); got.Checks != 1 || got.Passed != 0 || got.Rerolled != nil {
		t.Errorf("the re-roll undone: %+v rerolled %+v, want the failed roll alone", got.Luck, got.Rerolled)
	}
	if got := sourceOf(t, back, "gm", true); !slices.Equal(got.Faces, []int64{0, 0, 0, 1, 1, 1}) {
		t.Errorf("the re-roll undone: faces %v, want the failed roll's", got.Faces)
	}
}

// TestDiceReportRerollOfAnUndoneRoll: a re-roll in effect whose roll was
// undone (Reroll takes such a roll today, and verify reports the pair; here
// it is appended by hand) stands as the one roll of Ajax's the log has in
// effect: the roll undone was never counted, so nothing is set apart
// (DiceTally.unstand: "when the tally counted it").
func TestDiceReportRerollOfAnUndoneRoll(t *testing.T) {
	s := diceFile(t, rules.Edition2021, nil)
	mustCreate(t, s, "Ajax", 12, 10, 10)
	r, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax", Faces: []int{6, 6, 5}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Undo(UndoRequest{Reason: "wrong roll"}); err != nil {
		t.Fatal(err)
	}
	again := r.Roll
	again.Faces, again.Sum, again.Total, again.Margin, again.Outcome, again.Rerolls = []int{1, 1, 1}, 3, 3, 7, "pass", r.Event.ID
	at, _ := again.GameTimeOf()
	appendRawCommand(t, s, &at, rawEvent{r.Event.Stream, again})

	rep := mustDiceReport(t, s, DiceQuery{})
	l := luckIn(t, rep, "Ajax")
	if l.Checks != 1 || l.Passed != 1 || l.Rerolled != nil {
		t.Errorf("Ajax: %+v, rerolled %+v; want the re-roll alone, 1 check passed", l.Luck, l.Rerolled)
	}
	if d := sourceOf(t, rep, "mallory", true); !slices.Equal(d.Faces, []int64{3, 0, 0, 0, 0, 0}) || len(rep.Sources) != 1 {
		t.Errorf("sources %+v: want the re-roll's three 1s alone", rep.Sources)
	}
}

// TestDiceReportFilters narrows the report by actor, character,
// adventure and source, and refuses what cannot be asked.
func TestDiceReportFilters(t *testing.T) {
	// The program's dice come up 1, 2, 3, 4, 5, 6, 1, ...
	var next int
	prog := rules.Roller(rollerFunc(func(count, sides int) ([]int, error) {
		out := make([]int, count)
		for i := range out {
			out[i] = next%sides + 1
			next++
		}
		return out, nil
	}))
	s := diceFile(t, rules.Edition2021, prog)
	mustCreate(t, s, "Ajax", 12, 10, 10)
	mustCreate(t, s, "Hector", 11, 12, 9)
	roll := func(actor, who string, faces []int) {
		t.Helper()
		if err := s.SetActor(actor); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Roll(RollRequest{Expr: "3/DX", Character: who, Faces: faces}); err != nil {
			t.Fatal(err)
		}
	}
	roll("ann", "Ajax", []int{1, 1, 1}) // between adventures
	if _, err := s.AdventureStart("One"); err != nil {
		t.Fatal(err)
	}
	roll("ann", "Ajax", []int{2, 2, 2})
	roll("bob", "Hector", []int{3, 3, 3})
	if _, err := s.AdventureEnd(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AdventureStart("Two"); err != nil {
		t.Fatal(err)
	}
	roll("bob", "Hector", []int{4, 4, 4})
	roll("bob", "Ajax", nil) // the program's: 1, 2, 3

	type want struct {
		sources map[string][]int64 // "actor/source" → faces
		luck    map[string]int     // character → checks
	}
	f := func(c ...int64) []int64 { return c }
	cases := []struct {
		name string
		q    DiceQuery
		want want
	}{
		{"all", DiceQuery{}, want{map[string][]int64{"ann/physical": f(3, 3, 0, 0, 0, 0), "bob/physical": f(0, 0, 3, 3, 0, 0), "/program": f(1, 1, 1, 0, 0, 0)},
			map[string]int{"Ajax": 3, "Hector": 2}}},
		{"actor", DiceQuery{Actor: "bob"}, want{map[string][]int64{"bob/physical": f(0, 0, 3, 3, 0, 0), "/program": f(1, 1, 1, 0, 0, 0)},
			map[string]int{"Ajax": 1, "Hector": 2}}},
		{"character", DiceQuery{Character: "ajax"}, want{map[string][]int64{"ann/physical": f(3, 3, 0, 0, 0, 0), "/program": f(1, 1, 1, 0, 0, 0)},
			map[string]int{"Ajax": 3}}},
		{"adventure 1", DiceQuery{Adventure: 1}, want{map[string][]int64{"ann/physical": f(0, 3, 0, 0, 0, 0), "bob/physical": f(0, 0, 3, 0, 0, 0)},
			map[string]int{"Ajax": 1, "Hector": 1}}},
		{"adventure 2", DiceQuery{Adventure: 2}, want{map[string][]int64{"bob/physical": f(0, 0, 0, 3, 0, 0), "/program": f(1, 1, 1, 0, 0, 0)},
			map[string]int{"Ajax": 1, "Hector": 1}}},
		// --physical and --program narrow both: the die sources, and the
		// luck to the checks thrown with such dice (docs/dice.md).
		{"physical", DiceQuery{Physical: true}, want{map[string][]int64{"ann/physical": f(3, 3, 0, 0, 0, 0), "bob/physical": f(0, 0, 3, 3, 0, 0)},
			map[string]int{"Ajax": 2, "Hector": 2}}},
		{"program", DiceQuery{Program: true}, want{map[string][]int64{"/program": f(1, 1, 1, 0, 0, 0)},
			map[string]int{"Ajax": 1}}},
		{"actor and character", DiceQuery{Actor: "bob", Character: "Hector", Adventure: 2}, want{map[string][]int64{"bob/physical": f(0, 0, 0, 3, 0, 0)},
			map[string]int{"Hector": 1}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := count(t, s)
			rep := mustDiceReport(t, s, c.q)
			if count(t, s) != before {
				t.Fatalf("the report appended %d events", count(t, s)-before)
			}
			got := map[string][]int64{}
			for _, d := range rep.Sources {
				got[d.Actor+"/"+d.Source] = d.Faces
			}
			if len(got) != len(c.want.sources) {
				t.Errorf("sources %v, want %v", got, c.want.sources)
			}
			for k, w := range c.want.sources {
				if !slices.Equal(got[k], w) {
					t.Errorf("source %s: faces %v, want %v", k, got[k], w)
				}
			}
			if len(rep.Characters) != len(c.want.luck) {
				t.Errorf("characters %+v, want %v", rep.Characters, c.want.luck)
			}
			for name, n := range c.want.luck {
				if l := luckIn(t, rep, name); l.Checks != n {
					t.Errorf("%s: %d checks, want %d", name, l.Checks, n)
				}
			}
			if rep.Holm != (len(rep.Sources) > 1) {
				t.Errorf("holm %v with %d sources", rep.Holm, len(rep.Sources))
			}
		})
	}

	// The filter is echoed: the character by his name as the roster has it.
	rep := mustDiceReport(t, s, DiceQuery{Actor: " bob ", Character: "hector", Adventure: 2, Physical: true})
	if rep.Filter != (projections.DiceReportFilter{Actor: "bob", Character: "Hector", Adventure: 2, Source: "physical"}) {
		t.Errorf("filter %+v", rep.Filter)
	}
	if rep.Campaign != "Dice" || rep.Edition != "2021" || rep.Seq != count(t, s) {
		t.Errorf("campaign %q, edition %q, seq %d (log of %d)", rep.Campaign, rep.Edition, rep.Seq, count(t, s))
	}
	// Per adventure: Ajax's checks by adventure, 0 between adventures.
	var advs []int
	for _, a := range luckIn(t, mustDiceReport(t, s, DiceQuery{}), "Ajax").Adventures {
		advs = append(advs, a.Adventure)
	}
	if !slices.Equal(advs, []int{0, 1, 2}) {
		t.Errorf("Ajax's adventures %v, want [0 1 2]", advs)
	}

	for _, c := range []struct {
		name string
		q    DiceQuery
		code rules.Code
		says string
	}{
		{"unknown character", DiceQuery{Character: "Achilles"}, rules.CodeNotFound, "Achilles"},
		{"both sources", DiceQuery{Physical: true, Program: true}, rules.CodeInvalid, "--physical and --program"},
		{"adventure not yet had", DiceQuery{Adventure: 3}, rules.CodeNotFound, "no adventure 3"},
		{"negative adventure", DiceQuery{Adventure: -1}, rules.CodeInvalid, "--adventure"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := count(t, s)
			_, err := s.DiceReport(c.q)
			if rules.CodeOf(err) != c.code || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("err %v (code %q), want %q naming %q", err, rules.CodeOf(err), c.code, c.says)
			}
			if count(t, s) != before {
				t.Fatal("a refused report appended events")
			}
		})
	}
}

// rollerFunc is a rules.Roller from a function.
type rollerFunc func(count, sides int) ([]int, error)

func (f rollerFunc) Roll(count, sides int) ([]int, error) { return f(count, sides) }
