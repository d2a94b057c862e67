package main

import (
	"fmt"
	"io"
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

func (p *printer) printf(format string, a ...any) { fmt.Fprintf(p.w, format, a...) }

// note writes a status line to standard error.
func (p *printer) note(format string, a ...any) { fmt.Fprintf(p.errw, format+"\n", a...) }

// json writes v as indented JSON with a trailing newline.
func (p *printer) json(v any) error {
	return exports.WriteJSON(p.w, v)
}

// heading renders a bold title.
func (p *printer) heading(s string) string {
	if !p.styled {
		return s
	}
	return lipgloss.NewStyle().Bold(true).Render(s)
}

// good and bad colour an outcome word.
func (p *printer) good(s string) string { return p.colour(s, "2") }

func (p *printer) bad(s string) string { return p.colour(s, "1") }

func (p *printer) colour(s, c string) string {
	if !p.styled {
		return s
	}
	return lipgloss.NewStyle().Foreground(lipgloss.Color(c)).Bold(true).Render(s)
}

// table writes rows under headers: a bordered lipgloss table on a terminal,
// tab-aligned plain text otherwise.
func (p *printer) table(headers []string, rows [][]string) {
	if !p.styled {
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
	if p.width > 0 && lipgloss.Width(t.Render()) > p.width {
		// Fit the terminal: lipgloss shrinks the widest columns and wraps.
		t.Width(p.width)
	}
	fmt.Fprintln(p.w, t.Render())
}
