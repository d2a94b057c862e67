package exports

import (
	"bytes"
	"embed"
	"fmt"
	"io"
	"regexp"
	"strings"
	"text/template"
	"time"

	"github.com/ltscamp/ltscamp/projections"
)

//go:embed templates/*.md.tmpl
var templateFiles embed.FS

// builtinTemplate names the embedded layout of each document type.
func builtinTemplate(doc any) (string, error) {
	switch doc.(type) {
	case SheetDoc:
		return "sheet.md.tmpl", nil
	case PartyDoc:
		return "party.md.tmpl", nil
	case ShipDoc:
		return "ship.md.tmpl", nil
	case TimelineDoc:
		return "timeline.md.tmpl", nil
	case AuditDoc:
		return "audit.md.tmpl", nil
	}
	return "", errUnknownDoc(doc)
}

// Markdown writes doc (a document type of this package, by value) as
// GitHub-flavoured Markdown with the built-in layout: the embedded
// templates/*.md.tmpl, which a group may copy as a start for its own.
func Markdown(w io.Writer, doc any) error {
	name, err := builtinTemplate(doc)
	if err != nil {
		return err
	}
	t, err := template.New(name).Funcs(TemplateFuncs()).ParseFS(templateFiles, "templates/*.md.tmpl")
	if err != nil {
		return fmt.Errorf("exports: built-in templates: %w", err)
	}
	return execute(w, t.Lookup(name), doc)
}

// ParseTemplate parses a user's layout: a text/template over the same
// document structs as the built-in layouts, with the functions of
// TemplateFuncs and the built-in partials ("footer", "sheet-body"). name
// names the template in error messages (the file's name).
func ParseTemplate(name, text string) (*template.Template, error) {
	t, err := template.New(name).Funcs(TemplateFuncs()).ParseFS(templateFiles, "templates/common.md.tmpl")
	if err != nil {
		return nil, fmt.Errorf("exports: built-in templates: %w", err)
	}
	if t, err = t.New(name).Parse(text); err != nil {
		return nil, err
	}
	return t, nil
}

// ExecuteTemplate renders doc with t, a template from ParseTemplate.
func ExecuteTemplate(w io.Writer, t *template.Template, doc any) error {
	if _, err := builtinTemplate(doc); err != nil {
		return err
	}
	return execute(w, t, doc)
}

// blankRuns matches three or more newlines: at most one blank line
// between blocks.
var blankRuns = regexp.MustCompile(`\n{3,}`)

// execute renders into a buffer first, so that a template that fails
// half-way writes nothing, then tidies the white space: no trailing
// spaces, no runs of blank lines, exactly one newline at the end.
func execute(w io.Writer, t *template.Template, doc any) error {
	var b bytes.Buffer
	if err := t.Execute(&b, doc); err != nil {
		return fmt.Errorf("template %s: %w", t.Name(), err)
	}
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	out := blankRuns.ReplaceAllString(strings.Join(lines, "\n"), "\n\n")
	out = strings.TrimLeft(strings.TrimRight(out, "\n"), "\n") + "\n"
	_, err := io.WriteString(w, out)
	return err
}

// mdSpecial are the characters that would change the meaning of Markdown
// text; each is escaped with a backslash.
var mdSpecial = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"<", `\<`, ">", `\>`, "#", `\#`, "|", `\|`, "~", `\~`,
)

// TemplateFuncs returns the functions every template may call, built-in
// and user templates alike:
//
//	text S          S escaped for Markdown text: * _ ` [ ] < > # | ~ \ shown literally, newlines as spaces
//	cell S          text S for a table cell (the same escaping; "|" never ends the cell)
//	upper S         S in capitals
//	join SEP LIST   the strings of LIST joined by SEP
//	plural N ONE MANY   "1 unit", "3 units"
//	signed N        N with its sign: "+20", "-18", "0"
//	add A B, sub A B    integer sums and differences (numbering rows)
//	time T          a time in UTC as 2006-01-02 15:04:05
//	shortid ID      the first 10 characters of a ULID and "…"
//	mark OK         ✓ or ✗
//	status SHEET    a sheet's edition and status line ("edition 2021, ok"; the death cause when dead)
//	sectionState S  a ship section's state: ok, damaged or destroyed
//	auditWhat ROW   an XP audit row's "what": a spend's price, formula and edition, a re-pricing problem, a revert mark
func TemplateFuncs() template.FuncMap {
	return template.FuncMap{
		"text":   escapeText,
		"cell":   escapeText,
		"join":   func(sep string, list []string) string { return strings.Join(list, sep) },
		"plural": projections.Count,
		"signed": func(n int) string {
			if n > 0 {
				return fmt.Sprintf("+%d", n)
			}
			return fmt.Sprint(n)
		},
		"upper": strings.ToUpper,
		"add":   func(a, b int) int { return a + b },
		"sub":   func(a, b int) int { return a - b },
		"time":  func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") },
		"shortid": func(id string) string {
			if r := []rune(id); len(r) > 10 {
				return string(r[:10]) + "…"
			}
			return id
		},
		"mark": func(ok bool) string {
			if ok {
				return "✓"
			}
			return "✗"
		},
		"status":       sheetStatus,
		"sectionState": projections.ShipSection.State,
		"auditWhat":    auditWhat,
	}
}

// escapeText makes s literal Markdown text, fit for a table cell.
func escapeText(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	return mdSpecial.Replace(s)
}

// sheetStatus is the line under a sheet's name: its edition and status,
// and how he died.
func sheetStatus(s projections.Sheet) string {
	line := fmt.Sprintf("Edition %s, %s.", s.Edition, s.Status)
	if s.Status != projections.StatusOK {
		line = fmt.Sprintf("Edition %s, **%s**.", s.Edition, strings.ToUpper(s.Status))
	}
	if s.Dead && s.DeathCause != "" {
		line += " " + escapeText(capitalize(s.DeathCause)) + "."
	}
	return line
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}

// auditWhat tells what an XP audit row was, escaped for a table cell.
func auditWhat(r projections.XPAuditRow) string {
	what := escapeText(r.What)
	if r.Kind == projections.LedgerSpend {
		price := r.Formula
		if total := fmt.Sprintf("= %d", -r.Amount); !strings.HasSuffix(price, total) {
			price += " " + total
		}
		what = fmt.Sprintf("%s: %s [%s]", what, escapeText(price), escapeText(r.Edition))
		if r.Rules != nil && !r.Rules.OK {
			what += " ✗ " + escapeText(r.Rules.Problem)
		}
	}
	if r.Reverted != nil {
		mark := fmt.Sprintf("[reverted by seq %d]", r.Reverted.Seq)
		if r.Reverted.Reason != "" {
			mark = fmt.Sprintf("[reverted by seq %d: %s]", r.Reverted.Seq, r.Reverted.Reason)
		}
		what = escapeText(mark) + " ~~" + what + "~~"
	}
	return what
}
