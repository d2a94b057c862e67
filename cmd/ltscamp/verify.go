package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// verifyOptions are the flags of `ltscamp verify`.
type verifyOptions struct {
	json bool
	head string
}

// maxVerifyLines caps each section of the human report; --json lists all.
const maxVerifyLines = 20

func newVerifyCmd(a *app) *cobra.Command {
	var opts verifyOptions
	cmd := &cobra.Command{
		Use:   "verify [--head HASH] [--json]",
		Short: "Verify the hash chain, the rules, the XP ledgers and the file",
		Long: `Verify the campaign's event log and its file with five checks:

  1. the hash chain: every event's hash is recomputed from its contents and
     the previous event's hash, and seqs must run from 1 without a gap. The
     first seq where the chain breaks is named: an event changed after it was
     written, or rows deleted.
  2. the rules: every command in effect is replayed through the rules of the
     campaign's edition, and every event the rules would not have produced is
     named: a hand-edited price or roll, an attribute over the cap, a spend
     beyond the balance, an event on a stream it does not belong to, an undo
     or redo of commands it cannot name.
  3. the XP ledgers: for every character, earned − spent = unspent, and the
     unspent balance is never below 0 at a row in effect (undone commands are
     left out).
  4. the append-only triggers: the events table must still refuse UPDATE and
     DELETE, with the triggers ltscamp created; a missing or changed trigger
     means someone opened the way to rewriting the log.
  5. SQLite's own integrity check of the file (PRAGMA integrity_check): a
     damaged file (pages overwritten, an index that no longer matches its
     table) is named as damaged, with the tables and indexes hit, apart
     from an edited log.

When everything holds, verify prints one line, then the head (the last
event's seq and full hash), and exits 0. Otherwise it prints a line per
problem on standard output, a summary on standard error, and exits 7,
whether the chain is broken or only a rule: both mean the log was tampered
with or written by a faulty program. The checks all run even when the chain
is broken. A damaged file exits 7 too, and the summary says "FILE is
damaged": a disk or a program wrote over it; it was not edited.

With --json, verify prints the whole report as one JSON object (ok, events,
head_seq, head_hash, edition, reverted_commands, chain, violations, ledgers,
schema, damage, and kept_head with --head) and still exits 7 when ok is
false.

Deleting the last events leaves a valid, shorter chain, and so does an edit
followed by rehashing every event after it: only a head hash kept from
earlier shows either. Keep the head verify prints (or the one a write prints
with --print-head) somewhere the file is not, and pass it to --head later:
verify then also fails unless the log holds an event with that hash, in
place, with the chain intact up to it. --head takes the full hash or its
first 12 hex digits or more.`,
		Example: `  ltscamp verify
  ltscamp verify --json | jq .chain
  ltscamp verify --head 3f2a9c0e41b7d5e8
  ltscamp --db backup.ltscamp verify && echo "the backup is intact"`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error { return verifyRun(a, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the whole report as JSON")
	cmd.Flags().StringVar(&opts.head, "head", "", "a head hash kept from earlier (full, or 12+ hex digits): fail unless the log still holds it")
	return cmd
}

// verifyRun verifies the campaign named by --db and prints the report.
func verifyRun(a *app, opts verifyOptions) error {
	rep, err := campaign.VerifyFile(a.db, a.options(), campaign.VerifyOptions{Head: opts.head})
	a.progress.done()
	if err != nil {
		return err
	}
	if opts.json {
		if err := a.out.json(rep); err != nil {
			return err
		}
	} else if rep.OK {
		a.out.printf("%s: %s\n", a.out.good("ok"), verifySummary(rep))
		if k := rep.KeptHead; k != nil {
			a.out.printf("kept head: seq %d (%s) is in the log, chain intact up to it, %s after it\n",
				k.Seq, k.FullHash, projections.Count(int(k.After), "event", "events"))
		}
		a.out.printf("head: seq %d %s\n", rep.HeadSeq, rep.HeadHash)
	} else {
		for _, line := range verifyProblems(rep) {
			a.out.printf("%s\n", line)
		}
	}
	if !rep.Damage.OK {
		msg := fmt.Sprintf("%s is damaged: SQLite's integrity check finds damage in %s. This is damage to the file (a disk, a copy cut short, a program that wrote over it), not an edit of the log: keep the file as it is, and restore the campaign from a backup", a.db, rep.Damage.Where())
		if rest := verifyFailure(rep); rest != "" {
			msg += " (the other checks: " + rest + ")"
		}
		return rules.Errorf(rules.CodeInvalidLog, "%s", msg)
	}
	if !rep.OK {
		return rules.Errorf(rules.CodeInvalidLog, "%s failed verification: %s", a.db, verifyFailure(rep))
	}
	return nil
}

// verifySummary is the one line of a log that holds.
func verifySummary(rep campaign.VerifyReport) string {
	head := rep.HeadHash
	if len(head) > 12 {
		head = head[:12] + "…"
	}
	checked := fmt.Sprintf("every event re-checked by the edition %s rules", rep.Edition)
	if rep.RevertedCommands > 0 {
		checked = fmt.Sprintf("every event in effect re-checked by the edition %s rules (%s left out)", rep.Edition,
			projections.Count(rep.RevertedCommands, "undone command", "undone commands"))
	}
	return fmt.Sprintf("%s, hash chain intact to seq %d (head %s), %s, XP ledgers balance for %s",
		projections.Count(rep.Events, "event", "events"), rep.HeadSeq, head, checked,
		projections.Count(len(rep.Ledgers), "character", "characters"))
}

// verifyProblems returns a line per problem, each naming its seq: the
// chain's first break, unreadable rows, rules violations, ledgers.
func verifyProblems(rep campaign.VerifyReport) []string {
	var lines []string
	if d := rep.Damage; !d.OK {
		lines = append(lines, "damaged: SQLite's integrity check finds damage in "+d.Where())
		lines = append(lines, capLines(d.Problems)...)
		if d.Stopped != "" {
			return append(lines, d.Stopped)
		}
	}
	if k := rep.KeptHead; k != nil && !k.OK {
		lines = append(lines, k.Problem)
	}
	if !rep.Chain.OK {
		lines = append(lines, rep.Chain.Problem)
	}
	lines = append(lines, rep.Schema.Problems...)
	var rest []string
	for _, u := range rep.Chain.Unreadable {
		if u.Seq != rep.Chain.Seq || rep.Chain.Kind != campaign.ChainUnreadable {
			rest = append(rest, fmt.Sprintf("seq %d cannot be read: %s", u.Seq, u.Problem))
		}
	}
	lines = append(lines, capLines(rest)...)
	rest = rest[:0]
	for _, v := range rep.Violations {
		if v.Seq == 0 {
			rest = append(rest, v.Problem)
			continue
		}
		rest = append(rest, fmt.Sprintf("seq %d %s: %s", v.Seq, v.Type, v.Problem))
	}
	lines = append(lines, capLines(rest)...)
	rest = rest[:0]
	for _, l := range rep.Ledgers {
		if !l.OK {
			rest = append(rest, fmt.Sprintf("%s's XP ledger: %s", l.Character, l.Problem))
		}
	}
	return append(lines, capLines(rest)...)
}

// capLines keeps the first maxVerifyLines lines and says how many more
// there are.
func capLines(lines []string) []string {
	if len(lines) <= maxVerifyLines {
		return append([]string(nil), lines...)
	}
	out := append([]string(nil), lines[:maxVerifyLines]...)
	return append(out, fmt.Sprintf("… and %d more (ltscamp verify --json lists them all)", len(lines)-maxVerifyLines))
}

// verifyFailure sums up what failed, for the error line.
func verifyFailure(rep campaign.VerifyReport) string {
	var parts []string
	if k := rep.KeptHead; k != nil && !k.OK {
		parts = append(parts, "the kept head "+k.Hash+" is not in the log")
	}
	switch {
	case rep.Damage.Stopped != "":
		return "they could not read the log past the damage"
	case rep.Chain.OK:
		parts = append(parts, fmt.Sprintf("hash chain intact to seq %d", rep.HeadSeq))
	case !rep.Damage.OK && len(rep.Chain.Unreadable) > 0:
		// Rows the damage hides, not an edit.
		parts = append(parts, fmt.Sprintf("rows unreadable or missing from seq %d, where the damage is", rep.Chain.Seq))
	default:
		parts = append(parts, fmt.Sprintf("hash chain broken at seq %d", rep.Chain.Seq))
	}
	if n := len(rep.Schema.Problems); n > 0 {
		parts = append(parts, projections.Count(n, "append-only trigger problem", "append-only trigger problems"))
	}
	if n := len(rep.Violations); n > 0 {
		parts = append(parts, projections.Count(n, "rules violation", "rules violations"))
	}
	bad := 0
	for _, l := range rep.Ledgers {
		if !l.OK {
			bad++
		}
	}
	if bad > 0 {
		parts = append(parts, projections.Count(bad, "XP ledger", "XP ledgers")+" out of balance")
	}
	return strings.Join(parts, "; ")
}
