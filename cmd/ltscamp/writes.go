package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
)

// writeCommands are the commands that append to the log, by path below the
// root. What they did is a report, not data: it goes to standard error, so
// that standard output carries only what --json asks for. ownJSON marks
// those whose --json prints a document of their own (a roll, an attack);
// the others print the events they appended, with their seqs.
var writeCommands = map[string]struct{ ownJSON bool }{
	"init": {}, "char new": {}, "char set": {}, "foe add": {}, "foe remove": {},
	"roll": {ownJSON: true}, "reroll": {ownJSON: true}, "note": {ownJSON: true}, "import roster": {ownJSON: true},
	"contest": {}, "attack": {}, "dodge": {}, "damage dice": {}, "ship hit": {},
	"karma grant": {}, "karma storytell": {}, "karma to-xp": {}, "wish grant": {}, "wish use": {},
	"curse add": {}, "curse lift": {}, "xp award": {}, "xp plotword": {}, "xp spend": {},
	"adventure start": {}, "adventure end": {}, "day next": {}, "encounter start": {}, "encounter end": {},
	"sleep": {}, "rest": {}, "day end": {}, "night": {}, "equip": {}, "damage": {}, "heal": {},
	"ship new": {}, "ship crew": {}, "ship repair": {}, "ship turn-end": {}, "ship fire": {}, "ship template add": {},
	"dogfight start": {}, "dogfight maneuver": {}, "dogfight exit": {}, "dogfight end": {},
	"undo": {}, "redo": {}, "import log": {},
	"initiative": {}, "turn end": {},
}

// markWrites gives every write command --quiet and --print-head, and
// --json where it has none of its own.
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
