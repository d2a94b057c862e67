package play

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/ltscamp/ltscamp/campaign"
)

// logWindow is how many of the log's last events the screen reads: more
// than the tallest terminal shows, so that PgUp has some to scroll to.
const logWindow = 200

// model is the screen's state. Every read and every command runs in
// Update, one at a time, on the program's loop: the campaign service is
// never used from two goroutines.
type model struct {
	cfg           Config
	width, height int
	table         campaign.Table
	// readErr is the last read's failure, shown until a read succeeds.
	readErr string

	input   textinput.Model
	history []string
	// histPos is the history entry shown (len(history): the line being
	// typed, kept in draft).
	histPos int
	draft   string
	preview string
	// suggestions are the completion's candidates after a Tab that left
	// more than one.
	suggestions []Suggestion

	// message is what the last command said (its event lines, or its
	// refusal when failed is set).
	message []string
	failed  bool
	// output is what the last command printed on standard output (a
	// sheet, a table, help), shown in place of the log until Esc;
	// outputTitle names it.
	output      []string
	outputTitle string
	// scroll is how many lines the log or the output is scrolled up.
	scroll int
	// selected is the selected party member or foe (-1: none); its sheet
	// is shown as the output.
	selected int

	// ask is a question waiting for y or n, and the line a yes runs.
	ask *question
	// help shows the keys.
	help bool
	// paneRows is the height of the log pane as last drawn.
	paneRows int
}

// paneHeight is how many lines PgUp and PgDn move: the pane's height.
func (m *model) paneHeight() int { return max(2, m.paneRows) }

// question is a yes-or-no question before a key's command runs.
type question struct {
	text, line, no string
}

// maxMessage is the most lines of a command's report the message line
// shows; a longer one is shown in the pane.
const maxMessage = 3

// tickMsg is the poll for another process's events.
type tickMsg struct{}

func newModel(cfg Config) *model {
	in := textinput.New()
	in.Prompt = "> "
	in.Placeholder = "a command: roll 3/DX --char NAME, xp award NAME 5, help"
	st := in.Styles()
	st.Cursor.Blink = false
	in.SetStyles(st)
	in.Focus()
	m := &model{cfg: cfg, input: in, selected: -1, width: 80, height: 24}
	m.reload()
	return m
}

func (m *model) Init() tea.Cmd { return m.tick() }

func (m *model) tick() tea.Cmd {
	return tea.Tick(m.cfg.Poll, func(time.Time) tea.Msg { return tickMsg{} })
}

// reload reads the table anew.
func (m *model) reload() {
	t, err := m.cfg.Reader.Table(logWindow)
	if err != nil {
		m.readErr = "cannot read the campaign: " + err.Error()
		return
	}
	m.table, m.readErr = t, ""
	if m.selected >= m.rows() {
		m.selected = m.rows() - 1
	}
}

// poll reloads when another process appended since the last read.
func (m *model) poll() {
	seq, hash, err := m.cfg.Reader.Head()
	if err != nil {
		m.readErr = "cannot read the campaign: " + err.Error()
		return
	}
	if seq != m.table.Point.Seq || !bytes.Equal(hash, m.table.Point.Hash) || m.readErr != "" {
		m.reload()
		if m.selected >= 0 {
			m.showSheet()
		}
	}
}

func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.input.SetWidth(max(10, m.width-4))
		return m, nil
	case tickMsg:
		m.poll()
		return m, m.tick()
	case tea.KeyPressMsg:
		return m, m.key(msg)
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return m, cmd
}

// key handles a key press.
func (m *model) key(k tea.KeyPressMsg) tea.Cmd {
	if m.ask != nil {
		q := m.ask
		m.ask = nil
		if s := k.String(); s == "y" || s == "Y" {
			return m.run(q.line, false)
		}
		m.say(false, q.no)
		return nil
	}
	empty := m.input.Value() == ""
	switch s := k.String(); {
	case s == "ctrl+c" || s == "ctrl+d" && empty:
		return tea.Quit
	case s == "enter":
		line := strings.TrimSpace(m.input.Value())
		m.input.Reset()
		m.preview, m.suggestions = "", nil
		if line == "" {
			return nil
		}
		return m.run(line, true)
	case s == "tab":
		m.complete()
	case s == "up":
		m.walkHistory(-1)
	case s == "down":
		m.walkHistory(1)
	case s == "shift+up" || s == "f2":
		m.selectRow(-1)
	case s == "shift+down" || s == "f3":
		m.selectRow(1)
	case s == "pgup":
		m.scroll += m.paneHeight() - 1
	case s == "pgdown":
		m.scroll = max(0, m.scroll-(m.paneHeight()-1))
	case s == "esc":
		m.output, m.outputTitle, m.selected, m.scroll = nil, "", -1, 0
		m.suggestions, m.help = nil, false
	case s == "f1" || s == "?" && empty:
		m.help = !m.help
	case s == "ctrl+z":
		m.askUndo()
	case s == "ctrl+y":
		return m.run("redo", false)
	case s == "ctrl+r":
		m.askReroll()
	case s == "ctrl+t":
		return m.run("turn end", false)
	default:
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(k)
		m.suggestions = nil
		m.preview = m.cfg.Runner.Preview(m.input.Value())
		return cmd
	}
	return nil
}

// run runs a line through the runner and shows what it said; typed lines
// go to the history. A bare undo asks first, as the key does.
func (m *model) run(line string, typed bool) tea.Cmd {
	if typed {
		if n := len(m.history); n == 0 || m.history[n-1] != line {
			m.history = append(m.history, line)
		}
		m.histPos, m.draft = len(m.history), ""
		if strings.Join(strings.Fields(line), " ") == "undo" {
			m.askUndo()
			return nil
		}
	}
	var out, errs bytes.Buffer
	code := m.cfg.Runner.Run(line, &out, &errs)
	if code == Quit {
		return tea.Quit
	}
	m.reload()
	said := lines(errs.String())
	if code != 0 {
		m.say(true, said...)
		return nil
	}
	m.say(false, said...)
	switch printed := lines(out.String()); {
	case len(printed) > 0:
		m.output, m.outputTitle, m.selected, m.scroll = printed, line, -1, 0
	case len(said) > maxMessage:
		// A long report (an attack's) is read in the pane, whole.
		m.output, m.outputTitle, m.selected, m.scroll = said, line, -1, 0
		m.say(false, said[0])
	case len(said) == 0:
		m.say(false, "done: "+line)
	}
	return nil
}

// say sets the message line.
func (m *model) say(failed bool, text ...string) {
	m.message, m.failed = text, failed
}

// askUndo names the command a bare undo takes back and asks.
func (m *model) askUndo() {
	c, err := m.cfg.Reader.UndoTarget("")
	if err != nil {
		m.say(true, "ltscamp: "+err.Error())
		return
	}
	m.ask = &question{
		text: fmt.Sprintf("Undo seq %d, by %s: %s? (y/n)", c.FirstSeq, c.Actor, c.Summary),
		line: "undo " + c.ID, no: "nothing undone",
	}
}

// askReroll names the latest roll a karma point would re-roll and asks.
func (m *model) askReroll() {
	rs, err := m.cfg.Reader.RecentRolls(1)
	switch {
	case err != nil:
		m.say(true, "ltscamp: "+err.Error())
		return
	case len(rs) == 0:
		m.say(true, "no roll to re-roll: a karma re-roll takes a character's roll, contest or attack")
		return
	}
	r := rs[0]
	m.ask = &question{
		text: fmt.Sprintf("Spend karma to re-roll seq %d: %s? (y/n)", r.Seq, r.Summary),
		line: fmt.Sprintf("reroll %d", r.Seq), no: "nothing re-rolled",
	}
}

// complete completes the line's last word: the common part of the
// candidates, and the list of them when more than one is left. A word
// with a space ("Pirate 1") is quoted; while more than one candidate is
// left the quote stays open, so that the next Tab goes on inside it.
func (m *model) complete() {
	line := m.input.Value()
	word, start := lastWord(line)
	cands := matching(m.cfg.Runner.Complete(line), word)
	if len(cands) == 0 {
		m.suggestions = nil
		return
	}
	common := cands[0].Text
	for _, c := range cands[1:] {
		common = commonPrefix(common, c.Text)
	}
	done := len(cands) == 1 && !strings.HasSuffix(common, ":") && !strings.HasSuffix(common, "=")
	q := quoteWord(common, done)
	if !done && q == common && slices.ContainsFunc(cands, func(c Suggestion) bool { return quoteWord(c.Text, true) != c.Text }) {
		// "Pirate" of "Pirate" and "Pirate 1": the space typed next
		// belongs inside the name.
		q = "'" + common
	}
	if done {
		q += " "
	}
	if l := line[:start] + q; l != line {
		line = l
		m.input.SetValue(line)
		m.input.CursorEnd()
		m.preview = m.cfg.Runner.Preview(line)
	}
	if len(cands) > 1 {
		m.suggestions = cands
	} else {
		m.suggestions = nil
	}
}

// matching keeps the candidates that begin with the word typed (the
// completion gives them all, as to a shell, which keeps those itself);
// when none does as typed, those that do ignoring case.
func matching(cands []Suggestion, word string) []Suggestion {
	var exact, folded []Suggestion
	for _, c := range cands {
		switch {
		case strings.HasPrefix(c.Text, word):
			exact = append(exact, c)
		case strings.HasPrefix(strings.ToLower(c.Text), strings.ToLower(word)):
			folded = append(folded, c)
		}
	}
	if len(exact) > 0 {
		return exact
	}
	return folded
}

// lastWord is the word being typed at the end of line, unquoted ("" after
// a space), and the byte where it starts in line: "attack Ajax 'Pirate "
// is typing "Pirate " from byte 12.
func lastWord(line string) (word string, start int) {
	var b strings.Builder
	var quote rune
	inWord, escaped := false, false
	for i, r := range line {
		if !inWord && r != ' ' && r != '\t' {
			inWord, start = true, i
			b.Reset()
		}
		switch {
		case escaped:
			b.WriteRune(r)
			escaped = false
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			b.WriteRune(r)
		case r == '\\':
			escaped = true
		case r == '\'' || r == '"':
			quote = r
		case r == ' ' || r == '\t':
			inWord = false
		default:
			b.WriteRune(r)
		}
	}
	if !inWord {
		return "", len(line)
	}
	return b.String(), start
}

// quoteWord quotes a word that holds a space or a quote, as a shell reads
// it; closed unset leaves the quote open.
func quoteWord(w string, closed bool) string {
	if !strings.ContainsAny(w, " \t'\"\\") {
		return w
	}
	q := "'" + strings.ReplaceAll(w, "'", `'\''`)
	if closed {
		q += "'"
	}
	return q
}

func commonPrefix(a, b string) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n]
}

// walkHistory shows an earlier (-1) or later (+1) line of the history.
func (m *model) walkHistory(step int) {
	if len(m.history) == 0 {
		return
	}
	if m.histPos == len(m.history) {
		m.draft = m.input.Value()
	}
	m.histPos = min(max(0, m.histPos+step), len(m.history))
	if m.histPos == len(m.history) {
		m.input.SetValue(m.draft)
	} else {
		m.input.SetValue(m.history[m.histPos])
	}
	m.input.CursorEnd()
	m.preview = m.cfg.Runner.Preview(m.input.Value())
}

// rows is how many party members and foes the table lists.
func (m *model) rows() int { return len(m.table.Party) + len(m.table.Foes) }

// row returns the i-th combatant of the table: the party, then the foes.
func (m *model) row(i int) (campaign.Combatant, bool) {
	if i < len(m.table.Party) {
		return m.table.Party[i], false
	}
	return m.table.Foes[i-len(m.table.Party)], true
}

// selectRow moves the selection and shows the selected one's sheet.
func (m *model) selectRow(step int) {
	n := m.rows()
	if n == 0 {
		return
	}
	switch {
	case m.selected < 0 && step < 0:
		m.selected = n - 1
	case m.selected < 0:
		m.selected = 0
	default:
		m.selected = (m.selected + step + n) % n
	}
	m.showSheet()
}

// showSheet shows the selected combatant's full sheet, as `sheet NAME`
// (`foe show NAME`) prints it.
func (m *model) showSheet() {
	if m.selected < 0 || m.selected >= m.rows() {
		return
	}
	c, foe := m.row(m.selected)
	line := "sheet " + quoteWord(c.Sheet.Name, true)
	if foe {
		line = "foe show " + quoteWord(c.Sheet.Name, true)
	}
	var out, errs bytes.Buffer
	if m.cfg.Runner.Run(line, &out, &errs) != 0 {
		m.output, m.outputTitle = lines(errs.String()), line
		return
	}
	m.output, m.outputTitle, m.scroll = lines(out.String()), line, 0
}

// lines splits output into its lines, without the last newline.
func lines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
