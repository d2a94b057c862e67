package exports

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

var update = flag.Bool("update", false, "rewrite golden files")

// mdGolden compares got with testdata/golden/name, or rewrites the file
// with -update.
func mdGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./exports -run Markdown -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test ./exports -run Markdown -update rewrites it):\n--- got ---\n%s", name, got)
	}
}

// mdRender renders doc with the built-in layout.
func mdRender(t *testing.T, doc any) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Markdown(&b, doc); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// mdCells splits a GitHub table row into its cells as GitHub does: at
// every "|" that no backslash escapes (in code spans too), less the
// leading and trailing pipe.
func mdCells(row string) []string {
	var cells []string
	var cell strings.Builder
	for i := 0; i < len(row); i++ {
		switch {
		case row[i] == '\\' && i+1 < len(row):
			cell.WriteString(row[i : i+2])
			i++
		case row[i] == '|':
			cells = append(cells, strings.TrimSpace(cell.String()))
			cell.Reset()
		default:
			cell.WriteByte(row[i])
		}
	}
	cells = append(cells, strings.TrimSpace(cell.String()))
	if len(cells) > 0 && cells[0] == "" && strings.HasPrefix(strings.TrimSpace(row), "|") {
		cells = cells[1:]
	}
	if len(cells) > 0 && cells[len(cells)-1] == "" && strings.HasSuffix(strings.TrimSpace(row), "|") && !strings.HasSuffix(row, `\|`) {
		cells = cells[:len(cells)-1]
	}
	return cells
}

// mdTable is one table found by checkMarkdown.
type mdTable struct {
	header []string
	aligns []string
	rows   [][]string
}

// checkMarkdown checks md as GitHub and pandoc need it, and returns its
// tables: every table has a header row, a delimiter row with as many
// columns, body rows with as many cells, and a blank line before and
// after; a column of numbers is right-aligned. The text ends with exactly
// one newline, has no trailing spaces and no run of blank lines.
func checkMarkdown(t *testing.T, name string, md []byte) []mdTable {
	t.Helper()
	if !bytes.HasSuffix(md, []byte("\n")) || bytes.HasSuffix(md, []byte("\n\n")) {
		t.Errorf("%s: the output must end with exactly one newline", name)
	}
	if bytes.Contains(md, []byte("\n\n\n")) {
		t.Errorf("%s: a run of blank lines", name)
	}
	delimiter := regexp.MustCompile(`^\|( *:?-{3,}:? *\|)+$`)
	number := regexp.MustCompile(`^(~~)?[+-]?[0-9]+((/| of )[0-9]+)?(~~)?$|^–$`)
	lines := strings.Split(strings.TrimSuffix(string(md), "\n"), "\n")
	var tables []mdTable
	for i := 0; i < len(lines); i++ {
		if strings.TrimRight(lines[i], " \t") != lines[i] {
			t.Errorf("%s:%d: trailing white space: %q", name, i+1, lines[i])
		}
		if !strings.HasPrefix(lines[i], "|") {
			continue
		}
		at := i + 1
		if i > 0 && lines[i-1] != "" {
			t.Errorf("%s:%d: a table must follow a blank line", name, at)
		}
		tb := mdTable{header: mdCells(lines[i])}
		if i+1 >= len(lines) || !delimiter.MatchString(lines[i+1]) {
			t.Errorf("%s:%d: a table header without a delimiter row: %s", name, at, lines[i])
			continue
		}
		tb.aligns = mdCells(lines[i+1])
		if len(tb.aligns) != len(tb.header) {
			t.Errorf("%s:%d: %d header cells, %d delimiter cells", name, at, len(tb.header), len(tb.aligns))
		}
		for i += 2; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
			cells := mdCells(lines[i])
			if len(cells) != len(tb.header) {
				t.Errorf("%s:%d: %d cells in a table of %d columns: %s", name, i+1, len(cells), len(tb.header), lines[i])
			}
			tb.rows = append(tb.rows, cells)
		}
		if i < len(lines) && lines[i] != "" {
			t.Errorf("%s:%d: a table must be followed by a blank line", name, i+1)
		}
		if len(tb.rows) == 0 {
			t.Errorf("%s:%d: a table without rows", name, at)
		}
		for c := range tb.header {
			numbers, cells := true, 0
			for _, r := range tb.rows {
				if c < len(r) && r[c] != "" {
					cells++
					numbers = numbers && number.MatchString(r[c])
				}
			}
			if numbers && cells > 0 && c < len(tb.aligns) && !strings.HasSuffix(tb.aligns[c], "-:") {
				t.Errorf("%s:%d: column %q holds numbers but is not right-aligned (---:)", name, at, tb.header[c])
			}
		}
		tables = append(tables, tb)
	}
	return tables
}

// The extra documents of the golden files: every branch of each layout.

func mdDeadSheetDoc() SheetDoc {
	s := testSheet("Ærin")
	s.Status, s.Dead, s.DeathCause = projections.StatusDead, true, "died of wounds at the end of encounter 2"
	s.Skills, s.Weapon = nil, nil
	s.Armor = &projections.Armor{Item: "vacc-suit", Name: "Vacc Suit", Protection: 1, Restriction: 2, NoBullets: true, SpaceSuit: true, Failed: true}
	s.Karma, s.ExpiringKarma, s.Damage, s.Fatigue = 3, 1, 14, 0
	s.Adjusted = projections.Adjusted{DX: 9, MA: 4}
	tr := testTrace
	tr.AsOf, tr.Seq = true, 21
	return SheetDoc{Trace: tr, Sheet: s}
}

func mdGearSheetDoc() SheetDoc {
	d := testSheetDoc()
	d.Sheet.Name = "Łukasz"
	d.Sheet.Weapon = &projections.Weapon{Item: "club", Name: "Club", Damage: "d6", Flags: []string{"2", "T"}}
	d.Sheet.Armor = nil
	return d
}

func mdOperationalShipDoc() ShipDoc {
	return ShipDoc{Trace: testTrace, Ship: projections.Ship{
		ID: "01M8355A0000000000000000SK", Name: "Skiff #2", Edition: rules.Edition2020,
		Record: "Engineering1, Operations1, S+1", Cost: 1, CostFormula: "2 sections + S+1 (−1)",
		Sections: []projections.ShipSection{
			{Name: "Engineering", Kind: "engineering", Points: 2, Damage: 1, Crew: []string{"Zoë"}},
			{Name: "Operations", Kind: "operations", Points: 1, Crew: nil},
		},
		Systems: 1, MustReturnToBase: true, Version: 2, Seq: 30,
	}}
}

func mdFailingAuditDoc() AuditDoc {
	d := testAuditDoc()
	at := time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)
	d.Audit.Rows = append(d.Audit.Rows, projections.XPAuditRow{
		Seq: 12, EventID: "01M8355000000000000000EV12", RecordedAt: at, CommandID: "01M8355000000000000000CM12", Actor: "zoe",
		Kind: projections.LedgerSpend, What: "Medic 1→2", Amount: -2, Formula: "next level = 2", Edition: "2010",
		Rules:   &projections.RulesPrice{Price: 3, Formula: "next level + 1 = 3", Edition: rules.Edition2021, Problem: "recorded 2 XP (next level = 2, edition 2010); the 2021 rules give 3 XP (next level + 1 = 3)"},
		Balance: 0,
	})
	d.Audit.Spent, d.Audit.Unspent, d.Audit.SheetUnspent, d.Audit.OK = 20, 0, 1, false
	d.Audit.Assertions = []projections.Assertion{
		{Name: projections.AssertBalance, OK: false, Detail: "earned − spent = unspent: 20 − 20 = 0, but the sheet shows 1"},
		{Name: projections.AssertNeverNegative, OK: true, Detail: "unspent ≥ 0 at every row: lowest 0, after seq 12"},
		{Name: projections.AssertPrices, OK: false, Detail: "every spend priced by the 2021 rules: 1 of 2 spends"},
	}
	return d
}

// mdNastyNames returns names and texts full of what Markdown would read
// as markup: the escaping must show each of them literally.
func mdNastyNames() []string {
	return []string{
		"The | pipe and the *star*",
		"_under_ `tick` ~~gone~~",
		"[link](https://example.com) <b>bold</b>",
		"1. first & &amp; #2 ##",
		"- dash \\ back",
	}
}

func mdEscapesSheetDoc() SheetDoc {
	d, names := testSheetDoc(), mdNastyNames()
	d.Sheet.Name = names[0]
	d.Sheet.Skills = nil
	for i, n := range names {
		d.Sheet.Skills = append(d.Sheet.Skills, projections.Skill{Key: fmt.Sprint(i), Name: n, Level: i})
	}
	d.Sheet.Weapon.Name, d.Sheet.Armor.Name = names[3], names[4]
	return d
}

// mdCase is a document and the name of its golden file.
type mdCase struct {
	name string
	doc  any
}

// mdGoldenDocs are the documents of the golden files: the five kinds
// first, then the other branches of their layouts.
func mdGoldenDocs() []mdCase {
	tl := testTimelineDoc()
	tl.Adventure, tl.Timeline.Periods = 1, tl.Timeline.Periods[1:]
	return []mdCase{
		{"sheet.md", testSheetDoc()},
		{"party.md", testPartyDoc()},
		{"ship.md", testShipDoc()},
		{"timeline.md", testTimelineDoc()},
		{"audit.md", testAuditDoc()},
		{"sheet-dead.md", mdDeadSheetDoc()},
		{"sheet-gear.md", mdGearSheetDoc()},
		{"sheet-escapes.md", mdEscapesSheetDoc()},
		{"party-empty.md", PartyDoc{Trace: testTrace}},
		{"ship-operational.md", mdOperationalShipDoc()},
		{"timeline-adventure.md", tl},
		{"timeline-empty.md", TimelineDoc{Trace: testTrace}},
		{"audit-failing.md", mdFailingAuditDoc()},
		{"audit-empty.md", AuditDoc{Trace: testTrace, Audit: projections.XPAudit{Character: "Zoë", Edition: rules.Edition2021, OK: true}}},
	}
}

// TestMarkdownGolden renders every document kind, and every branch of each
// layout, and compares it with its golden file. Each output is checked for
// well-formed tables, rendered twice to be the same bytes, and carries
// the trace.
func TestMarkdownGolden(t *testing.T) {
	for _, tc := range mdGoldenDocs() {
		t.Run(tc.name, func(t *testing.T) {
			md := mdRender(t, tc.doc)
			if tables := checkMarkdown(t, tc.name, md); len(tables) == 0 && !strings.Contains(tc.name, "empty") {
				t.Errorf("%s: no table", tc.name)
			}
			mdGolden(t, tc.name, md)
			if again := mdRender(t, tc.doc); !bytes.Equal(again, md) {
				t.Error("two renders of one document differ")
			}
			for _, want := range []string{"\n---\n\n*Kit-Kat crew (edition 2021), ", ", hash `" + testTrace.Hash + "`*\n"} {
				if !bytes.Contains(md, []byte(want)) {
					t.Errorf("the footer lacks %q", want)
				}
			}
		})
	}
}

// TestMarkdownFooterAsOf: the footer says "folded at" for the log's head
// and "as of" for an --as-of export.
func TestMarkdownFooterAsOf(t *testing.T) {
	if md := mdRender(t, testSheetDoc()); !bytes.Contains(md, []byte("folded at seq 33, hash `")) {
		t.Errorf("a sheet at the head:\n%s", md)
	}
	d := testSheetDoc()
	d.Trace.AsOf, d.Trace.Seq = true, 7
	if md := mdRender(t, d); !bytes.Contains(md, []byte("as of seq 7, hash `")) {
		t.Errorf("an as-of sheet:\n%s", md)
	}
}

// TestMarkdownSheetWithoutGear: a character with no weapon, no armour and
// no skills gets "none" rows, and a dead one his cause of death.
func TestMarkdownSheetWithoutGear(t *testing.T) {
	d := testSheetDoc()
	d.Sheet.Weapon, d.Sheet.Armor, d.Sheet.Skills = nil, nil, nil
	d.Sheet.Status, d.Sheet.Dead, d.Sheet.DeathCause = projections.StatusDead, true, "killed by a Tyrannosaur"
	md := string(mdRender(t, d))
	checkMarkdown(t, "without gear", []byte(md))
	for _, want := range []string{
		"Edition 2021, status: **dead** — killed by a Tyrannosaur.\n",
		"| Skill | Level |\n|---|---:|\n| none | |\n",
		"| Weapon | Damage | Heft |\n|---|---|---:|\n| none (unarmed) | | |\n",
		"| Armour | Protection | Restriction | Notes |\n|---|---:|---:|---|\n| none | | | |\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the sheet lacks %q:\n%s", want, md)
		}
	}
	d.Sheet.Skills = []projections.Skill{}
	if md2 := string(mdRender(t, d)); md2 != md {
		t.Error("an empty list of skills renders otherwise than a nil one")
	}
}

// TestMarkdownEscapes: names and texts show literally in headings and
// table cells, and never break a table.
func TestMarkdownEscapes(t *testing.T) {
	name := "The | pipe and the *star*"
	d := testPartyDoc()
	d.Trace.Campaign = "# <Crew> [1]"
	d.Sheets[0].Name = name
	d.Sheets[0].Skills = append(d.Sheets[0].Skills, projections.Skill{Key: "x", Name: "Multi\nline|skill_x", Level: 1})
	md := string(mdRender(t, d))
	checkMarkdown(t, "escapes", []byte(md))
	esc := `The \| pipe and the \*star\*`
	for _, want := range []string{
		"# Party of \\# \\<Crew\\> \\[1\\]\n",
		"\n| " + esc + " | ok | 13 |",
		"\n## " + esc + "\n",
		"\n| Multi line\\|skill\\_x | 1 |\n",
		"\n*\\# \\<Crew\\> \\[1\\] (edition 2021), folded at",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("output lacks %q:\n%s", want, md)
		}
	}
}

// TestMarkdownEscapeFunc: the escaping of text and cell, case by case:
// what would change the meaning is escaped, and nothing else.
func TestMarkdownEscapeFunc(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Zoë", "Zoë"},
		{"The | pipe and the *star*", `The \| pipe and the \*star\*`},
		{"a_b `c` [d](e) <b>x</b> ~~s~~ \\", "a\\_b \\`c\\` \\[d\\](e) \\<b\\>x\\</b\\> \\~\\~s\\~\\~ \\\\"},
		{"two\nlines\r\nand\ta tab", "two lines  and a tab"},
		{"#1 crew", `\#1 crew`},
		{"Room #3", "Room #3"},
		{"Done ##", `Done \#\#`},
		{"##", `\#\#`},
		{"- x", `\- x`},
		{"-18", "-18"},
		{"---", `\---`},
		{"+ y", `\+ y`},
		{"===", `\===`},
		{"1. first", `1\. first`},
		{"2021) here", `2021\) here`},
		{"3.5 m", "3.5 m"},
		{"Kit & Kat", "Kit & Kat"},
		{"&amp; &#123; &x", `\&amp; \&#123; &x`},
		{"Kit-Kat", "Kit-Kat"},
	} {
		if got := mdEscape(tc.in); got != tc.want {
			t.Errorf("cell %q = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := mdEscape(rules.Edition2010); got != "2010" {
		t.Errorf("cell of an edition = %q", got)
	}
	for _, tc := range []struct{ in, want string }{
		{"abc", "`abc`"},
		{"a`b", "``a`b``"},
		{"`x``", "``` `x`` ```"},
		{"", ""},
	} {
		if got := mdCode(tc.in); got != tc.want {
			t.Errorf("code %q = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestMarkdownUnknownDoc: a value that is not a document (a bare sheet, a
// pointer to a document) is refused, and nothing is written.
func TestMarkdownUnknownDoc(t *testing.T) {
	sheetDoc := testSheetDoc()
	for _, doc := range []any{sheetDoc.Sheet, &sheetDoc, nil} {
		var b bytes.Buffer
		err := Markdown(&b, doc)
		if err == nil || err.Error() != errUnknownDoc(doc).Error() {
			t.Errorf("Markdown(%T) = %v, want %v", doc, err, errUnknownDoc(doc))
		}
		if b.Len() != 0 {
			t.Errorf("Markdown(%T) wrote %q", doc, b.String())
		}
	}
}

// mdUserTemplate parses and executes a user template on doc.
func mdUserTemplate(t *testing.T, name, text string, doc any) string {
	t.Helper()
	tmpl, err := ParseTemplate(name, text)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := ExecuteTemplate(&b, tmpl, doc); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestTemplateUser: a group's own layout sees the same document and the
// same functions and partials, and its output is tidied.
func TestTemplateUser(t *testing.T) {
	text := `{{with .Sheet}}{{upper .Name}}: ST {{.Attributes.ST}}, {{signed .XP.Unspent}} XP, {{plural .Karma "karma point" "karma points"}}   ` + "\n\n\n" +
		`Skills: {{range $i, $s := .Skills}}{{if $i}}, {{end}}{{cell .Name}} {{.Level}}{{end}}{{end}}
Seq {{add .Trace.Seq 1}} next, {{sub .Trace.Seq .Sheet.Seq}} since the sheet changed, hash {{shortid .Trace.Hash}}
{{template "footer" .Trace}}`
	got := mdUserTemplate(t, "card.md.tmpl", text, testSheetDoc())
	want := "ZOË: ST 13, +3 XP, 2 karma points\n\nSkills: Knife 1, Medic 2, Unarmed 2\nSeq 34 next, 7 since the sheet changed, hash 9f2c4e1a7b…\n\n---\n\n" +
		"*Kit-Kat crew (edition 2021), folded at seq 33, hash `" + testTrace.Hash + "`*\n"
	if got != want {
		t.Errorf("user template:\n%s\nwant:\n%s", got, want)
	}
	// Every kind of document, with the methods of its structs; a partial
	// of the user's own replaces the built-in one of that name.
	for _, tc := range []struct {
		doc        any
		text, want string
	}{
		{testPartyDoc(), `{{range .Sheets}}{{.Name}} {{end}}`, "Zoë Łukasz Ærin\n"},
		{testShipDoc(), `{{range .Ship.Sections}}{{.Name}}={{.State}} {{end}}`, "Cargo=destroyed Engineering=destroyed Operations=ok Living=ok\n"},
		{testTimelineDoc(), `{{len .Timeline.Periods}} periods; {{.Trace.ShortHash}}`, "2 periods; 9f2c4e1a7b3d\n"},
		{testSheetDoc(), `{{define "footer"}}-- seq {{.Seq}}{{end}}{{.Sheet.Name}} {{template "footer" .Trace}}`, "Zoë -- seq 33\n"},
		{testAuditDoc(), `{{range .Audit.Rows}}{{time .RecordedAt}} {{mark (not .Reverted)}} {{end}}{{len .Audit.Failed}} failed`, "2026-11-21 20:00:00 ✓ 2026-11-21 20:01:00 ✓ 2026-11-21 20:02:00 ✗ 0 failed\n"},
	} {
		if got := mdUserTemplate(t, "kinds.tmpl", tc.text, tc.doc); got != tc.want {
			t.Errorf("%T: got %q, want %q", tc.doc, got, tc.want)
		}
	}
}

// TestTemplateBuiltinCopy: a copy of a built-in layout, as the docs
// suggest starting from, renders exactly as the built-in layout does.
func TestTemplateBuiltinCopy(t *testing.T) {
	for _, tc := range mdGoldenDocs()[:5] {
		file, _, err := mdLayout(tc.doc)
		if err != nil {
			t.Fatal(err)
		}
		text, err := templateFiles.ReadFile("templates/" + file)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := mdUserTemplate(t, "my-"+file, string(text), tc.doc), string(mdRender(t, tc.doc)); got != want {
			t.Errorf("a copy of %s renders otherwise:\n%s", file, got)
		}
	}
}

// TestTemplateErrors: mistakes are named by file, line and field, a
// template that fails half-way writes nothing, and a template reaches
// nothing but the document and the functions.
func TestTemplateErrors(t *testing.T) {
	_, err := ParseTemplate("broken.tmpl", "line one\n{{.Sheet.Name")
	if err == nil || !strings.Contains(err.Error(), "broken.tmpl:2") {
		t.Errorf("a syntax error: %v, want it to name broken.tmpl:2", err)
	}
	missing, err := ParseTemplate("missing.tmpl", "before\n{{.Sheet.Name}} {{.Sheet.Nmae}} after")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	err = ExecuteTemplate(&b, missing, testSheetDoc())
	if err == nil {
		t.Fatal("a missing field rendered")
	}
	for _, want := range []string{"rendering the sheet with template missing.tmpl", "missing.tmpl:2:", "Nmae"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("a missing field: %v, want it to say %q", err, want)
		}
	}
	if b.Len() != 0 {
		t.Errorf("a failed template wrote %q", b.String())
	}
	// The message docs/export-templates.md quotes is the one a user gets.
	docs, err := os.ReadFile(filepath.Join("..", "docs", "export-templates.md"))
	if err != nil {
		t.Fatal(err)
	}
	quoted, err := ParseTemplate("my-sheet.tmpl", "# {{text .Sheet.Name}}\n\n{{.Sheet.Nmae}}")
	if err != nil {
		t.Fatal(err)
	}
	if err := ExecuteTemplate(&b, quoted, testSheetDoc()); err == nil || !bytes.Contains(docs, []byte("`"+err.Error()+"`")) {
		t.Errorf("docs/export-templates.md does not quote the error as it is: %v", err)
	}
	if _, err := ParseTemplate("shell.tmpl", `{{exec "rm -rf /"}}`); err == nil || !strings.Contains(err.Error(), `function "exec" not defined`) {
		t.Errorf("a template called a function that is not there: %v", err)
	}
	bad, err := ParseTemplate("types.tmpl", `{{signed .Sheet.Name}}`)
	if err != nil {
		t.Fatal(err)
	}
	if err := ExecuteTemplate(&b, bad, testSheetDoc()); err == nil || !strings.Contains(err.Error(), "is not an integer") {
		t.Errorf("signed of a name: %v", err)
	}
	ok, err := ParseTemplate("ok.tmpl", "{{.Trace.Seq}}")
	if err != nil {
		t.Fatal(err)
	}
	if err := ExecuteTemplate(&b, ok, "not a document"); err == nil {
		t.Error("a template ran on a value that is not a document")
	}
	if err := ExecuteTemplate(&b, nil, testSheetDoc()); err == nil {
		t.Error("a nil template rendered")
	}
}

// TestTemplateFuncsOnlyRender pins the list of functions: a template can
// do nothing but compute text from the document, and a new function is a
// decision to document (TestTemplateDocs makes sure it is).
func TestTemplateFuncsOnlyRender(t *testing.T) {
	var names []string
	for name := range TemplateFuncs() {
		names = append(names, name)
	}
	sort.Strings(names)
	want := []string{"add", "auditWhat", "cell", "code", "join", "mark", "plural", "shortid", "signed", "status", "sub", "text", "time", "upper"}
	if !slices.Equal(names, want) {
		t.Errorf("template functions %v, want %v", names, want)
	}
}

// TestTemplateExamples runs the examples of docs/export-templates.md,
// which are the files of docs/examples/, on the test documents: the docs
// show each file and its output verbatim, in four-backtick fences (the
// index card holds a three-backtick one), so they cannot drift.
func TestTemplateExamples(t *testing.T) {
	docs, err := os.ReadFile(filepath.Join("..", "docs", "export-templates.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file string
		doc  any
	}{
		{"party-roster.md.tmpl", testPartyDoc()},
		{"index-card.md.tmpl", testSheetDoc()},
	} {
		text, err := os.ReadFile(filepath.Join("..", "docs", "examples", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		got := mdUserTemplate(t, tc.file, string(text), tc.doc)
		if !bytes.Contains(docs, []byte("````gotemplate\n"+string(text)+"````\n")) {
			t.Errorf("docs/export-templates.md does not show docs/examples/%s as it is", tc.file)
		}
		if !bytes.Contains(docs, []byte("````markdown\n"+got+"````\n")) {
			t.Errorf("docs/export-templates.md does not show what %s gives:\n%s", tc.file, got)
		}
		if strings.HasSuffix(tc.file, ".md.tmpl") && strings.Contains(got, "|") {
			checkMarkdown(t, tc.file, []byte(got))
		}
	}
}

// mdDocSections splits Markdown into its "### " sections by the heading's
// first word.
func mdDocSections(doc string) map[string]string {
	sections := map[string]string{}
	var name string
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "## ") || strings.HasPrefix(line, "### ") {
			name = strings.Trim(strings.Fields(line)[1], "`")
			if strings.HasPrefix(line, "## ") {
				name = "## " + strings.Join(strings.Fields(line)[1:], " ")
			}
		}
		if name != "" {
			sections[name] += line + "\n"
		}
	}
	return sections
}

// TestTemplateDocs walks the document structs and checks that
// docs/export-templates.md lists every exported field in the section of
// its struct, and describes every template function there and in the doc
// comment of TemplateFuncs: the reference cannot drift from the code.
func TestTemplateDocs(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "docs", "export-templates.md"))
	if err != nil {
		t.Fatal(err)
	}
	sections := mdDocSections(string(raw))
	seen := map[reflect.Type]bool{}
	var walk func(rt reflect.Type)
	walk = func(rt reflect.Type) {
		for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice {
			rt = rt.Elem()
		}
		if rt.Kind() != reflect.Struct || seen[rt] || rt == reflect.TypeFor[time.Time]() {
			return
		}
		seen[rt] = true
		section, ok := sections[rt.Name()]
		if !ok {
			t.Errorf("docs/export-templates.md has no section \"### %s\"", rt.Name())
		}
		for f := range rt.Fields() {
			if !f.IsExported() {
				continue
			}
			if ok && !regexp.MustCompile(`\.`+f.Name+`\b`).MatchString(section) {
				t.Errorf("docs/export-templates.md, section %s, does not list the field .%s", rt.Name(), f.Name)
			}
			walk(f.Type)
		}
	}
	for _, d := range []any{SheetDoc{}, PartyDoc{}, ShipDoc{}, DetailedShipDoc{}, TimelineDoc{}, AuditDoc{}, DiceDoc{}} {
		walk(reflect.TypeOf(d))
	}
	if len(seen) < 25 {
		t.Errorf("walked only %d structs", len(seen))
	}

	funcs := sections["## Functions"]
	if funcs == "" {
		t.Fatal(`docs/export-templates.md has no section "## Functions"`)
	}
	comment := mdFuncDoc(t, "TemplateFuncs")
	for name := range TemplateFuncs() {
		if !strings.Contains(funcs, "`"+name+" ") && !strings.Contains(funcs, "`"+name+"`") {
			t.Errorf("docs/export-templates.md does not describe the function %s", name)
		}
		if !strings.Contains(comment, "  - "+name+" ") && !strings.Contains(comment, ", "+name+" ") {
			t.Errorf("the doc comment of TemplateFuncs does not describe the function %s", name)
		}
	}
}

// mdFuncDoc returns the doc comment of a function of markdown.go.
func mdFuncDoc(t *testing.T, name string) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "markdown.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == name && fn.Doc != nil {
			return fn.Doc.Text()
		}
	}
	t.Fatalf("markdown.go has no documented func %s", name)
	return ""
}

// mdUnlink removes from HTML the links GitHub makes of bare URLs, which
// show the text as it was: <a href="URL">URL</a> becomes URL. Any other
// link is left, for the caller to find.
func mdUnlink(html []byte) []byte {
	link := regexp.MustCompile(`<a href="([^"]*)">([^<]*)</a>`)
	return link.ReplaceAllFunc(html, func(a []byte) []byte {
		m := link.FindSubmatch(a)
		if string(m[1]) == string(m[2]) {
			return m[2]
		}
		return a
	})
}

// TestMarkdownRenders converts every golden file with the real renderers
// when they happen to be installed (cmark-gfm, GitHub's own, and pandoc):
// every table the checker found is a table to them, the escaped names show
// literally (a bare URL may become a link to itself, as GitHub makes it),
// and pandoc warns of nothing. Without them it is skipped, but in CI,
// which installs cmark-gfm, it fails.
func TestMarkdownRenders(t *testing.T) {
	cmark, errCmark := exec.LookPath("cmark-gfm")
	pandoc, errPandoc := exec.LookPath("pandoc")
	if errCmark != nil && errPandoc != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but neither cmark-gfm nor pandoc is installed; .ci/run installs cmark-gfm")
		}
		t.Skip("neither cmark-gfm nor pandoc is installed")
	}
	for _, tc := range mdGoldenDocs() {
		md := mdRender(t, tc.doc)
		tables := len(checkMarkdown(t, tc.name, md))
		if errCmark == nil {
			cmd := exec.Command(cmark, "--extension", "table", "--extension", "strikethrough", "--extension", "autolink")
			cmd.Stdin = bytes.NewReader(md)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("cmark-gfm %s: %v", tc.name, err)
			}
			out = mdUnlink(out)
			if n := bytes.Count(out, []byte("<table>")); n != tables {
				t.Errorf("%s: cmark-gfm finds %d tables, the checker %d", tc.name, n, tables)
			}
			if bytes.Count(out, []byte("<em>")) != 1 || bytes.Contains(out, []byte("<a ")) || bytes.Contains(out, []byte("<h2>---")) {
				t.Errorf("%s: cmark-gfm renders emphasis or links the text did not mean:\n%s", tc.name, out)
			}
			if tc.name == "timeline.md" && !bytes.Contains(out, []byte("The | pipe and the *star*")) {
				t.Errorf("%s: cmark-gfm does not show the title literally:\n%s", tc.name, out)
			}
			if tc.name == "sheet-escapes.md" {
				for _, name := range mdNastyNames() {
					if !bytes.Contains(out, []byte("<td>"+html.EscapeString(name)+"</td>")) {
						t.Errorf("%s: cmark-gfm does not show %q literally in a cell:\n%s", tc.name, name, out)
					}
				}
				if !bytes.Contains(out, []byte("<h1>"+html.EscapeString(mdNastyNames()[0])+"</h1>")) {
					t.Errorf("%s: cmark-gfm does not show the heading literally:\n%s", tc.name, out)
				}
			}
		}
		if errPandoc == nil {
			// GitHub's dialect, and pandoc's own Markdown, which most
			// people converting a file with pandoc get.
			for _, from := range []string{"gfm", "markdown"} {
				cmd := exec.Command(pandoc, "--from", from, "--to", "html", "--fail-if-warnings")
				cmd.Stdin = bytes.NewReader(md)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				if err != nil || stderr.Len() > 0 {
					t.Errorf("pandoc --from %s %s: %v %s", from, tc.name, err, stderr.String())
				}
				out = mdUnlink(out)
				if n := bytes.Count(out, []byte("<table")); n != tables {
					t.Errorf("%s: pandoc --from %s finds %d tables, the checker %d", tc.name, from, n, tables)
				}
				if bytes.Count(out, []byte("<em>")) != 1 || bytes.Contains(out, []byte("<a ")) {
					t.Errorf("%s: pandoc --from %s renders emphasis or links the text did not mean:\n%s", tc.name, from, out)
				}
			}
		}
	}
}

// A foe's sheet says so and has no XP, karma, wishes or curses; armour worn
// in layers lists each item and the total ("the cumulative rating of his
// armor").
func TestMarkdownFoeInLayers(t *testing.T) {
	d := testSheetDoc()
	d.Sheet.Foe = true
	vest := projections.Armor{Item: "flak_vest", Name: "Flak Vest", Protection: 3, Restriction: 1}
	suit := projections.Armor{Item: "space_suit", Name: "Space Suit", Protection: 1, Restriction: 1, NoBullets: true, SpaceSuit: true}
	d.Sheet.ArmorItems = []projections.Armor{vest, suit}
	d.Sheet.Armor = &projections.Armor{Item: "flak_vest+space_suit", Name: "Flak Vest and Space Suit", Protection: 4, Restriction: 2, SpaceSuit: true}
	md := mdRender(t, d)
	checkMarkdown(t, "foe sheet", md)
	out := string(md)
	for _, want := range []string{"Foe, edition 2021, status: **ok**.", "| Flak Vest | 3 | 1 | |", "| Space Suit | 1 | 1 | no protection from bullets; space suit |", "| worn together | 4 | 2 | cumulative |"} {
		if !strings.Contains(out, want) {
			t.Errorf("foe sheet lacks %q:\n%s", want, out)
		}
	}
	for _, absent := range []string{"Karma", "XP earned", "Wishes"} {
		if strings.Contains(out, absent) {
			t.Errorf("foe sheet shows %q:\n%s", absent, out)
		}
	}
}

// During an encounter a party document lists the foes the party faces.
func TestMarkdownPartyFoes(t *testing.T) {
	d := testPartyDoc()
	foe := testSheet("Drone")
	foe.Foe, foe.Armor = true, nil
	d.Foes = []projections.Sheet{foe}
	md := mdRender(t, d)
	checkMarkdown(t, "party with foes", md)
	if !strings.Contains(string(md), "| Drone | ok | 13 | 11 | 9 | 4 | 2 | Handgun |") {
		t.Errorf("the party lacks its foe:\n%s", md)
	}
}
