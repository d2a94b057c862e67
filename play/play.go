// Package play is the table-side screen of `ltscamp play`: the party, the
// foes and the latest log lines of one open campaign, with a command line
// below that runs the CLI's own commands. It holds no rules and no
// grammar: the lines it takes are run by a Runner (the CLI's cobra
// commands, in process), and what it shows is read through a Reader
// (the campaign service) and rendered here.
package play

import (
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/ltscamp/ltscamp/campaign"
)

// Quit is the exit status a Runner returns for a line that ends the
// session ("quit", "exit").
const Quit = -1

// Suggestion is one candidate of the shell completion: the word, and what
// it is.
type Suggestion struct {
	Text        string
	Description string
}

// Runner runs the lines typed on the screen.
type Runner interface {
	// Run runs one command line, as `ltscamp LINE` would, with its
	// output on stdout and stderr, and returns its exit status (Quit for
	// a line that ends the session).
	Run(line string, stdout, stderr io.Writer) int
	// Complete returns the candidates for the line's last word, as the
	// shell completion gives them.
	Complete(line string) []Suggestion
	// Preview returns what the line would decide, before it runs: a
	// check's chance ("3/DX Ajax: 62.5%"), or "" when there is nothing
	// to tell.
	Preview(line string) string
}

// Reader reads the campaign the screen shows. Its reads never take the
// write lock.
type Reader interface {
	Table(logLines int) (campaign.Table, error)
	// Head is the log's last seq and hash: polled, it must be cheap.
	Head() (int64, []byte, error)
	// UndoTarget names the command a bare undo would take back.
	UndoTarget(ref string) (campaign.CommandInfo, error)
	// RecentRolls are the latest rolls a karma re-roll may name.
	RecentRolls(limit int) ([]campaign.Recent, error)
}

// Config is what Run needs.
type Config struct {
	Runner Runner
	Reader Reader
	// Input and Output are the terminal.
	Input  io.Reader
	Output io.Writer
	// Signals, when set, ends the session on any signal it delivers (a
	// SIGHUP: the terminal closed). SIGTERM and SIGINT end it anyway.
	Signals <-chan os.Signal
	// Getenv reads NO_COLOR.
	Getenv func(string) string
	// Poll is how often the screen looks for another process's events;
	// 0 means every 250 ms.
	Poll time.Duration
}

// pollEvery is how often the screen polls the log's head by default: well
// within the second the issue allows for another process's events.
const pollEvery = 250 * time.Millisecond

// NewModel returns the screen's model for cfg, for a driver other than Run
// (tests drive it with teatest, or call its Update and View): the screen
// Run shows, with the same default poll.
func NewModel(cfg Config) tea.Model {
	if cfg.Poll == 0 {
		cfg.Poll = pollEvery
	}
	return newModel(cfg)
}

// Run shows the screen until the user leaves. Every command it ran was
// committed when it printed its result; leaving, by a key, a signal or a
// crash, gives the terminal back as it was.
func Run(cfg Config) error {
	m := NewModel(cfg)
	opts := []tea.ProgramOption{tea.WithInput(cfg.Input), tea.WithOutput(cfg.Output)}
	if cfg.Getenv != nil && cfg.Getenv("NO_COLOR") != "" {
		opts = append(opts, tea.WithColorProfile(colorprofile.Ascii))
	}
	p := tea.NewProgram(m, opts...)
	if cfg.Signals != nil {
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-cfg.Signals:
				p.Quit()
			case <-done:
			}
		}()
	}
	_, err := p.Run()
	return err
}
