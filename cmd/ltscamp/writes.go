package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
)

// writeCommands are the commands that append to the log, by path below the
// root. What they did is a report, not data: it goes to standard error, so
// that standard output carries only what --json asks for. ownJSON marks
// those whose --json prints a document of their own (a roll, an attack);
// the others print the events they appended, with their seqs.
var writeCommands = map[string]struct{ ownJSON bool }{
	"init": {}, "char new": {}, "char set": {}, "foe add": {}, "foe remove": {},
	"roll": {ownJSON: true}, "reroll": {ownJSON: true}, "note": {ownJSON: true}, "import roster": {ownJSON: true},
	"contest": {}, "tackle": {}, "attack": {}, "dodge": {}, "damage dice": {}, "ship hit": {},
	"karma grant": {}, "karma storytell": {}, "karma to-xp": {}, "wish grant": {}, "wish use": {},
	"curse add": {}, "curse lift": {}, "xp award": {}, "xp plotword": {}, "xp spend": {},
	"adventure start": {}, "adventure end": {}, "day next": {}, "encounter start": {}, "encounter end": {},
	"sleep": {}, "rest": {}, "day end": {}, "night": {}, "equip": {}, "damage": {}, "heal": {},
	"ship new": {}, "ship crew": {}, "ship repair": {}, "ship turn-end": {}, "ship fire": {}, "ship template add": {},
	"dogfight start": {}, "dogfight maneuver": {}, "dogfight exit": {}, "dogfight end": {},
	"undo": {}, "redo": {}, "import log": {},
	"initiative": {}, "turn end": {},
	"share": {ownJSON: true}, "share revoke": {},
}

// ownReport are the write commands whose own compact report stands for
// the events they append (an attack's block, a contest's sides): they
// print no event lines.
var ownReport = map[string]bool{
	"init": true, "contest": true, "tackle": true, "attack": true, "dodge": true, "damage dice": true,
	"ship hit": true, "ship fire": true, "dogfight maneuver": true, "import log": true,
	"undo": true, "redo": true, "damage": true, // damage prints each seq
	// The time and turn commands tell their events themselves (printTime).
	"adventure start": true, "adventure end": true, "day next": true,
	"encounter start": true, "encounter end": true, "sleep": true, "rest": true,
	"day end": true, "night": true, "initiative": true, "turn end": true,
	"share": true, // the link is its report
}

// markWrites gives every write command --quiet, --show and --print-head,
// and --json where it has none of its own.
func markWrites(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if w, ok := writeCommands[commandPath(root, c)]; ok {
			if c.Annotations == nil {
				c.Annotations = map[string]string{}
			}
			c.Annotations["write"] = "events"
			if w.ownJSON {
				c.Annotations["write"] = "own"
			} else if c.Flags().Lookup("json") == nil {
				c.Flags().Bool("json", false, "print the events appended, with their seqs, as JSON on standard output")
			}
			if c.Flags().Lookup("quiet") == nil {
				c.Flags().BoolP("quiet", "q", false, "print nothing but errors (and what --json asks for)")
			}
			if c.Flags().Lookup("show") == nil {
				c.Flags().Bool("show", false, "after the event lines, print the sheet of each character or foe the command changed (the ship, for a ship command)")
			}
			if c.Flags().Lookup("print-head") == nil {
				c.Flags().Bool("print-head", false, "print the log's new head (seq and hash) on standard error, for `verify --head` later")
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// commandPath is a command's path below the root: "xp spend".
func commandPath(root, c *cobra.Command) string {
	if c == root {
		return ""
	}
	p := c.Name()
	for parent := c.Parent(); parent != nil && parent != root; parent = parent.Parent() {
		p = parent.Name() + " " + p
	}
	return p
}

// writeOutput points a write command's report at standard error, or at
// nothing with --quiet, notes a generic --json and sets up --print-head.
// Every command's errors that tell of the file or the disk are said as
// such (see explainStoreErrors).
func (a *app) writeOutput(cmd *cobra.Command) {
	a.explainStoreErrors(cmd)
	kind := cmd.Annotations["write"]
	if kind == "" {
		return
	}
	if printHead, _ := cmd.Flags().GetBool("print-head"); printHead {
		a.printHeadAfter(cmd)
	}
	quiet, _ := cmd.Flags().GetBool("quiet")
	asJSON, _ := cmd.Flags().GetBool("json")
	if show, _ := cmd.Flags().GetBool("show"); show && !asJSON && !quiet {
		a.show = true
	}
	if kind == "events" && !asJSON && !quiet && !ownReport[commandPath(cmd.Root(), cmd)] {
		a.eventLines = true
	}
	switch {
	case asJSON && kind == "own":
		// The command prints its own document on standard output.
		if quiet {
			a.out.errw = io.Discard
		}
		return
	case asJSON:
		a.printEvents = true
		a.out.w = io.Discard
	case quiet:
		a.out.w = io.Discard
	default:
		a.out.toStatus(a.env)
	}
	if quiet {
		a.out.errw = io.Discard
	}
}

// printAppended prints the events the command appended as a JSON array,
// each as `log --json` shows it.
func (a *app) printAppended(s *campaign.Service) error {
	evs := s.Appended()
	out := make([]logEvent, len(evs))
	for i, e := range evs {
		out[i] = eventJSON(e)
	}
	p := newPrinter(a.env)
	return p.json(out)
}

// printEventLines prints one line per event the command appended, as
// `log` says it, with its seq and whom it is about ("  seq 3  Kira: +20
// XP: won"), as the time commands do (printTime), before what the command
// itself said (report), then with --show the sheets. A line longer than
// the terminal (80 columns off one) wraps at spaces, under its text.
func (a *app) printEventLines(s *campaign.Service, report []byte) error {
	evs := s.Appended()
	if len(evs) == 0 {
		_, err := a.out.w.Write(report)
		return err
	}
	names, err := streamNames(s)
	if err != nil {
		return err
	}
	if !a.eventLines {
		if _, err := a.out.w.Write(report); err != nil {
			return err
		}
		return a.showSheets(evs, names)
	}
	who := map[string]string{}
	for stream, sh := range names {
		who[stream] = sh.Name
	}
	ships, err := s.Ships()
	if err != nil {
		return err
	}
	for _, sh := range ships {
		who[events.ShipStream(sh.ID)] = sh.Name
	}
	width := a.env.Width
	if width <= 0 || width > 80 {
		width = 80
	}
	for _, e := range evs {
		prefix := fmt.Sprintf("  seq %d  ", e.Seq)
		what := printable(projections.Describe(e, nil))
		if name, ok := who[e.Stream]; ok && !saysWho(what, name) {
			what = printable(name) + ": " + what
		}
		// Wrapped at spaces under the text, never cut: a word stays whole.
		indent := strings.Repeat(" ", utf8.RuneCountInString(prefix))
		lines := strings.Split(wrapCell(what, width-len(indent), false), "\n")
		a.out.printf("%s%s\n", prefix, lines[0])
		for _, l := range lines[1:] {
			a.out.printf("%s%s\n", indent, l)
		}
	}
	if _, err := a.out.w.Write(report); err != nil {
		return err
	}
	return a.showSheets(evs, names)
}

// saysWho reports whether what an event says begins with whom it is
// about ("Ajax created", "Ajax: 3/IQ", "foe Drone added"), so that the
// name is not said twice.
func saysWho(what, name string) bool {
	what = strings.TrimPrefix(what, "foe ")
	return strings.HasPrefix(what, name+" ") || strings.HasPrefix(what, name+":")
}

// showSheets prints, with --show, the sheet of each character or foe an
// appended event is about, in the order first met.
func (a *app) showSheets(evs []events.Event, names map[string]projections.Sheet) error {
	if !a.show {
		return nil
	}
	seen := map[string]bool{}
	for _, e := range evs {
		sh, ok := names[e.Stream]
		if !ok || seen[e.Stream] {
			continue
		}
		seen[e.Stream] = true
		printSheet(a.out, sh)
	}
	return nil
}

// streamNames maps each character's and foe's stream to the sheet.
func streamNames(s *campaign.Service) (map[string]projections.Sheet, error) {
	names := map[string]projections.Sheet{}
	for _, list := range []struct {
		sheets func() ([]projections.Sheet, error)
		stream func(id string) string
	}{{s.Sheets, events.CharacterStream}, {s.AllFoeSheets, events.FoeStream}} {
		sheets, err := list.sheets()
		if err != nil {
			return nil, err
		}
		for _, sh := range sheets {
			names[list.stream(sh.ID)] = sh
		}
	}
	return names, nil
}

// explainStoreErrors makes cmd's error, when it tells of the campaign file
// or the disk (damaged, full, read-only, locked, failing), a coded error
// that says so and what to do, whatever read or write met it: driver text
// alone never reaches the user.
func (a *app) explainStoreErrors(cmd *cobra.Command) {
	run := cmd.RunE
	if run == nil {
		return
	}
	cmd.RunE = func(c *cobra.Command, args []string) error {
		return campaign.MediumError(a.db, run(c, args))
	}
}

// printHeadAfter makes a write command, once it succeeded, print the
// log's head on standard error, even with --quiet: `head: seq N HASH`, as
// verify prints it. It is the head just after the command: its own last
// event, or a later one when another process appended meanwhile, which
// covers the command all the same.
func (a *app) printHeadAfter(cmd *cobra.Command) {
	post := cmd.PostRunE
	cmd.PostRunE = func(c *cobra.Command, args []string) error {
		if post != nil {
			if err := post(c, args); err != nil {
				return err
			}
		}
		seq, hash, err := campaign.ReadHead(a.db, a.options())
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(a.env.Stderr, "head: seq %d %s\n", seq, hash)
		return err
	}
}
