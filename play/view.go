package play

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/projections"
)

// The screen's styles. Colour only marks: every state is also said in
// words, so that NO_COLOR loses nothing.
var (
	styleTitle    = lipgloss.NewStyle().Bold(true)
	styleDim      = lipgloss.NewStyle().Faint(true)
	styleBad      = lipgloss.NewStyle().Foreground(lipgloss.Red)
	styleGood     = lipgloss.NewStyle().Foreground(lipgloss.Green)
	styleSelected = lipgloss.NewStyle().Reverse(true)
	styleHeading  = lipgloss.NewStyle().Bold(true).Underline(true)
)

// minWidth and minHeight are the smallest screen laid out in full: a
// smaller terminal gets a clipped one.
const (
	minWidth  = 80
	minHeight = 24
)

func (m *model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "ltscamp play — " + m.table.Point.Campaign.Name
	return v
}

// render draws the whole screen as text, one line per row of the
// terminal: the header, the table, the log (or a command's output), the
// message, the command line and the keys.
func (m *model) render() string {
	w, h := max(m.width, 1), max(m.height, 1)
	top := m.header(w)
	top = append(top, rule(w, ""))
	bottom := m.footer(w)
	table := m.tableLines(w)
	// The table takes what it needs, but leaves the log four lines.
	room := h - len(top) - len(bottom)
	if max := room - 5; len(table) > max {
		table = m.clipTable(table, max)
	}
	m.paneRows = room - len(table)
	pane := m.pane(w, m.paneRows)
	out := make([]string, 0, h)
	out = append(out, top...)
	out = append(out, table...)
	out = append(out, pane...)
	out = append(out, bottom...)
	for i, l := range out {
		out[i] = ansi.Truncate(l, w, "…")
	}
	if len(out) > h {
		out = out[len(out)-h:]
	}
	return strings.Join(out, "\n")
}

// header says where the campaign is: its name and edition, the game time,
// the encounter and its turn, and the log's head.
func (m *model) header(w int) []string {
	p := m.table.Point
	c := p.Campaign
	parts := []string{styleTitle.Render(c.Name), "edition " + string(c.Edition)}
	if c.InAdventure {
		parts = append(parts, fmt.Sprintf("adventure %d %q", c.Adventure, c.AdventureTitle), fmt.Sprintf("day %d", c.Day))
	} else {
		parts = append(parts, "between adventures")
	}
	if c.InEncounter {
		enc := fmt.Sprintf("encounter %d", c.Encounter)
		if c.EncounterTitle != "" {
			enc += fmt.Sprintf(" %q", c.EncounterTitle)
		}
		parts = append(parts, enc)
		if t := m.table.Turns; t.Active {
			parts = append(parts, fmt.Sprintf("round %d, %s to act", t.Round(), sideName(t.Side())))
		} else {
			parts = append(parts, "initiative not rolled")
		}
	}
	hash := hex.EncodeToString(p.Hash)
	if len(hash) > 8 {
		hash = hash[:8]
	}
	parts = append(parts, fmt.Sprintf("seq %d %s", p.Seq, hash))
	return wrapJoin(parts, " · ", w)
}

func sideName(side string) string {
	if side == "foes" {
		return "the foes"
	}
	return "the " + side
}

// wrapJoin joins parts with sep into lines of at most w columns, breaking
// only between parts.
func wrapJoin(parts []string, sep string, w int) []string {
	var out []string
	line := ""
	for _, p := range parts {
		switch {
		case line == "":
			line = p
		case lipgloss.Width(line+sep+p) <= w:
			line += sep + p
		default:
			out = append(out, line)
			line = p
		}
	}
	return append(out, line)
}

// rule is a horizontal line across the screen, with a title.
func rule(w int, title string) string {
	if title == "" {
		return styleDim.Render(strings.Repeat("─", w))
	}
	title = "─ " + title + " "
	return styleDim.Render(title + strings.Repeat("─", max(0, w-lipgloss.Width(title))))
}

// columns of the combatants' table; a wide screen shows damage and
// fatigue as boxes against ST.
type column struct {
	title string
	width int
	right bool
}

func (m *model) columns(w int) []column {
	boxes := m.boxWidth(w)
	dmg := max(7, boxes)
	return []column{
		{"NAME", 14, false}, {"ST", 3, true}, {"DX", 3, true}, {"IQ", 3, true},
		{"ARMOUR", 9, false}, {"DAMAGE", dmg, false}, {"FATIGUE", dmg, false},
		{"K", 2, true}, {"W", 2, true}, {"STATUS", 8, false}, {"TURN", 10, false},
	}
}

// boxWidth is the width of the damage and fatigue boxes, 0 when the
// screen is too narrow for them.
func (m *model) boxWidth(w int) int {
	most := 0
	for i := range m.rows() {
		c, _ := m.row(i)
		most = max(most, c.Sheet.Attributes.ST)
	}
	// The other columns take 72; boxes and a count need ST+6 each.
	if w < 72+2*(most+6) {
		return 0
	}
	return most + 6
}

// tableLines are the party and, in an encounter, the foes.
func (m *model) tableLines(w int) []string {
	cols := m.columns(w)
	boxes := m.boxWidth(w) > 0
	head := make([]string, len(cols))
	for i, c := range cols {
		head[i] = c.title
	}
	out := []string{styleHeading.Render(ansi.Truncate(joinCells(cols, head), w, ""))}
	if len(m.table.Party) == 0 {
		out = append(out, styleDim.Render("  the party is empty: char new NAME --st N --dx N --iq N"))
	}
	for i := range m.rows() {
		c, foe := m.row(i)
		if foe && i == len(m.table.Party) {
			out = append(out, styleHeading.Render("FOES"))
		}
		line := joinCells(cols, m.cells(c, boxes))
		switch {
		case i == m.selected:
			line = styleSelected.Render(line)
		case !c.Sheet.Alive() || c.Sheet.Status != projections.StatusOK:
			line = styleBad.Render(line)
		}
		out = append(out, line)
	}
	return out
}

// clipTable keeps n lines of the table, the heading and the selected row
// among them.
func (m *model) clipTable(table []string, n int) []string {
	if n < 2 {
		return table[:max(n, 0)]
	}
	start := 1
	if m.selected >= 0 {
		start = max(1, min(m.selected+2-(n-1)/2, len(table)-(n-1)))
	}
	out := append([]string{table[0]}, table[start:start+n-2]...)
	return append(out, styleDim.Render(fmt.Sprintf("  … %d more rows: Shift-Up and Shift-Down (F2, F3) move through them", len(table)-n+1)))
}

// cells are a combatant's columns.
func (m *model) cells(c campaign.Combatant, boxes bool) []string {
	sh := c.Sheet
	armour := "-"
	if sh.Armor != nil {
		armour = sh.Armor.Name
	}
	dx := strconv.Itoa(sh.Adjusted.DX)
	if sh.Adjusted.DX != sh.Attributes.DX {
		dx += "'"
	}
	turn := c.Turn
	turn = strings.Replace(turn, " turn", "", 1)
	return []string{
		sh.Name, strconv.Itoa(sh.Attributes.ST), dx, strconv.Itoa(sh.Attributes.IQ), armour,
		track(sh.Damage, sh.Attributes.ST, boxes), track(sh.Fatigue, sh.Attributes.ST, boxes),
		strconv.Itoa(sh.Karma), strconv.Itoa(sh.Wishes), statusWord(sh.Status), turn,
	}
}

// statusWord fits a status in its column.
func statusWord(s string) string {
	switch s {
	case projections.StatusIncapacitated:
		return "incapac."
	case projections.StatusUnrecoverable:
		return "unrecov."
	}
	return s
}

// track is damage or fatigue against ST: "3/12", or boxes on a wide
// screen ("■■■□□□□□□□□□ 3").
func track(n, st int, boxes bool) string {
	if !boxes {
		return fmt.Sprintf("%d/%d", n, st)
	}
	filled := min(n, st)
	return strings.Repeat("■", filled) + strings.Repeat("□", st-filled) + fmt.Sprintf(" %d", n)
}

// joinCells lays cells out in their columns.
func joinCells(cols []column, cells []string) string {
	var b strings.Builder
	for i, c := range cols {
		cell := ansi.Truncate(cells[i], c.width, "…")
		pad := strings.Repeat(" ", max(0, c.width-lipgloss.Width(cell)))
		if c.right {
			b.WriteString(pad + cell)
		} else {
			b.WriteString(cell + pad)
		}
		if i < len(cols)-1 {
			b.WriteString(" ")
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// pane is the lower part of the screen, n lines: the log, or what the
// last command printed, or the keys.
func (m *model) pane(w, n int) []string {
	if n <= 0 {
		return nil
	}
	var title string
	var body []string
	switch {
	case m.help:
		title, body = "keys (Esc closes)", helpLines
	case m.output != nil:
		title, body = m.outputTitle+" (Esc closes)", m.output
	default:
		title, body = "log", m.logLines(w)
	}
	rows := n - 1
	m.scroll = min(m.scroll, max(0, len(body)-rows))
	end := len(body) - m.scroll
	if m.output != nil || m.help {
		// Printed output reads from its top.
		end = min(len(body), rows+m.scroll)
		m.scroll = end - min(len(body), rows)
	}
	start := max(0, end-rows)
	if m.output != nil || m.help {
		start = m.scroll
		end = min(len(body), start+rows)
	}
	if m.scroll > 0 && (m.output == nil && !m.help) {
		title += fmt.Sprintf(" (scrolled up %d: PgDn)", m.scroll)
	}
	out := []string{rule(w, title)}
	out = append(out, body[start:end]...)
	for len(out) < n {
		out = append(out, "")
	}
	return out
}

// logLines are the log's lines as `log` says them: seq, who, what; an
// undone command is marked by what undid it.
func (m *model) logLines(w int) []string {
	// Name the events and commands the lines refer to by seq, as `log`
	// does, when they are in the window (a command by its first event).
	seqs := make(map[string]int64, 2*len(m.table.Log))
	for _, e := range m.table.Log {
		seqs[e.ID] = e.Seq
		if _, ok := seqs[e.CommandID]; !ok {
			seqs[e.CommandID] = e.Seq
		}
	}
	seqOf := func(id string) (int64, bool) { seq, ok := seqs[id]; return seq, ok }
	out := make([]string, 0, len(m.table.Log))
	for _, e := range m.table.Log {
		what := printable(projections.Describe(e.Event, seqOf))
		if e.Reverted != nil {
			what = styleDim.Render(fmt.Sprintf("[undone by seq %d] ", e.Reverted.Seq) + what)
		}
		out = append(out, fmt.Sprintf("%6d  %s", e.Seq, what))
	}
	return out
}

// printable drops the control characters a name or reason from an old
// log may hold, so that nothing in the log can move the cursor.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// footer is the message, the suggestions, the command line and the keys.
func (m *model) footer(w int) []string {
	var out []string
	switch {
	case m.readErr != "":
		out = append(out, styleBad.Render(m.readErr))
	case len(m.message) > 0:
		// A long message (a refusal saying what to do instead) wraps
		// rather than losing its end.
		var msg []string
		for _, l := range m.message {
			msg = append(msg, strings.Split(ansi.Wrap(printable(l), w, " "), "\n")...)
		}
		if len(msg) > 3 {
			msg = append(msg[:2:2], fmt.Sprintf("… %d more lines", len(msg)-2))
		}
		for _, l := range msg {
			style := styleGood
			if m.failed {
				style = styleBad
			}
			out = append(out, style.Render(printable(l)))
		}
	default:
		out = append(out, "")
	}
	if len(m.suggestions) > 0 {
		words := make([]string, 0, len(m.suggestions))
		for _, s := range m.suggestions {
			words = append(words, s.Text)
		}
		out = append(out, styleDim.Render(strings.Join(wrapJoin(words, "  ", w)[:1], "")))
	}
	if m.ask != nil {
		// The question wraps: its end is the "(y/n)" it waits for.
		for _, l := range strings.Split(ansi.Wrap(printable(m.ask.text), w, " "), "\n") {
			out = append(out, styleTitle.Render(l))
		}
	} else {
		in := m.input
		if room := w - lipgloss.Width(m.preview) - 1; m.preview != "" && lipgloss.Width(in.Prompt+in.Value())+1 < room {
			// The input pads itself to its width: narrow it, so that
			// the chance fits beside it (and the cursor after the text).
			in.SetWidth(room - lipgloss.Width(in.Prompt) - 2)
		}
		line := in.View()
		if m.preview != "" {
			pad := max(2, w-lipgloss.Width(line)-lipgloss.Width(m.preview))
			line += strings.Repeat(" ", pad) + styleTitle.Render(m.preview)
		}
		out = append(out, line)
	}
	out = append(out, styleDim.Render(keysLine))
	return out
}

// keysLine is the bottom line: the hot keys.
const keysLine = "^Z undo  ^Y redo  ^R karma re-roll  ^T end turn  F1 keys  ^C quit"

// helpLines are the keys in full.
var helpLines = []string{
	"Enter        run the line: any ltscamp command, without \"ltscamp\"",
	"Tab          complete the word: commands, names, skills, weapons, XP buys",
	"Up, Down     walk the lines run before",
	"Ctrl-Z       undo the latest command (names it, asks y/n)",
	"Ctrl-Y       redo the latest undo",
	"Ctrl-R       spend karma to re-roll the latest roll (names it, asks y/n)",
	"Ctrl-T       end the turn (turn end)",
	"Shift-Up/Dn  select a party member or foe and show his sheet (also F2, F3)",
	"PgUp, PgDn   scroll the log or the output",
	"Esc          close the sheet, the output or this help",
	"F1, ?        this help (? on an empty line)",
	"Ctrl-C, Ctrl-D, quit   leave; every command run is saved already",
}
