package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/user"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
)

// DefaultDB is the campaign file used when neither --db nor LTSCAMP_DB is set.
const DefaultDB = "campaign.ltscamp"

// Env is everything the program takes from its process: arguments, streams,
// environment variables, the clock and whether the streams are terminals.
// Tests build one with buffers.
type Env struct {
	Args      []string
	Stdin     io.Reader
	Stdout    io.Writer
	Stderr    io.Writer
	Getenv    func(string) string
	Now       func() time.Time
	StdinTTY  bool
	StdoutTTY bool
	StderrTTY bool
	// Width is the terminal's width in columns, 0 when not a terminal.
	Width int
	// formsOff, when set, says why no form is shown even on a terminal
	// (inside `ltscamp play`).
	formsOff string
	// verifyKept makes the campaign check the states a session keeps
	// from command to command against the log (tests: see
	// campaign.Options.VerifyKept).
	verifyKept bool
	// version is the program's one-line version once read from the
	// build info: play's lines, each with a copy of play's Env, read it
	// once.
	version string
	// outputThrough, when set, is given each output file (export -o)
	// and returns the writer its contents go to: tests put a full disk
	// (/dev/full) under the file with it.
	outputThrough func(io.Writer) io.Writer
}

// app holds the global flags and the environment for every command.
type app struct {
	env     *Env
	db      string
	actor   string
	noInput bool
	out     *printer
	// printEvents is set for a write command run with the generic --json:
	// the events it appended are printed on standard output.
	printEvents bool
	// eventLines is set for a write command that reports what it did as
	// one line per event it appended (see printEventLines); show, set by
	// --show, has it print the sheets too.
	eventLines bool
	show       bool
	// progress draws long work on a terminal's standard error (nil when
	// it is not one).
	progress *progressBar
	// write is set for a command that writes to the campaign file: open
	// opens it for writing, and every other command opens it read-only.
	write bool
	// session is the campaign `ltscamp play` keeps open, which its
	// command lines run against (nil outside play).
	session *playSession
	// only, when set, names the one top-level command the tree is built
	// with: a line in play that names it needs no other, and building
	// the whole tree would cost more than its command.
	only string
}

// Main runs one ltscamp invocation and returns its exit status.
func Main(env *Env) int { return invoke(env, nil, "", "") }

// invoke runs one command line, env.Args, and returns its exit status.
// Inside `ltscamp play`, session is the campaign the screen keeps open
// (nil otherwise), only the top-level command the line names (see
// app.only) and prefix begins the error line ("line 3: ").
func invoke(env *Env, session *playSession, only, prefix string) int {
	// Standard output sent to a file keeps the first error writing it
	// gave, so that a full disk under it is told (stdoutError).
	var stdout *recordingWriter
	if !env.StdoutTTY {
		stdout = &recordingWriter{w: env.Stdout}
		recording := *env
		recording.Stdout = stdout
		env = &recording
	}
	a := &app{env: env, session: session, only: only}
	root := newRootCmd(a)
	root.SetArgs(env.Args)
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	err := root.Execute()
	if stdout != nil && stdout.err != nil && (err == nil || (errors.Is(err, stdout.err) && exitCode(err) != ExitSystem)) {
		if serr := stdoutError(stdout.err); serr != nil {
			err = serr
		}
	}
	if err == nil {
		return ExitOK
	}
	var told silentExit
	if errors.As(err, &told) {
		return int(told)
	}
	if strings.HasPrefix(err.Error(), "unknown command") || strings.HasPrefix(err.Error(), "unknown flag") {
		err = usageError{err}
	}
	// Errors can quote names and reasons from an old log: escaped, like
	// every human output.
	fmt.Fprintf(env.Stderr, "ltscamp: %s%s\n", prefix, printableLines(err.Error()))
	return exitCode(err)
}

func newRootCmd(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:   "ltscamp",
		Short: "Event-sourced campaign tracker for Legends of Time and Space",
		Long: `ltscamp tracks a Legends of Time and Space campaign as an append-only event log.

Every roll, XP award and spend, karma point and wish is an event in an SQLite
file; sheets and ledgers are folded from that log, so every number can be
audited back to the command that made it.`,
		Example: `  ltscamp demo                     # a campaign from the rule book's examples
  ltscamp init --name "Kit-Kat crew" --edition 2021
  ltscamp char new Ajax --st 12 --dx 11 --iq 9 --skill Unarmed:2 --skill Medic:2
  ltscamp roll 3/DX --char Ajax --dice 1,3,6
  ltscamp xp award Ajax 20 --reason "rescued the envoy"
  ltscamp xp spend Ajax ST
  ltscamp sheet Ajax`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("db") {
				if v := a.env.Getenv("LTSCAMP_DB"); v != "" {
					a.db = v
				}
			}
			if !cmd.Flags().Changed("actor") {
				a.actor = defaultActor(a.env)
			}
			a.out = newPrinter(a.env)
			a.write = writesFile(cmd)
			a.writeOutput(cmd)
			return nil
		},
	}
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		for _, arg := range a.env.Args {
			if _, nerr := strconv.Atoi(arg); nerr == nil && strings.HasPrefix(arg, "-") {
				return usagef("%s: negative numbers are not accepted here", arg)
			}
		}
		return usageError{fmt.Errorf("%w (see `%s --help`)", err, cmd.CommandPath())}
	})
	pf := root.PersistentFlags()
	pf.StringVar(&a.db, "db", DefaultDB, "campaign file or postgres:// URL ($LTSCAMP_DB replaces the default)")
	pf.StringVar(&a.actor, "actor", "", "who is running the command, recorded on every event (default $LTSCAMP_ACTOR, else the OS user)")
	pf.BoolVar(&a.noInput, "no-input", false, "never prompt; missing values are an error")

	for _, c := range topCommands() {
		if a.only == "" || a.only == c.name {
			root.AddCommand(c.make(a))
		}
	}
	if a.env.version == "" {
		a.env.version = buildVersion().String()
	}
	root.Version = a.env.version
	root.SetVersionTemplate("{{.Version}}\n")
	if a.only == "" {
		organize(root)
	} else {
		// A line of play that names its command: the top-level help, its
		// topics and the completion scripts are out of its reach.
		root.CompletionOptions.DisableDefaultCmd = true
		strict(root)
	}
	setHelpTemplates(root)
	markWrites(root)
	// Flag completions are registered in a map of cobra's that is never
	// cleared: only a completion request, which needs them, adds them,
	// so that play's tree a line leaves nothing behind.
	if len(a.env.Args) > 0 && (a.env.Args[0] == cobra.ShellCompRequestCmd || a.env.Args[0] == cobra.ShellCompNoDescRequestCmd) {
		a.completeCommands(root)
	}
	return root
}

// topCommands are the top-level commands, by name, in the order of the
// help. Inside play, a line that names one builds only it (app.only).
func topCommands() []topLevel {
	return []topLevel{
		{"init", newInitCmd},
		{"campaigns", newCampaignsCmd},
		{"char", newCharCmd},
		{"foe", newFoeCmd},
		{"sheet", newSheetCmd},
		{"party", newPartyCmd},
		{"roll", newRollCmd},
		{"contest", newContestCmd},
		{"tackle", newTackleCmd},
		{"reroll", newRerollCmd},
		{"karma", newKarmaCmd},
		{"wish", newWishCmd},
		{"curse", newCurseCmd},
		{"xp", newXPCmd},
		{"log", newLogCmd},
		{"adventure", newAdventureCmd},
		{"day", newDayCmd},
		{"encounter", newEncounterCmd},
		{"initiative", newInitiativeCmd},
		{"turn", newTurnCmd},
		{"sleep", newSleepCmd},
		{"night", newNightCmd},
		{"rest", newRestCmd},
		{"timeline", newTimelineCmd},
		{"note", newNoteCmd},
		{"equip", newEquipCmd},
		{"attack", newAttackCmd},
		{"dodge", newDodgeCmd},
		{"damage", newDamageCmd},
		{"heal", newHealCmd},
		{"ship", newShipCmd},
		{"dogfight", newDogfightCmd},
		{"undo", newUndoCmd},
		{"redo", newRedoCmd},
		{"audit", newAuditCmd},
		{"dice", newDiceCmd},
		{"whatif", newWhatifCmd},
		{"verify", newVerifyCmd},
		{"rebuild", newRebuildCmd},
		{"export", newExportCmd},
		{"import", newImportCmd},
		{"backup", newBackupCmd},
		{"restore", newRestoreCmd},
		{"rules", newRulesCmd},
		{"demo", newDemoCmd},
		{"play", newPlayCmd},
		{"share", newShareCmd},
		{"serve", newServeCmd},
		{"version", newVersionCmd},
	}
}

// topLevel is a top-level command's name and maker.
type topLevel struct {
	name string
	make func(*app) *cobra.Command
}

func defaultActor(env *Env) string {
	if v := strings.TrimSpace(env.Getenv("LTSCAMP_ACTOR")); v != "" {
		return v
	}
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if v := env.Getenv("USER"); v != "" {
		return v
	}
	return "unknown"
}

func (a *app) options() campaign.Options {
	opts := campaign.Options{Now: a.env.Now, Actor: a.actor, Build: releaseVersion, VerifyKept: a.env.verifyKept}
	if a.progress == nil {
		a.progress = a.newProgress()
	}
	if a.progress != nil {
		opts.Progress = a.progress.report
	}
	return opts
}

// open opens the campaign named by --db: for writing when the command
// writes to it, read-only otherwise, so that a reader never takes the
// write lock, never migrates the file, and can read a file it cannot
// write.
func (a *app) open() (*campaign.Service, error) {
	if s := a.session.serves(a.db); s != nil {
		if err := s.SetActor(a.actor); err != nil {
			return nil, err
		}
		return s, nil
	}
	if a.write {
		return campaign.Open(a.db, a.options())
	}
	return campaign.OpenReadOnly(a.db, a.options())
}

// writesFile reports whether cmd writes to the campaign file: the
// commands that append events (marked by markWrites), and rebuild, which
// saves snapshots beside the log.
func writesFile(cmd *cobra.Command) bool {
	return cmd.Annotations["write"] != "" || commandPath(cmd.Root(), cmd) == "rebuild"
}

// withCampaign opens the campaign, runs f and closes it.
func (a *app) withCampaign(f func(s *campaign.Service) error) error {
	s, err := a.open()
	if err != nil {
		return err
	}
	// A write's own report waits for its event lines (printEventLines).
	var report bytes.Buffer
	w, buffered := a.out.w, a.eventLines || a.show
	if buffered {
		a.out.w = &report
	}
	err = f(s)
	a.out.w = w
	if err == nil && a.printEvents {
		err = a.printAppended(s)
	}
	switch {
	case buffered && err == nil:
		err = a.printEventLines(s, report.Bytes())
	case buffered:
		a.out.w.Write(report.Bytes()) // what it said before it failed
	}
	if cerr := a.close(s); cerr != nil && err == nil {
		err = cerr
	}
	return err
}

// close closes a campaign open returned, unless it is the one `play`
// keeps open.
func (a *app) close(s *campaign.Service) error {
	if a.session != nil && s == a.session.svc {
		return nil
	}
	return s.Close()
}

// exactArgs is cobra.ExactArgs reporting a usage error.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("%s takes %s (got %d arguments); see `%s --help`", cmd.CommandPath(), what, len(args), cmd.CommandPath())
		}
		return nil
	}
}

// minArgs is cobra.MinimumNArgs reporting a usage error.
func minArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < n {
			return usagef("%s takes %s; see `%s --help`", cmd.CommandPath(), what, cmd.CommandPath())
		}
		return nil
	}
}
