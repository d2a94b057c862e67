package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"
	"github.com/ltscamp/ltscamp/exports"
	"github.com/muesli/termenv"
)

// printer writes human output: lipgloss tables on a terminal, plain
// aligned text when piped, no colour when NO_COLOR is set.
type printer struct {
	w      io.Writer
	errw   io.Writer
	styled bool
	width  int
	r      *lipgloss.Renderer
}

func newPrinter(env *Env) *printer {
	p := &printer{w: env.Stdout, errw: env.Stderr, styled: env.StdoutTTY, width: env.Width}
	p.r = lipgloss.NewRenderer(env.Stdout)
	// Say the background is dark rather than let lipgloss ask the terminal
	// (an OSC 11 query), which stalls on terminals that never answer.
	p.r.SetHasDarkBackground(true)
	// lipgloss's table draws some parts with the default renderer: make it
	// this one, so nothing else queries the terminal either.
	lipgloss.SetDefaultRenderer(p.r)
	if !p.styled || env.Getenv("NO_COLOR") != "" {
		p.r.SetColorProfile(termenv.Ascii)
	}
	return p
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
	return p.r.NewStyle().Bold(true).Render(s)
}

// good and bad colour an outcome word.
func (p *printer) good(s string) string {
	return p.r.NewStyle().Foreground(lipgloss.Color("2")).Bold(true).Render(s)
}

func (p *printer) bad(s string) string {
	return p.r.NewStyle().Foreground(lipgloss.Color("1")).Bold(true).Render(s)
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
	head := p.r.NewStyle().Bold(true).Padding(0, 1)
	cell := p.r.NewStyle().Padding(0, 1)
	t := table.New().
		Border(lipgloss.RoundedBorder()).
		BorderStyle(p.r.NewStyle().Foreground(lipgloss.Color("8"))).
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
