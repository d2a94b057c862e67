package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/kballard/go-shellquote"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/play"
	"github.com/ltscamp/ltscamp/rules"
)

func newPlayCmd(a *app) *cobra.Command {
	var stopOnError bool
	cmd := &cobra.Command{
		Use:   "play",
		Short: "Keep the campaign open all evening: party, foes and log on one screen, a command line below",
		Long: `Open the campaign for the evening. On a terminal, play is a full screen: a
header (campaign, adventure, game day and hour, encounter, round and the side
to act, the log's head), the party and, during an encounter, its foes, the
latest log lines with each roll's dice, and a command line at the bottom.

Every ltscamp command works on that line without the "ltscamp" prefix: the
same commands run in this process against the open campaign, so the grammar,
the help, the errors and the events are those of the CLI. Tab completes
names, skills, weapons and what XP can buy; Up and Down walk the history;
while a check is typed, its chance is shown before the dice are rolled.
Forms are never shown inside play: give every value on the line.

Keys: Enter runs the line; Tab completes; Up and Down walk the history;
Ctrl-Z undoes the latest command (it names what it takes back and asks);
Ctrl-Y redoes; Ctrl-R spends a karma point to re-roll the latest roll (it
names the roll and asks); Ctrl-T ends the turn; Shift-Up and Shift-Down (or
F2 and F3) select a party member or foe and show his full sheet; PgUp and
PgDn scroll the log; Esc closes a sheet or a command's output; F1 or ? on an
empty line shows the keys; Ctrl-C, Ctrl-D or "quit" leaves.

Another process writing the campaign (a second GM terminal, a player's
CLI) shows on the screen within a second. Idle, the screen only reads: it
never holds the write lock.

When standard input is not a terminal, play reads one command per line and
writes each command's normal output, as if each were run on its own: a
session can be scripted ("ltscamp play < evening.txt"). Blank lines and
lines starting with # are skipped; "quit" ends early. A line that fails
prints its error with its line number and play goes on (with
--stop-on-error, it stops there); play then exits with the first failed
line's exit status.`,
		Example: `  ltscamp play
  ltscamp --db kitkat.ltscamp play
  ltscamp play < evening.txt
  printf 'roll 3/DX --char Ajax\nsheet Ajax\n' | ltscamp play`,
		Args: exactArgs(0, "no arguments (the commands are typed inside it)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if a.session != nil {
				return usagef("play is already running: type the commands themselves here")
			}
			opts := a.options()
			opts.SnapEvery = playSnapEvery
			s, err := campaign.Open(a.db, opts)
			if err != nil {
				return err
			}
			session := &playSession{env: a.env, db: a.db, svc: s, actor: a.actor, actorSet: cmd.Flags().Changed("actor")}
			defer s.Close()
			if a.env.StdinTTY && a.env.StdoutTTY {
				return session.screen()
			}
			return session.lines(a.env.Stdin, stopOnError)
		},
	}
	cmd.Flags().BoolVar(&stopOnError, "stop-on-error", false, "with commands on standard input, stop at the first line that fails")
	return cmd
}

// playSnapEvery is how many events a fold reads in play before its
// command saves a snapshot: play appends all evening to a file it keeps
// open, and each of its commands should fold a handful of events.
const playSnapEvery = 16

// playSession is the campaign `ltscamp play` keeps open: each line typed
// or read runs as an ltscamp command line against it.
type playSession struct {
	env *Env
	db  string
	svc *campaign.Service
	// actor is play's own --actor (or its default), which each line
	// inherits unless it names its own; actorSet is set when --actor was
	// given to play itself.
	actor    string
	actorSet bool
}

// serves returns the open campaign when a command's --db names it, nil
// otherwise (and outside play): a line naming another file opens that one
// as the CLI would.
func (p *playSession) serves(db string) *campaign.Service {
	if p == nil {
		return nil
	}
	if db == p.db {
		return p.svc
	}
	if x, err := filepath.Abs(db); err == nil {
		if y, err := filepath.Abs(p.db); err == nil && x == y {
			return p.svc
		}
	}
	return nil
}

// preLen is how many words args puts before the line's own.
func (p *playSession) preLen() int {
	if p.actorSet {
		return 4
	}
	return 2
}

// errQuit is the line that ends the session.
var errQuit = errors.New("quit")

// args splits a line as a shell would (quotes, backslashes; no variables,
// no globs), without the "ltscamp" a user may type out of habit, and with
// play's own --db and --actor ahead of the line's. It returns nil for a
// blank or comment line and errQuit for "quit" or "exit".
func (p *playSession) args(line string) ([]string, error) {
	words, err := shellquote.Split(line)
	if err != nil {
		return nil, usagef("%s (the line is split as a shell would: close the quote)", strings.TrimPrefix(err.Error(), "Unterminated "))
	}
	if len(words) == 0 || strings.HasPrefix(words[0], "#") {
		return nil, nil
	}
	if words[0] == "ltscamp" {
		words = words[1:]
	}
	if len(words) == 1 && (words[0] == "quit" || words[0] == "exit") {
		return nil, errQuit
	}
	if len(words) == 0 {
		return nil, nil
	}
	// The line's own flags come after, so that they win.
	pre := []string{"--db", p.db}
	if p.actorSet {
		pre = append(pre, "--actor", p.actor)
	}
	return append(pre, words...), nil
}

// topCommand is the top-level command a line's words name first, or ""
// when the first word is a flag or names none (help, a typo): then the
// whole tree is built, to answer as the CLI does.
func topCommand(words []string) string {
	for _, w := range words {
		if strings.HasPrefix(w, "-") {
			return ""
		}
		for _, c := range topCommands() {
			if c.name == w {
				return w
			}
		}
		return ""
	}
	return ""
}

// run runs one command line against the open campaign, as `ltscamp LINE`
// would, its output on stdout and stderr, and returns its exit status.
// prefix begins its error line. A refused command appends nothing (the
// command itself is refused as the CLI refuses it).
func (p *playSession) run(words []string, stdout, stderr io.Writer, prefix string) int {
	p.svc.Begin()
	return invoke(p.lineEnv(words, stdout, stderr), p, topCommand(words[p.preLen():]), prefix)
}

// lineEnv is the environment a line runs in inside play: its words, its
// output on stdout and stderr, no terminal and no forms.
func (p *playSession) lineEnv(words []string, stdout, stderr io.Writer) *Env {
	env := *p.env
	env.Args = words
	env.Stdin = strings.NewReader("")
	env.StdinTTY, env.StdoutTTY, env.StderrTTY = false, false, false
	env.Stdout, env.Stderr = stdout, stderr
	env.formsOff = "play shows no forms: give every value on the line"
	return &env
}

// Run implements play.Runner: one line typed on the screen.
func (p *playSession) Run(line string, stdout, stderr io.Writer) int {
	words, err := p.args(line)
	switch {
	case errors.Is(err, errQuit):
		return play.Quit
	case err != nil:
		fmt.Fprintf(stderr, "ltscamp: %s\n", err)
		return exitCode(err)
	case words == nil:
		return ExitOK
	}
	return p.run(words, stdout, stderr, "")
}

// lines runs the commands read from r, one a line, and returns the first
// failed line's error status (see `play --help`).
func (p *playSession) lines(r io.Reader, stopOnError bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	first := ExitOK
	for n := 1; sc.Scan(); n++ {
		words, err := p.args(sc.Text())
		code := ExitOK
		switch {
		case errors.Is(err, errQuit):
			return exitStatus(first)
		case err != nil:
			fmt.Fprintf(p.env.Stderr, "ltscamp: line %d: %s\n", n, err)
			code = exitCode(err)
		case words != nil:
			code = p.run(words, p.env.Stdout, p.env.Stderr, fmt.Sprintf("line %d: ", n))
		}
		if code != ExitOK && first == ExitOK {
			first = code
		}
		if code != ExitOK && stopOnError {
			break
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading the commands: %w", err)
	}
	return exitStatus(first)
}

// screen runs the full-screen session on the terminal until the user
// leaves, or a SIGTERM or SIGHUP (a closed terminal) ends it: every
// command it ran is committed already, and the terminal is given back.
func (p *playSession) screen() error {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sig)
	return play.Run(play.Config{
		Runner:  p,
		Reader:  p.svc,
		Input:   p.env.Stdin,
		Output:  p.env.Stdout,
		Signals: sig,
		Getenv:  p.env.Getenv,
	})
}

// Complete implements play.Runner: the shell completion's candidates for
// the last word of line, from the same cobra commands (`__complete`).
func (p *playSession) Complete(line string) []play.Suggestion {
	words, err := shellquote.Split(line)
	open := false
	if err != nil {
		// A quote left open is the word being typed ("'Pirate ").
		for _, q := range []string{"'", `"`} {
			if words, err = shellquote.Split(line + q); err == nil {
				open = true
				break
			}
		}
		if err != nil {
			return nil
		}
	}
	if !open && (strings.HasSuffix(line, " ") || len(words) == 0) {
		words = append(words, "")
	}
	// cobra's __complete tells what it cannot parse (a mistyped flag, an
	// unknown command) on the process's own standard error, which is the
	// terminal the screen is drawn on: such a line has no candidates. A
	// flag waiting for the value being typed is what it completes.
	root := newRootCmd(&app{env: p.env, session: p})
	cmd, rest, err := root.Find(append([]string{"--db", p.db}, words[:len(words)-1]...))
	if err == nil {
		err = cmd.ParseFlags(rest)
	}
	if needsValue := new(pflag.ValueRequiredError); err != nil && !errors.As(err, &needsValue) {
		return nil
	}
	var out bytes.Buffer
	invoke(p.lineEnv(append([]string{cobra.ShellCompRequestCmd, "--db", p.db}, words...), &out, io.Discard), p, "", "")
	return parseCompletions(out.String())
}

// parseCompletions reads `__complete`'s answer: a candidate a line, with
// a tab before its description, then the ":directive" line.
func parseCompletions(s string) []play.Suggestion {
	var out []play.Suggestion
	for _, l := range strings.Split(s, "\n") {
		if l == "" || strings.HasPrefix(l, ":") || strings.HasPrefix(l, "Completion ended") {
			continue
		}
		text, desc, _ := strings.Cut(l, "\t")
		out = append(out, play.Suggestion{Text: text, Description: desc})
	}
	return out
}

// exitStatus is an exit status as the error that makes Main exit with it.
func exitStatus(code int) error {
	if code == ExitOK {
		return nil
	}
	return silentExit(code)
}

// silentExit is an exit status whose message was printed already.
type silentExit int

func (e silentExit) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// Preview implements play.Runner: while a check is typed, its chance
// before the dice ("3/DX Ajax: 62.5%"), decided as `roll` would decide it
// and recorded nowhere. Anything else, or a line not yet whole, shows
// nothing.
func (p *playSession) Preview(line string) string {
	words, err := shellquote.Split(line)
	if err != nil || len(words) < 2 {
		return ""
	}
	if words[0] == "ltscamp" {
		words = words[1:]
	}
	if words[0] != "roll" {
		return ""
	}
	a := &app{env: p.env, session: p, only: "roll"}
	root := newRootCmd(a)
	cmd, rest, err := root.Find(words)
	if err != nil || cmd.Name() != "roll" || cmd.Parent() != root {
		return ""
	}
	if err := cmd.ParseFlags(rest); err != nil {
		return ""
	}
	args := cmd.Flags().Args()
	if len(args) < 1 || len(args) > 3 {
		return ""
	}
	who, _ := cmd.Flags().GetString("char")
	who, _, err = rollArgs(cmd, args, who)
	if err != nil || who == "" {
		return ""
	}
	c, err := p.svc.Chance(campaign.RollRequest{Expr: args[0], Character: who})
	if err != nil {
		return ""
	}
	if c.Lacking {
		return fmt.Sprintf("%s %s: lacks the skill, fails", c.Expr, c.Character)
	}
	return fmt.Sprintf("%s %s: %s", c.Expr, c.Character, rules.FormatProbability(c.Probability))
}
