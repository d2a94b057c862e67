package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"charm.land/lipgloss/v2"
	"charm.land/lipgloss/v2/table"
	"github.com/charmbracelet/colorprofile"

	"github.com/ltscamp/ltscamp/exports"
)

// printer writes human output: lipgloss tables on a terminal, plain
// aligned text when piped, no colour when NO_COLOR is set. Nothing here
// asks the terminal anything (Lip Gloss v2 renders without queries), so a
// terminal that never answers cannot stall a command.
type printer struct {
	w      io.Writer
	errw   io.Writer
	styled bool
	width  int
	// cells are the table cells cell made, which hold styled text.
	cells map[string]bool
}

func newPrinter(env *Env) *printer {
	p := &printer{w: env.Stdout, errw: env.Stderr, styled: env.StdoutTTY, width: env.Width}
	if p.styled {
		p.w = styledWriter(env.Stdout, env)
	}
	return p
}

// styledWriter brings styles (rendered in full ANSI) down to the basic
// colours on a terminal, or to none under NO_COLOR.
func styledWriter(w io.Writer, env *Env) io.Writer {
	profile := colorprofile.ANSI
	if env.Getenv("NO_COLOR") != "" {
		profile = colorprofile.Ascii
	}
	return &colorprofile.Writer{Forward: w, Profile: profile}
}

// toStatus sends what the printer writes to standard error: a write
// command's report, styled when standard error is a terminal.
func (p *printer) toStatus(env *Env) {
	p.w, p.styled = env.Stderr, env.StderrTTY
	if p.styled {
		p.w = styledWriter(env.Stderr, env)
	}
}

// printf writes human output. Its string arguments (and errors, and
// lists of strings) are user text as far as it knows: names, reasons,
// notes, actors, what projections.Describe says of an event. They are
// written through printable, so that a control character an old log holds
// (an "ESC[2J" in a name) is shown escaped instead of acting on the
// reader's terminal. Text the printer styled itself (styled) is written as
// it is. The format is the program's own and is written as it is.
func (p *printer) printf(format string, a ...any) { fmt.Fprintf(p.w, format, printableArgs(a)...) }

// note writes a status line to standard error, its arguments escaped as
// printf's are.
func (p *printer) note(format string, a ...any) {
	fmt.Fprintf(p.errw, format+"\n", printableArgs(a)...)
}

// styled is text the printer has styled (an outcome word, a heading): its
// escape sequences are the printer's own, so printf and table pass it on
// as it is. Whatever user text it holds was escaped before it was styled.
type styled string

// printable shows the characters of s that are not text as visible
// escapes ("\x1b"): see exports.Printable. Use it on user text that
// reaches the terminal by another way than printf's arguments, such as a
// table's cells.
func printable(s string) string { return exports.Printable(s) }

// printableLines is printable for a message of several lines (an error
// that lists problems one a line): each line is escaped, the line breaks
// kept.
func printableLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = printable(l)
	}
	return strings.Join(lines, "\n")
}

// printableArgs escapes printf's arguments that are text: strings,
// errors, lists of strings. It copies a only when something changes.
func printableArgs(a []any) []any {
	out := a
	set := func(i int, v any) {
		if &out[0] == &a[0] {
			out = append([]any(nil), a...)
		}
		out[i] = v
	}
	for i, v := range a {
		switch v := v.(type) {
		case styled:
			set(i, string(v))
		case string:
			if e := printable(v); e != v {
				set(i, e)
			}
		case error:
			if m := v.Error(); printable(m) != m {
				set(i, printable(m))
			}
		case []string:
			if slices.ContainsFunc(v, func(s string) bool { return printable(s) != s }) {
				c := make([]string, len(v))
				for k, s := range v {
					c[k] = printable(s)
				}
				set(i, c)
			}
		}
	}
	return out
}

// json writes v as indented JSON with a trailing newline.
func (p *printer) json(v any) error {
	return exports.WriteJSON(p.w, v)
}

// heading renders a bold title; the text is escaped (printable) first.
func (p *printer) heading(s string) styled {
	s = printable(s)
	if p.styled && p.width > 0 {
		// A long name wraps at spaces rather than run off the screen.
		s = wrapCell(s, p.width, true)
	}
	if !p.styled {
		return styled(s)
	}
	return styled(lipgloss.NewStyle().Bold(true).Render(s))
}

// good and bad colour an outcome word, escaped (printable) first.
func (p *printer) good(s string) styled { return p.colour(s, "2") }

func (p *printer) bad(s string) styled { return p.colour(s, "1") }

func (p *printer) colour(s, c string) styled {
	s = printable(s)
	if !p.styled {
		return styled(s)
	}
	return styled(lipgloss.NewStyle().Foreground(lipgloss.Color(c)).Bold(true).Render(s))
}

// cell makes a table cell that holds styled text: the styled pieces are
// written as they are, the others escaped (printable). table writes the
// cells made here as they are and escapes all others.
func (p *printer) cell(parts ...any) string {
	var b strings.Builder
	defer func() {
		if p.cells == nil {
			p.cells = map[string]bool{}
		}
		p.cells[b.String()] = true
	}()
	for _, part := range parts {
		switch v := part.(type) {
		case styled:
			b.WriteString(string(v))
		case string:
			if p.cells[v] {
				b.WriteString(v) // a cell made before, styled pieces and all
			} else {
				b.WriteString(printable(v))
			}
		default:
			fmt.Fprint(&b, v)
		}
	}
	return b.String()
}

// table writes rows under headers: a bordered lipgloss table on a terminal,
// tab-aligned plain text otherwise. Cells are user text and are escaped
// (printable), except those made by cell, which escaped their plain
// pieces and keep their styled ones.
//
// On a terminal the table fits its width (fitTable): the widest columns
// are narrowed and their cells wrap at spaces, never inside a word; when
// even that is too wide, the columns named in elide are left out, in that
// order, and a line under the table names them. Piped output is not a
// terminal and has no width: one line a row, for grep and cut (tableWithin
// gives piped output a width of its own).
func (p *printer) table(headers []string, rows [][]string, elide ...string) {
	p.tableWithin(0, headers, rows, elide...)
}

// tableWithin is table, with piped (plain) output fitted to plainWidth
// too (0: no limit).
func (p *printer) tableWithin(plainWidth int, headers []string, rows [][]string, elide ...string) {
	for _, r := range rows {
		for i, c := range r {
			if !p.cells[c] {
				r[i] = printable(c)
			}
		}
	}
	if !p.styled {
		fit := fitTable(headers, rows, plainWidth, func(n int) int { return 2 * (n - 1) }, elide)
		if fit.narrowed {
			headers, rows = fit.apply(headers, rows)
			p.plainWrapped(headers, rows)
			p.leftOut(fit.dropped, plainWidth)
			return
		}
		tw := tabwriter.NewWriter(p.w, 0, 0, 2, ' ', 0)
		if len(headers) > 0 {
			fmt.Fprintln(tw, strings.Join(headers, "\t"))
		}
		for _, r := range rows {
			fmt.Fprintln(tw, strings.Join(r, "\t"))
		}
		tw.Flush()
		return
	}
	// A bordered table spends 3 columns on each column (its padding and
	// its border) and one on the last border.
	fit := fitTable(headers, rows, p.width, func(n int) int { return 3*n + 1 }, elide)
	headers, rows = fit.apply(headers, rows)
	head := lipgloss.NewStyle().Bold(true).Padding(0, 1)
	cell := lipgloss.NewStyle().Padding(0, 1)
	t := table.New().
		Border(lipgloss.RoundedBorder()).
		BorderStyle(lipgloss.NewStyle().Foreground(lipgloss.Color("8"))).
		Headers(headers...).
		Rows(rows...).
		StyleFunc(func(row, col int) lipgloss.Style {
			if row == table.HeaderRow {
				return head
			}
			return cell
		})
	fmt.Fprintln(p.w, t.Render())
	p.leftOut(fit.dropped, p.width)
}

// plainWrapped writes a plain table whose cells hold several lines: each
// row takes as many lines as its tallest cell, columns two spaces apart,
// no trailing spaces.
func (p *printer) plainWrapped(headers []string, rows [][]string) {
	all := rows
	if len(headers) > 0 {
		all = append([][]string{headers}, rows...)
	}
	var widths []int
	split := make([][][]string, len(all))
	for j, r := range all {
		split[j] = make([][]string, len(r))
		for i, c := range r {
			split[j][i] = strings.Split(c, "\n")
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			for _, l := range split[j][i] {
				widths[i] = max(widths[i], lipgloss.Width(l))
			}
		}
	}
	for _, r := range split {
		height := 0
		for _, c := range r {
			height = max(height, len(c))
		}
		for k := range height {
			var b strings.Builder
			for i, c := range r {
				l := ""
				if k < len(c) {
					l = c[k]
				}
				b.WriteString(l)
				if i < len(r)-1 {
					b.WriteString(strings.Repeat(" ", widths[i]-lipgloss.Width(l)+2))
				}
			}
			fmt.Fprintln(p.w, strings.TrimRight(b.String(), " "))
		}
	}
}

// leftOut names, under a table, the columns left out to fit width.
func (p *printer) leftOut(dropped []string, width int) {
	if len(dropped) == 0 {
		return
	}
	names := strings.Join(dropped, ", ")
	if i := strings.LastIndex(names, ", "); i >= 0 {
		names = names[:i] + " and " + names[i+2:]
	}
	p.printf("%s\n", p.faint(wrapCell(fmt.Sprintf("(%s left out to fit %d columns)", names, width), width, true)))
}

// faint renders text the printer wrote itself in a dim colour.
func (p *printer) faint(s string) styled {
	if !p.styled {
		return styled(s)
	}
	return styled(lipgloss.NewStyle().Foreground(lipgloss.Color("8")).Render(s))
}
