package importers

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/rules"
	"github.com/ltscamp/ltscamp/rules/interceptor"
)

func TestParseTemplatesExamples(t *testing.T) {
	for _, tc := range []struct {
		file string
		f    Format
	}{
		// The example as written, and as JSON.
		{"templates.yaml", FormatYAML},
		{"templates.json", FormatJSON},
	} {
		t.Run(tc.file, func(t *testing.T) {
			got, err := ParseTemplates(tc.file, readDetail(t, tc.file), tc.f)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 {
				t.Fatalf("%d templates, want 1: %+v", len(got), got)
			}
			if got[0].Name != "Block 6" || !reflect.DeepEqual(got[0].Rows(), []string{"XXX", "XXX"}) || got[0].Points() != 6 || got[0].Width() != 3 {
				t.Errorf("got %q %q (%d points, %d wide), want \"Block 6\" [XXX XXX] (6 points, 3 wide)", got[0].Name, got[0].Rows(), got[0].Points(), got[0].Width())
			}
		})
	}
}

// TestTemplatesDocExample: the documented example loads, in order, rows
// upper-cased as NewTemplate keeps them.
func TestTemplatesDocExample(t *testing.T) {
	got, err := ParseTemplates("docs/interceptor.md", docExample(t, "## The template file"), FormatYAML)
	if err != nil {
		t.Fatal(err)
	}
	asJSON, err := ParseTemplates("docs/interceptor.md", docBlock(t, "## The template file", "json"), FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(asJSON, got) {
		t.Errorf("the JSON example reads\n%+v\nthe YAML one\n%+v", asJSON, got)
	}
	want := []struct {
		name string
		rows []string
	}{
		{"Block 6", []string{"XXX", "XXX"}},
		{"Cross 5", []string{".X.", "XXX", ".X."}},
		{"MDC 10", []string{"XXXXX", ".XXX.", "..X..", "..X.."}},
	}
	if len(got) != len(want) {
		t.Fatalf("%d templates, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].Name != w.name || !reflect.DeepEqual(got[i].Rows(), w.rows) {
			t.Errorf("template %d: %q %q, want %q %q", i+1, got[i].Name, got[i].Rows(), w.name, w.rows)
		}
	}
}

func TestParseTemplatesBadFiles(t *testing.T) {
	for _, tc := range []struct {
		name string
		data string
		f    Format
		line int
		want string
	}{
		{"empty", "", FormatYAML, 0, "the file is empty: a templates file is a mapping with a templates: list"},
		{"a bare list", "- name: Block 6\n  rows: [XXX]\n", FormatYAML, 1, "not a templates file"},
		{"typo in the top key", "template:\n  - {name: Block 6, rows: [XXX]}\n", FormatYAML, 1, `unknown key "template" in the templates file: did you mean "templates"?`},
		{"no templates", "templates: []\n", FormatYAML, 1, "templates is empty"},
		{"templates not a list", "templates: {name: Block 6}\n", FormatYAML, 1, "templates must be a list"},
		{"typo in an entry key", "templates:\n  - name: Block 6\n    row: [XXX]\n", FormatYAML, 3, `unknown key "row" in template "Block 6": did you mean "rows"?`},
		{"no rows", "templates:\n  - name: Block 6\n", FormatYAML, 2, `template "Block 6" has no rows`},
		{"no name", "templates:\n  - rows: [XXX]\n", FormatYAML, 2, "template 1 has no name"},
		{"an even width", "templates:\n  - name: Block 4\n    rows: [\"XX\", \"XX\"]\n", FormatYAML, 3, `template "Block 4" is 2 cells wide: the width must be odd`},
		{"ragged rows", "templates:\n  - name: Odd\n    rows:\n      - XXX\n      - XXXXX\n", FormatYAML, 3, `row 2 of template "Odd" is 5 cells wide, row 1 is 3`},
		{"a bad cell", "templates:\n  - name: Odd\n    rows: [XOX]\n", FormatYAML, 3, `row 1 of template "Odd" holds "O"`},
		{"an empty top row", "templates:\n  - name: Low\n    rows: [..., XXX]\n", FormatYAML, 3, `the top row of template "Low" is empty`},
		{"a row that is a list", "templates:\n  - name: Low\n    rows: [[X, X, X]]\n", FormatYAML, 3, `row 1 of template "Low" must be text`},
		{"a row that is true", "templates:\n  - name: Low\n    rows: [true]\n", FormatYAML, 3, `row 1 of template "Low" must be text such as "XXX", not "true"`},
		{"too many rows", "templates:\n  - name: Long\n    rows: [" + strings.Repeat("X, ", 21) + "X]\n", FormatYAML, 3, `template "Long" has 22 rows: it needs 1 to 21`},
		{"two of one name", "templates:\n  - {name: Block 6, rows: [XXX]}\n  - {name: block 6, rows: [X]}\n", FormatYAML, 3, `template "block 6": the template at line 2 has that name too`},
		{"a control character in a name", "templates:\n  - {name: \"Block\\t6\", rows: [XXX]}\n", FormatYAML, 2, "names are plain text on one line"},
		{"JSON: an even width", `{"templates": [` + "\n" + `{"name": "Block 4", "rows": ["XXXX"]}]}`, FormatJSON, 2, `template "Block 4" is 4 cells wide`},
		{"JSON: a row that is a number", `{"templates": [{"name": "A", "rows": [101]}]}`, FormatJSON, 1, `row 1 of template "A" must be text such as "XXX", not "101"`},
		{"JSON: trailing comma", "{\"templates\": [\n{\"name\": \"Block 6\", \"rows\": [\"XXX\"]},\n]}", FormatJSON, 3, "not JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := "templates." + string(tc.f)
			got, err := ParseTemplates(file, []byte(tc.data), tc.f)
			if err == nil {
				t.Fatalf("no error; templates %+v", got)
			}
			checkFileError(t, err, file, tc.line, tc.want)
			if got != nil {
				t.Errorf("an error and templates: %+v", got)
			}
		})
	}
}

// TestParseTemplatesJSONText: JSON's escapes, which YAML reads
// otherwise or not at all, and a byte order mark.
func TestParseTemplatesJSONText(t *testing.T) {
	data := "\ufeff{\"templates\": [{\"name\": \"Block\\/6 \\u00e9\\ud83d\\ude00\", \"rows\": [\"XXX\"]}]}"
	got, err := ParseTemplates("t.json", []byte(data), FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Block/6 é😀"; len(got) != 1 || got[0].Name != want {
		t.Fatalf("got %+v, want one template named %q", got, want)
	}
}

// FuzzParseTemplates: never a panic; either a *FileError coded invalid and
// no templates, or templates that interceptor.NewTemplate accepts again,
// with distinct names.
func FuzzParseTemplates(f *testing.F) {
	f.Add([]byte("templates:\n  - name: Block 6\n    rows: [\"XXX\", \"XXX\"]\n"), false)
	f.Add([]byte("templates:\n  - {name: Wedge 9, rows: [XXXXX, .XXX., ..X..]}\n  - {name: x, rows: [x]}\n"), false)
	f.Add([]byte("templates: &t [{name: A, rows: [X]}]\nmore: *t\n"), false)
	f.Add([]byte(`{"templates": [{"name": "Cross 5", "rows": [".X.", "XXX", ".X."]}]}`), true)
	f.Add([]byte(`{"templates": [{"name": "A", "rows": ["XX"]}, {"name": "a", "rows": ["X"]}]}`), true)
	f.Fuzz(func(t *testing.T, data []byte, asJSON bool) {
		file, format := "f.yaml", FormatYAML
		if asJSON {
			file, format = "f.json", FormatJSON
		}
		ts, err := ParseTemplates(file, data, format)
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) || fe.File != file || fe.Line < 0 || rules.CodeOf(err) != rules.CodeInvalid {
				t.Fatalf("err = %v (%T), want a *FileError coded invalid", err, err)
			}
			if ts != nil {
				t.Fatalf("an error and templates: %+v", ts)
			}
			return
		}
		if len(ts) == 0 {
			t.Fatal("no error and no templates")
		}
		names := map[string]bool{}
		for _, tp := range ts {
			again, err := interceptor.NewTemplate(tp.Name, tp.Rows())
			if err != nil || !reflect.DeepEqual(again, tp) {
				t.Fatalf("template %q does not rebuild: %v", tp.Name, err)
			}
			if names[strings.ToLower(tp.Name)] {
				t.Fatalf("two templates named %q", tp.Name)
			}
			names[strings.ToLower(tp.Name)] = true
		}
	})
}
