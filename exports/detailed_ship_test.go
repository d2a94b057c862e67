package exports

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules/interceptor"
	"github.com/ltscamp/ltscamp/rules/interceptor/interceptortest"
)

// spaceGull is the SPACE GULL of the book's example (docs/interceptor.md).
func spaceGull() events.DetailedRecord {
	return projections.RecordOf(interceptortest.SpaceGull())
}

// tern is the record of docs/interceptor.md that uses every key, with
// the Space Gull's forward armour, so that the book's worked example
// (l.327) widows column 4.
func tern() events.DetailedRecord {
	sp := interceptortest.Tern()
	sp.Armour.Forward = 80
	return projections.RecordOf(sp)
}

// foldDetailed folds a detailed ship built from rec and hit by hits, as
// the campaign does from its stream; each hit's crew rolls are made.
func foldDetailed(t *testing.T, rec events.DetailedRecord, hits ...events.DetailedShipHit) projections.DetailedShip {
	t.Helper()
	var sh projections.DetailedShip
	apply := func(seq int64, p events.Payload) {
		raw, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		e := events.Event{Seq: seq, StreamVersion: seq - 9, Type: p.EventType(), PayloadVersion: p.PayloadVersion(), Payload: raw}
		if err := sh.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	apply(10, events.DetailedShipBuilt{ShipID: "01M8355A0000000000000000DS", Name: rec.Name, Record: rec, File: "gull.yaml"})
	for i, h := range hits {
		// The crew rolls the hit calls for are made with 1s: everyone
		// stays conscious.
		c := sh
		one := func() (int, bool, error) { return 1, true, nil }
		made, err := c.MakeHit(&h, one, one)
		if err != nil {
			t.Fatal(err)
		}
		h.CrewRolls, h.JamRolls = made.CrewRolls, made.JamRolls
		apply(int64(11+i), h)
	}
	return sh
}

func laser(facing string, column, points int) events.DetailedShipHit {
	return events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: facing, Column: column, Points: points, Entered: true}}
}

// gullDoc is the book's worked example (l.327): two 6-point lasers in
// columns 3 and 5 of the Space Gull's forward block.
func gullDoc(t *testing.T) DetailedShipDoc {
	return NewDetailedShipDoc(testTrace, foldDetailed(t, spaceGull(), laser("forward", 3, 6), laser("forward", 5, 6)))
}

// ternDoc is a Tern after the worked example's lasers and the sample
// MDC 10 centred on column 5 (which widows column 4, l.327), a laser
// through the left armour's external into the internal block, and a laser
// down column 5 that disables the cockpit.
func ternDoc(t *testing.T) DetailedShipDoc {
	var mdc events.ShipTemplate
	for _, s := range interceptor.SampleTemplates() {
		if strings.HasPrefix(s.Name, "MDC 10") {
			mdc = events.ShipTemplate{Name: s.Name, Rows: s.Rows()}
		}
	}
	tmpl := events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Column: 5, Template: &mdc, Sample: true, Entered: true}}
	sh := foldDetailed(t, tern(), laser("forward", 3, 6), laser("forward", 5, 6), tmpl, laser("left", 3, 7), laser("forward", 6, 11))
	return NewDetailedShipDoc(testTrace, sh)
}

// The worked example's forward block: rows 1-6 of columns 3 and 5 gone.
const gullForward = "```text\n" +
	"    1  2  3  4  5  6  7  8  9  10\n" +
	"  1 o  o  x  o  x  o  o  o  o  o\n" +
	"  2 o  o  x  o  x  o  o  o  o  o\n" +
	"  3 o  o  x  o  x  o  o  o  o  o\n" +
	"  4 o  o  x  o  x  o  o  o  o  o\n" +
	"  5 o  o  x  o  x  o  o  o  o  o\n" +
	"  6 o  o  x  o  x  o  o  o  o  o\n" +
	"  7 o  o  o  o  o  o  o  o  o  o\n" +
	"  8 o  o  o  o  o  o  o  o  o  o\n" +
	"```\n"

// TestMarkdownDetailedShip: the worked example as Markdown: each block a
// code block of the rules' grid, every line within 80 columns, the
// components table, the footer; the same bytes twice and in the golden
// file.
func TestMarkdownDetailedShip(t *testing.T) {
	d := gullDoc(t)
	md := mdRender(t, d)
	tables := checkMarkdown(t, "detailed-ship.md", md)
	mdGolden(t, "detailed-ship.md", md)
	if again := mdRender(t, d); !bytes.Equal(again, md) {
		t.Error("two renders of one document differ")
	}
	out := string(md)
	for _, want := range []string{
		"# Space Gull — detailed record (INTERCEPTOR)\n",
		"\n2 hits in effect; record `gull.yaml`.\n",
		"\n**Forward armour (80 boxes)**: 68 intact, 12 destroyed, 0 widowed\n\n" + gullForward,
		"\n**Aft armour (40 boxes)**: 40 intact, 0 destroyed, 0 widowed\n",
		"\n**Internal components**: 0 of 40 boxes destroyed\n\n```text\n" +
			"    1   2   3   4   5   6   7   8   9   10\n" +
			"  1 F   F   F   F   F   F   F   F   F   F\n" +
			"  2 E1  E1  P   P   C   C   P   P   E2  E2\n",
		"\no intact armour, x destroyed, \\~ widowed, E external system, CODE\\* box of a\ndisabled component\n",
		"\n| P | Powerplant | 8 | 0 | ok |\n",
		"\n## External systems\n\nNone.\n",
		"\n## Crew\n\nNone.\n",
		"\n---\n\n*Kit-Kat crew (edition 2021), folded at seq 33, hash `" + testTrace.Hash + "`*\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, out)
		}
	}
	if len(tables) != 1 || len(tables[0].rows) != 6 {
		t.Errorf("want one table of 6 components, got %d tables", len(tables))
	}
	for i, line := range strings.Split(out, "\n") {
		if n := len([]rune(line)); n > 80 && !strings.HasPrefix(line, "*Kit-Kat crew") {
			t.Errorf("line %d is %d columns: %q", i+1, n, line)
		}
	}
}

// TestMarkdownDetailedShipDamaged: widowed armour, a lost external, a
// disabled component, a turret and crew are drawn and listed.
func TestMarkdownDetailedShipDamaged(t *testing.T) {
	d := ternDoc(t)
	md := mdRender(t, d)
	tables := checkMarkdown(t, "detailed-ship-damaged.md", md)
	mdGolden(t, "detailed-ship-damaged.md", md)
	out := string(md)
	for _, re := range []string{
		regexp.QuoteMeta("```text\n    1  2  3  4  5  6  7  8  9  10\n  1 o  o  x  ~  x  x  o  o  o  o\n"), // column 4 widowed
		`(?m)^  3 E1  E1  x   P   C\*  x   P`,                                                       // the cockpit disabled
		regexp.QuoteMeta("\n    1  2  3  4  5  6  7  8  9  10\next .  .  x  .  .  .  .  .  .  .\n"), // the Port Rack lost
		`\| C \| Cockpit \| 4 \| 3 \| disabled \|`,
		`\| Port Rack \| External Hardpoint \| left \| 3 \| destroyed \|`,
		`\| Rescue Pod \| External Rescue Compartment \| aft \| 10 \| intact \|`,
		"\n## Turret 1: Dorsal\n",
		`\*\*Turret 1 Dorsal armour \(20 boxes\)\*\*\n`,
		`\*\*Turret 1 Dorsal internal components\*\*: 0 of 20 boxes destroyed\n`,
		`\| T \| Turret Structure \| 10 \| 0 \| ok \|`,
		`\| Marcos \| human \| C \| `,
		`\| Grusk \| kessrith \| Q \| `,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("the Markdown does not match %s:\n%s", re, out)
		}
	}
	if len(tables) != 4 {
		t.Errorf("%d tables, want components, externals, the turret's components and crew", len(tables))
	}
}

// TestDetailedShipJSON: the JSON export is `ship show --json`'s view.
func TestDetailedShipJSON(t *testing.T) {
	d := gullDoc(t)
	var got, want bytes.Buffer
	if err := JSON(&got, d); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&want, d.Ship); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) || !strings.Contains(got.String(), `"kind": "detailed"`) {
		t.Errorf("JSON export:\n%s\nwant:\n%s", got.String(), want.String())
	}
}

// TestTemplateDetailedShipCopy: a copy of the built-in layout renders as
// it does, for a user to start from.
func TestTemplateDetailedShipCopy(t *testing.T) {
	text, err := templateFiles.ReadFile("templates/detailed-ship.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []DetailedShipDoc{gullDoc(t), ternDoc(t)} {
		if got, want := mdUserTemplate(t, "my-ship.md.tmpl", string(text), d), string(mdRender(t, d)); got != want {
			t.Errorf("a copy of detailed-ship.md.tmpl renders otherwise:\n%s", got)
		}
	}
}

// TestPDFDetailedShip: the Space Gull is one page whose text carries
// every block's grid, the legend, the components and the trace; the Tern
// shows its turret, externals and crew.
func TestPDFDetailedShip(t *testing.T) {
	for _, paper := range []Paper{PaperA4, PaperLetter} {
		pages, _, text := readPDF(t, renderPDF(t, gullDoc(t), paper))
		if pages != 1 {
			t.Fatalf("%s: the Space Gull on %d pages, want 1", paper, pages)
		}
		wantText(t, text, "Space Gull", "Detailed record (INTERCEPTOR)", "2 hits in effect",
			"Forward armour (80 boxes): 68 intact, 12 destroyed, 0 widowed", "Right armour (40 boxes)",
			"Internal components: 0 of 40 boxes destroyed", "o intact armour, x destroyed, ~ widowed",
			"Powerplant", "Ship Destroyed", "folded at seq 33", "hash "+testTrace.Hash, "page 1 of 1")
		// Rows 5-8 of the forward block stand alone (the aft block beside
		// it has 4 rows); rows 1-4 have the aft's beside them.
		for _, re := range []string{
			`(?m)^\s*1\s+o\s+o\s+x\s+o\s+x(\s+o){5}\s+1(\s+o){10}\s*$`,
			`(?m)^\s*6\s+o\s+o\s+x\s+o\s+x(\s+o){5}\s*$`,
			`(?m)^\s*8(\s+o){10}\s*$`,
			`(?m)^\s*2\s+E1\s+E1\s+P\s+P\s+C\s+C\s+P\s+P\s+E2\s+E2\s*$`,
			`(?m)^\s*P\s+Powerplant\s+8\s+0\s+ok\s*$`,
		} {
			if !regexp.MustCompile(re).MatchString(text) {
				t.Errorf("%s: the PDF's text does not match %s:\n%s", paper, re, text)
			}
		}
	}
	if dir := os.Getenv("LTSCAMP_PDF_DIR"); dir != "" {
		// For a look by eye: pdftoppm -png -r 60 DIR/space-gull.pdf.
		for name, d := range map[string]DetailedShipDoc{"space-gull.pdf": gullDoc(t), "tern.pdf": ternDoc(t)} {
			if err := os.WriteFile(filepath.Join(dir, name), renderPDF(t, d, PaperA4), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	_, _, text := readPDF(t, renderPDF(t, ternDoc(t), PaperA4))
	wantText(t, text, "Tern", "Turret 1: Dorsal", "Turret Structure", "Port Rack", "widowed", "Marcos", "kessrith", "disabled", "C*")
}

// brokenUpDoc is a Space Gull without left armour, two Ship Destroyed
// boxes lost, whose pilot failed the collapse roll (1 against 2) and the
// chart broke it up (3): 8 turns to abandon ship (book l.467).
func brokenUpDoc(t *testing.T) DetailedShipDoc {
	t.Helper()
	sp := interceptortest.SpaceGull()
	sp.Armour.Left = 0
	sh := foldDetailed(t, projections.RecordOf(sp), laser("left", 9, 4), laser("left", 10, 4))
	faces := []int{1, 3}
	c := sh
	turn, err := c.EndTurn(func() (int, bool, error) { f := faces[0]; faces = faces[1:]; return f, true, nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(turn)
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.Apply(events.Event{Seq: 13, StreamVersion: 4, Type: turn.EventType(), PayloadVersion: turn.PayloadVersion(), Payload: raw}); err != nil {
		t.Fatal(err)
	}
	return NewDetailedShipDoc(testTrace, sh)
}

// TestDetailedShipBrokenUpExports: a ship a structural collapse broke up
// says so in every export, with the turns left to abandon ship.
func TestDetailedShipBrokenUpExports(t *testing.T) {
	d := brokenUpDoc(t)
	md := string(mdRender(t, d))
	for _, want := range []string{
		"# Space Gull — BROKEN UP\n",
		"\n**out of action permanently (a structural collapse); 8 turns left to abandon ship**\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md)
		}
	}
	var js bytes.Buffer
	if err := JSON(&js, d); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"broken_up": true`) || !strings.Contains(js.String(), `"abandon_turns": 8`) {
		t.Errorf("the JSON:\n%s", js.String())
	}
	_, _, text := readPDF(t, renderPDF(t, d, PaperA4))
	wantText(t, text, "BROKEN UP: out of action permanently (a structural collapse); 8 turns left to abandon ship")
}
