package exports

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/projections"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// golden compares got with testdata/golden/name, or rewrites it with
// -update.
func golden(t *testing.T, name string, got []byte) {
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
		t.Fatalf("%v (run go test ./exports -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test ./exports -update rewrites it):\n--- got ---\n%s", name, got)
	}
}

func markdownOf(t *testing.T, doc any) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Markdown(&b, doc); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var cellSplit = regexp.MustCompile(`(^|[^\\])\|`)

// tableColumns counts the cells of a table row: the unescaped pipes less
// one.
func tableColumns(row string) int { return len(cellSplit.FindAllString(row, -1)) - 1 }

// checkTables checks every GitHub table in md: a header, a delimiter row
// of as many columns, and body rows of as many columns. It also checks the
// output's white space.
func checkTables(t *testing.T, name string, md []byte) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(string(md), "\n"), "\n")
	if !bytes.HasSuffix(md, []byte("\n")) || bytes.HasSuffix(md, []byte("\n\n")) {
		t.Errorf("%s: the output must end with exactly one newline", name)
	}
	if bytes.Contains(md, []byte("\n\n\n")) {
		t.Errorf("%s: runs of blank lines", name)
	}
	tables := 0
	for i := 0; i < len(lines); i++ {
		if strings.HasSuffix(lines[i], " ") {
			t.Errorf("%s:%d: trailing space", name, i+1)
		}
		if !strings.HasPrefix(lines[i], "|") {
			continue
		}
		tables++
		cols := tableColumns(lines[i])
		if i+1 >= len(lines) || !regexp.MustCompile(`^\|(\s*:?-+:?\s*\|)+$`).MatchString(lines[i+1]) || tableColumns(lines[i+1]) != cols {
			t.Fatalf("%s:%d: a table header without a delimiter row of %d columns", name, i+1, cols)
		}
		for i += 2; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
			if n := tableColumns(lines[i]); n != cols {
				t.Errorf("%s:%d: %d cells in a table of %d columns: %s", name, i+1, n, cols, lines[i])
			}
		}
		if i < len(lines) && lines[i] != "" {
			t.Errorf("%s:%d: a table must be followed by a blank line", name, i+1)
		}
	}
	if tables == 0 {
		t.Errorf("%s: no table", name)
	}
}

// TestMarkdownGolden renders every document kind and compares it with its
// golden file.
func TestMarkdownGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  any
	}{
		{"sheet.md", testSheetDoc()},
		{"party.md", testPartyDoc()},
		{"ship.md", testShipDoc()},
		{"timeline.md", testTimelineDoc()},
		{"audit.md", testAuditDoc()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md := markdownOf(t, tc.doc)
			checkTables(t, tc.name, md)
			golden(t, tc.name, md)
			if again := markdownOf(t, tc.doc); !bytes.Equal(again, md) {
				t.Error("two renders of one document differ")
			}
			for _, want := range []string{testTrace.Hash, "seq 33", "Kit-Kat crew"} {
				if !bytes.Contains(md, []byte(want)) {
					t.Errorf("the footer does not carry %q", want)
				}
			}
		})
	}
}

// TestMarkdownEscapes: names and texts show literally, in headings and in
// table cells, and never break a table.
func TestMarkdownEscapes(t *testing.T) {
	d := testSheetDoc()
	d.Sheet.Name = "Zoë | *the* [best] <b>_x_</b> #1 `code` ~~no~~"
	d.Sheet.Skills = append(d.Sheet.Skills, projections.Skill{Key: "x", Name: "Multi\nline|skill", Level: 1})
	md := markdownOf(t, d)
	checkTables(t, "escapes", md)
	for _, want := range []string{
		`# Zoë \| \*the\* \[best\] \<b\>\_x\_\</b\> \#1 \` + "`code\\`" + ` \~\~no\~\~`,
		`| Multi line\|skill | 1 |`,
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("output lacks %q:\n%s", want, md)
		}
	}
}

// TestMarkdownAsOfAndEmpty: the footer says "as of" for an as-of export;
// an empty party and an empty timeline say so.
func TestMarkdownAsOfAndEmpty(t *testing.T) {
	d := testSheetDoc()
	d.Trace.AsOf, d.Trace.Seq = true, 7
	if md := markdownOf(t, d); !strings.Contains(string(md), "as of seq 7") {
		t.Errorf("an as-of sheet's footer:\n%s", md)
	}
	if md := markdownOf(t, PartyDoc{Trace: testTrace}); !strings.Contains(string(md), "The party is empty") {
		t.Errorf("an empty party:\n%s", md)
	}
	if md := markdownOf(t, TimelineDoc{Trace: testTrace}); !strings.Contains(string(md), "Nothing has happened in game time yet") {
		t.Errorf("an empty timeline:\n%s", md)
	}
	if err := Markdown(&bytes.Buffer{}, testSheetDoc().Sheet); err == nil {
		t.Error("a bare Sheet is not a document, but Markdown took it")
	}
}

// TestUserTemplates: a group's own layout sees the same document and the
// same functions; mistakes are named by file and line, and a template that
// fails half-way writes nothing.
func TestUserTemplates(t *testing.T) {
	tmpl, err := ParseTemplate("card.tmpl", "{{.Sheet.Name}}: ST {{.Sheet.Attributes.ST}}, {{signed .Sheet.XP.Unspent}} XP ({{plural .Sheet.Karma \"karma point\" \"karma points\"}})\n{{template \"footer\" .Trace}}")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := ExecuteTemplate(&b, tmpl, testSheetDoc()); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "Zoë: ST 13, +3 XP (2 karma points)\n---\n") || !strings.Contains(b.String(), "folded at seq 33") {
		t.Fatalf("user template output:\n%s", b.String())
	}
	if _, err := ParseTemplate("broken.tmpl", "line one\n{{.Sheet.Name"); err == nil || !strings.Contains(err.Error(), "broken.tmpl:2") {
		t.Fatalf("a syntax error: %v, want it to name broken.tmpl:2", err)
	}
	missing, err := ParseTemplate("missing.tmpl", "before {{.Sheet.Nmae}} after")
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	err = ExecuteTemplate(&b, missing, testSheetDoc())
	if err == nil || !strings.Contains(err.Error(), "Nmae") || !strings.Contains(err.Error(), "missing.tmpl") {
		t.Fatalf("a missing field: %v, want it named with the template", err)
	}
	if b.Len() != 0 {
		t.Fatalf("a failed template wrote %q", b.String())
	}
	if err := ExecuteTemplate(&b, tmpl, "not a document"); err == nil {
		t.Fatal("a template ran on a value that is not a document")
	}
}

// TestTemplateExamples runs the examples that docs/export-templates.md
// shows, so the docs cannot drift from the code.
func TestTemplateExamples(t *testing.T) {
	for _, tc := range []struct {
		file string
		doc  any
		want string
	}{
		{"party-roster.md.tmpl", testPartyDoc(), "- **Łukasz** (incapacitated): ST 13 DX 11 IQ 9, damage 9, 3 XP unspent"},
		{"index-card.md.tmpl", testSheetDoc(), "ZOË — ST 13 / DX 11 (10) / IQ 9 / MA 5"},
	} {
		text, err := os.ReadFile(filepath.Join("..", "docs", "examples", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		tmpl, err := ParseTemplate(tc.file, string(text))
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := ExecuteTemplate(&b, tmpl, tc.doc); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("%s gives:\n%s\nwant a line %q", tc.file, b.String(), tc.want)
		}
	}
}

// TestTemplateDocsListEveryField walks the document structs and checks
// that docs/export-templates.md names every exported field, and every
// template function: the reference cannot drift from the code.
func TestTemplateDocsListEveryField(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "export-templates.md"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[reflect.Type]bool{}
	var walk func(rt reflect.Type)
	walk = func(rt reflect.Type) {
		for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice {
			rt = rt.Elem()
		}
		if rt.Kind() != reflect.Struct || seen[rt] || rt.PkgPath() == "time" {
			return
		}
		seen[rt] = true
		for i := 0; i < rt.NumField(); i++ {
			f := rt.Field(i)
			if !f.IsExported() {
				continue
			}
			if !strings.Contains(string(doc), "`."+f.Name) && !strings.Contains(string(doc), "."+f.Name+"`") {
				t.Errorf("docs/export-templates.md does not list %s.%s", rt.Name(), f.Name)
			}
			walk(f.Type)
		}
	}
	for _, d := range []any{SheetDoc{}, PartyDoc{}, ShipDoc{}, TimelineDoc{}, AuditDoc{}} {
		walk(reflect.TypeOf(d))
	}
	for name := range TemplateFuncs() {
		if !strings.Contains(string(doc), "`"+name+" ") && !strings.Contains(string(doc), "`"+name+"`") {
			t.Errorf("docs/export-templates.md does not describe the function %s", name)
		}
	}
}
