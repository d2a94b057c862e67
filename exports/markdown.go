package exports

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"text/template"
	"time"

	"github.com/ltscamp/ltscamp/projections"
)

// templateFiles holds the built-in Markdown layouts: one file per document
// type, and common.md.tmpl with the partials they share ("footer",
// "sheet-body"), which user templates may call too.
//
//go:embed templates/*.md.tmpl
var templateFiles embed.FS

// mdCommonFile is the file of partials that every template, built-in or
// user's, is parsed with.
const mdCommonFile = "templates/common.md.tmpl"

// mdLayout names a document's built-in layout and the kind of document it
// is, for error messages.
func mdLayout(doc any) (file string, kind Kind, err error) {
	switch doc.(type) {
	case SheetDoc:
		return "sheet.md.tmpl", KindSheet, nil
	case PartyDoc:
		return "party.md.tmpl", KindParty, nil
	case ShipDoc:
		return "ship.md.tmpl", KindShip, nil
	case DetailedShipDoc:
		return "detailed-ship.md.tmpl", KindShip, nil
	case TimelineDoc:
		return "timeline.md.tmpl", KindTimeline, nil
	case AuditDoc:
		return "audit.md.tmpl", KindAudit, nil
	case DiceDoc:
		return "dice.md.tmpl", KindDice, nil
	}
	return "", "", errUnknownDoc(doc)
}

// Markdown writes doc (a document type of doc.go, by value) as
// GitHub-flavoured Markdown with the built-in layout: the embedded
// exports/templates/KIND.md.tmpl, parsed with the functions of
// TemplateFuncs, which a group may copy as the start of its own layout.
// It writes nothing when the document cannot be rendered.
func Markdown(w io.Writer, doc any) error {
	file, _, err := mdLayout(doc)
	if err != nil {
		return err
	}
	// The templates are parsed on every call rather than kept in a
	// package variable: the package keeps no state, and a whole sheet,
	// parsing included, renders in about 0.2 ms.
	t, err := template.New(file).Funcs(TemplateFuncs()).ParseFS(templateFiles, "templates/*.md.tmpl")
	if err != nil {
		return fmt.Errorf("exports: built-in Markdown templates: %w", err)
	}
	return mdExecute(w, t.Lookup(file), doc)
}

// ParseTemplate parses a user's layout: a text/template over the same
// document structs as the built-in layouts, with the functions of
// TemplateFuncs and the built-in partials {{template "footer" .Trace}} and
// {{template "sheet-body" .Sheet}}. name is used in error messages (the
// file name): a syntax error reads "template: NAME:LINE: …".
//
// A template can only render: text/template has no way to read files, run
// programs or reach the network, and none of the functions does either.
func ParseTemplate(name, text string) (*template.Template, error) {
	t := template.New(name).Funcs(TemplateFuncs())
	if _, err := t.ParseFS(templateFiles, mdCommonFile); err != nil {
		return nil, fmt.Errorf("exports: built-in Markdown partials: %w", err)
	}
	// The user's file is parsed last, so that a {{define}} of its own may
	// replace a built-in partial of the same name.
	if _, err := t.Parse(text); err != nil {
		return nil, err
	}
	return t, nil
}

// ExecuteTemplate renders doc (a document type of doc.go, by value) with
// t, a template from ParseTemplate. The output is tidied as the built-in
// layouts' is: no trailing spaces, at most one blank line in a row, one
// newline at the end. It writes nothing when the template fails; the error
// names the template, the line and the field.
func ExecuteTemplate(w io.Writer, t *template.Template, doc any) error {
	if _, _, err := mdLayout(doc); err != nil {
		return err
	}
	if t == nil {
		return errors.New("exports: no template to render with")
	}
	return mdExecute(w, t, doc)
}

// mdExecute renders into a buffer first, so that a template that fails
// half-way writes nothing, then tidies the white space.
func mdExecute(w io.Writer, t *template.Template, doc any) error {
	_, kind, err := mdLayout(doc)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, doc); err != nil {
		return fmt.Errorf("exports: rendering the %s with template %s: %w", kind, t.Name(), err)
	}
	_, err = io.WriteString(w, mdTidy(b.String()))
	return err
}

// mdTidy drops trailing white space from every line, leading and trailing
// blank lines, and all but one of several blank lines in a row, and ends
// the text with exactly one newline. Templates can then be written for
// reading, with a blank line wherever one may be needed (before a table,
// before the footer's rule, which would otherwise underline the line above
// it as a heading), without counting them.
func mdTidy(s string) string {
	var b strings.Builder
	blank := false
	for line := range strings.SplitSeq(s, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if line == "" {
			blank = b.Len() > 0
			continue
		}
		if blank {
			b.WriteByte('\n')
			blank = false
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	if b.Len() == 0 {
		return "\n"
	}
	return b.String()
}

// TemplateFuncs returns the functions templates may call, built-in and user
// templates alike. None of them has an effect beyond its result.
//
//   - text S: S as literal Markdown text, for headings and paragraphs. S may
//     be a string or anything printable (a number, an edition). The
//     characters that would change the meaning are escaped with a
//     backslash: \ ` * _ [ ] < > | ~ everywhere; # at the start or ending
//     the text (a heading's closing marks); - + = and "1." at the start
//     (a list, a rule, an underline); & before an entity name. Newlines and
//     tabs become spaces; other control characters are written as visible
//     escapes ("\x1b"), as Printable does.
//   - cell S: S for a GitHub table cell. The same escaping as text, which
//     already keeps a "|" from ending the cell and a newline from ending
//     the row; named for what it is used for.
//   - code S: S as an inline code span, with enough backticks around it
//     that backticks inside cannot end it. Not for a table cell whose text
//     may contain "|".
//   - upper S: S in capitals.
//   - join SEP LIST: the strings of LIST joined by SEP: join ", " .Crew.
//   - plural N ONE MANY: N and the word that agrees with it: "1 unit",
//     "3 units".
//   - signed N: N with its sign: "+20", "-18", "0".
//   - add A B, sub A B: the sum and the difference of two integers of any
//     integer type (seqs are int64, most counts int).
//   - time T: a time in UTC as "2006-01-02 15:04:05".
//   - shortid ID: the first 10 characters of an ID and "…".
//   - mark OK: "✓" when OK is true, "✗" when it is false.
//   - status SHEET: a sheet's status line, Markdown: "Edition 2021, status:
//     **ok**.", with how he died when he is dead.
//   - auditWhat ROW: an XP audit row's "what" for a table cell: the reason,
//     or what a spend raised with its recorded formula, price and edition
//     and the rules' objection if they price it differently; a reverted
//     row struck through and marked "[reverted by seq N: reason]".
func TemplateFuncs() template.FuncMap {
	return template.FuncMap{
		"text":   mdEscape,
		"cell":   mdEscape,
		"code":   mdCode,
		"upper":  func(s any) string { return strings.ToUpper(Printable(mdString(s))) },
		"join":   func(sep string, list []string) string { return strings.Join(list, sep) },
		"plural": mdPlural,
		"signed": mdSigned,
		"add":    func(a, b any) (int64, error) { return mdArith(a, b, 1) },
		"sub":    func(a, b any) (int64, error) { return mdArith(a, b, -1) },
		"time":   func(t time.Time) string { return t.UTC().Format(time.DateTime) },
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
		"status":    mdStatus,
		"auditWhat": mdAuditWhat,
	}
}

// mdString prints a template argument: a string as it is, anything else
// (an edition, a number) as fmt prints it.
func mdString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// mdInt reads an integer argument of any integer type.
func mdInt(v any) (int64, error) {
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return r.Int(), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return int64(r.Uint()), nil
	}
	return 0, fmt.Errorf("%v (%T) is not an integer", v, v)
}

// mdArith adds b times sign to a.
func mdArith(a, b any, sign int64) (int64, error) {
	x, err := mdInt(a)
	if err != nil {
		return 0, err
	}
	y, err := mdInt(b)
	if err != nil {
		return 0, err
	}
	return x + sign*y, nil
}

// mdSigned prints an integer with its sign.
func mdSigned(v any) (string, error) {
	n, err := mdInt(v)
	if err != nil {
		return "", err
	}
	if n > 0 {
		return fmt.Sprintf("+%d", n), nil
	}
	return fmt.Sprint(n), nil
}

// mdPlural prints n with the word that agrees with it.
func mdPlural(v any, one, many string) (string, error) {
	n, err := mdInt(v)
	if err != nil {
		return "", err
	}
	return projections.Count(int(n), one, many), nil
}

// mdEscape makes v literal Markdown text that fits on one line and in a
// table cell: GitHub's renderer and pandoc show it as it was written. It
// escapes only what would change the meaning, so that the Markdown still
// reads well as plain text: "Kit-Kat & co #1" stays as it is.
func mdEscape(v any) string {
	s := Printable(strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' || r == '\v' || r == '\f' {
			return ' '
		}
		return r
	}, mdString(v)))
	// A closing run of #s after a space would be dropped from a heading.
	closing := len(s)
	if t := strings.TrimRight(s, "#"); len(t) < len(s) && (t == "" || strings.HasSuffix(t, " ")) {
		closing = len(t)
	}
	// What the text starts with matters when it starts a line.
	start := len(s) - len(strings.TrimLeft(s, " "))
	endsWord := func(i int) bool { return i+1 == len(s) || s[i+1] == ' ' }
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		escape := false
		switch c {
		case '\\', '`', '*', '_', '[', ']', '<', '>', '|', '~':
			escape = true
		case '#':
			escape = i == start || i >= closing
		case '-', '+', '=':
			// "- " and "+ " start a list item; "---" and "===" alone are a
			// rule or underline the line above as a heading.
			escape = i == start && (endsWord(i) || strings.Trim(s, " "+string(c)) == "")
		case '.', ')':
			// "1. " or "1) " at the start of a line is an ordered list.
			escape = i > start && i-start <= 9 && strings.Trim(s[start:i], "0123456789") == "" && endsWord(i)
		case '&':
			escape = mdEntityAt(s[i:])
		}
		if escape {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// mdEntityAt reports whether s starts with an HTML entity or a numeric
// character reference ("&amp;", "&#123;"), which Markdown would turn into
// the character it names.
func mdEntityAt(s string) bool {
	end := strings.IndexByte(s, ';')
	if end < 2 || end > 33 {
		return false
	}
	name := strings.TrimPrefix(s[1:end], "#")
	if name == "" {
		return false
	}
	for _, r := range name {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// mdCode wraps v in an inline code span whose backtick fence is longer than
// any run of backticks inside it.
func mdCode(v any) string {
	s := Printable(strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, mdString(v)))
	if s == "" {
		return ""
	}
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	// A space inside the fence keeps a backtick at either end from joining
	// it; Markdown strips one space from each side.
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// mdStatus is the line under a character's name: the edition, the status
// and how he died.
func mdStatus(s projections.Sheet) string {
	line := fmt.Sprintf("Edition %s, status: **%s**", mdEscape(s.Edition), mdEscape(s.Status))
	if s.Foe {
		line = fmt.Sprintf("Foe, edition %s, status: **%s**", mdEscape(s.Edition), mdEscape(s.Status))
		if s.Removed {
			line += ", off the roster"
		}
	}
	if s.Dead && s.DeathCause != "" {
		line += " — " + mdEscape(s.DeathCause)
	}
	return line + "."
}

// mdAuditWhat tells what an XP audit row was, escaped for a table cell, as
// `ltscamp audit xp` does: a spend with its recorded price and edition,
// the rules' objection, the undo that reverted it.
func mdAuditWhat(r projections.XPAuditRow) string {
	// Emphasis and strikethrough need their text to start and end with
	// something other than a space.
	what := mdEscape(strings.TrimSpace(r.What))
	if r.Kind == projections.LedgerSpend {
		price := r.Formula
		// "current level + 6 = 12 + 6" gets its total; "next level = 13"
		// already says it.
		if total := fmt.Sprintf("= %d", -r.Amount); !strings.HasSuffix(price, total) {
			price = strings.TrimSpace(price + " " + total)
		}
		what = fmt.Sprintf("%s: %s (edition %s)", what, mdEscape(price), mdEscape(r.Edition))
		if r.Rules != nil && !r.Rules.OK {
			what += " ✗"
			if problem := strings.TrimSpace(r.Rules.Problem); problem != "" {
				what += " **" + mdEscape(problem) + "**"
			}
		}
	}
	if r.Reverted != nil {
		// The mark comes first, as in `ltscamp audit xp`, so that it is
		// seen before the text it voids. Its square brackets are left as
		// they are: with no link definition in the document (every text
		// in it is escaped), "[…]" is plain text to GitHub and pandoc, and
		// reads better without backslashes.
		mark := fmt.Sprintf("[reverted by seq %d]", r.Reverted.Seq)
		if r.Reverted.Reason != "" {
			mark = fmt.Sprintf("[reverted by seq %d: %s]", r.Reverted.Seq, mdEscape(r.Reverted.Reason))
		}
		if what != "" {
			mark += " ~~" + what + "~~"
		}
		what = mark
	}
	return what
}
