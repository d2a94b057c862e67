package interceptor

import "strings"

// MaxTemplateSize bounds a template's rows and width. The book's templates
// are die-cut shapes a few boxes across; this keeps user files sane.
const MaxTemplateSize = 21

// Template is a damage template (DAMAGE TEMPLATE, book l.319-325): rows of
// cells, X for a box the weapon destroys and . for none, with the arrow at
// the centre of the top row. Build one with NewTemplate.
type Template struct {
	Name string
	rows []string
}

// NewTemplate validates a template as a templates file gives it:
//
//	templates:
//	  - name: Block 6
//	    rows: ["XXX", "XXX"]
//
// Every row has the same odd width, so that the arrow can sit at the centre
// of the top row; cells are X (or x) and .; the top row has at least one X,
// since the template is lowered onto a box with its top edge. It fails with
// CodeInvalid.
func NewTemplate(name string, rows []string) (Template, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return Template{}, errorf(CodeInvalid, "a damage template needs a name")
	}
	if len(rows) == 0 || len(rows) > MaxTemplateSize {
		return Template{}, errorf(CodeInvalid, "template %q has %d rows: it needs 1 to %d", name, len(rows), MaxTemplateSize)
	}
	w := len(rows[0])
	if w%2 == 0 || w > MaxTemplateSize {
		return Template{}, errorf(CodeInvalid, "template %q is %d cells wide: the width must be odd (the arrow sits at the centre of the top row) and at most %d", name, w, MaxTemplateSize)
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		if len(r) != w {
			return Template{}, errorf(CodeInvalid, "row %d of template %q is %d cells wide, row 1 is %d: all rows have the same width", i+1, name, len(r), w)
		}
		for _, ch := range r {
			if ch != 'X' && ch != 'x' && ch != '.' {
				return Template{}, errorf(CodeInvalid, "row %d of template %q holds %q: cells are X (destroyed) or . (untouched)", i+1, name, string(ch))
			}
		}
		out[i] = strings.ToUpper(r)
	}
	if !strings.Contains(out[0], "X") {
		return Template{}, errorf(CodeInvalid, "the top row of template %q is empty: the top row must have an X", name)
	}
	return Template{Name: name, rows: out}, nil
}

// Rows returns the template's rows, top first.
func (t Template) Rows() []string { return append([]string(nil), t.rows...) }

// Points returns the damage the template does: its number of X cells.
func (t Template) Points() int {
	n := 0
	for _, r := range t.rows {
		n += strings.Count(r, "X")
	}
	return n
}

// Width returns the template's width in cells.
func (t Template) Width() int {
	if len(t.rows) == 0 {
		return 0
	}
	return len(t.rows[0])
}

// SampleTemplates returns a few SAMPLE damage templates. They are not the
// book's: its templates are die-cut diagrams that are not in the text (book
// l.323 "DAMAGE TEMPLATE Click to View"). Campaigns supply their own in a
// templates file. "MDC 10 (sample)" is shaped so that the book's worked
// example (l.327) comes out as the text describes it: centred on column 5
// after two lasers it puts 2 points into the internal block and widows
// column 4, and centred on column 6 it loses 2 points on column 5.
func SampleTemplates() []Template {
	samples := []struct {
		name string
		rows []string
	}{
		{"Block 6", []string{"XXX", "XXX"}},
		{"Cross 5", []string{".X.", "XXX", ".X."}},
		{"Wedge 9", []string{"XXXXX", ".XXX.", "..X.."}},
		{"MDC 10 (sample)", []string{"XXXXX", ".XXX.", "..X..", "..X.."}},
	}
	out := make([]Template, len(samples))
	for i, s := range samples {
		t, err := NewTemplate(s.name, s.rows)
		if err != nil {
			panic("interceptor: bad sample template: " + err.Error()) // a bug in the table above
		}
		out[i] = t
	}
	return out
}
