package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/importers"
	"github.com/ltscamp/ltscamp/rules"
)

// restoreOptions are the flags of `ltscamp restore`.
type restoreOptions struct {
	force bool
}

func newRestoreCmd(a *app) *cobra.Command {
	var opts restoreOptions
	cmd := &cobra.Command{
		Use:   "restore FILE [--db TARGET] [--force]",
		Short: "Restore a campaign from a backup or an exported log",
		Long: `Restore the campaign in FILE into the campaign file --db (or $LTSCAMP_DB).
FILE is either a copy ` + "`ltscamp backup`" + ` wrote (an SQLite campaign file) or a
log ` + "`ltscamp export log`" + ` wrote (NDJSON, gzip-compressed or not): restore
tells which from the file's first bytes, whatever its name. FILE - reads an
NDJSON log from standard input.

FILE is only read. Its events are loaded into a new file under a temporary
name beside --db, each checked to continue the hash chain, and the whole log
is verified as ` + "`ltscamp verify`" + ` does (every event replayed under the rules,
every XP ledger, and, for a campaign file, its append-only triggers). The
snapshots ` + "`ltscamp rebuild`" + ` saves are folded on the way, so the restored
campaign reads as fast as the one it came from. Only then is the new file
synced and put in place, in one step. A FILE that fails any check is refused
with what is wrong, exit status 7, and nothing is left behind.

--db must name a file that does not exist (or is empty): a campaign there is
refused, exit status 5, unless --force, which replaces it in one step. Only a
campaign file is ever replaced, and only when no other program has it open.`,
		Example: `  ltscamp backup campaign-2026-11-23.ltscamp
  ltscamp restore campaign-2026-11-23.ltscamp --db restored.ltscamp
  ltscamp restore campaign.ndjson.gz --db restored.ltscamp
  ltscamp restore campaign-2026-11-23.ltscamp --db campaign.ltscamp --force`,
		Args: exactArgs(1, "one FILE (a backup, an exported log, or - for a log on standard input)"),
		RunE: func(cmd *cobra.Command, args []string) error { return restoreRun(a, args[0], opts) },
	}
	cmd.Flags().BoolVar(&opts.force, "force", false, "replace the campaign at --db with the one restored")
	return cmd
}

// restoreRun restores FILE into --db, a campaign file or an NDJSON log
// told apart by their first bytes.
func restoreRun(a *app, file string, opts restoreOptions) error {
	if !opts.force {
		if st, err := os.Lstat(a.db); err == nil && st.Mode().IsRegular() && st.Size() > 0 {
			return rules.Errorf(rules.CodeConflict, "%s already exists: pass --force to replace it with the campaign restored, or choose another --db file (nothing was changed)", a.db)
		}
	}
	in, err := a.openInput("restore", file)
	if err != nil {
		return err
	}
	defer in.Close()
	kind, r, err := importers.SniffBackup(in)
	if err != nil {
		return rules.Errorf(rules.CodeInvalidLog, "%s: %v; nothing was restored", file, err)
	}
	ro := campaign.RestoreOptions{Force: opts.force}
	switch kind {
	case importers.BackupLog:
		return restoreLog(a, file, r, ro)
	case importers.BackupCampaign:
		if file == "-" {
			return usagef("restore: standard input holds a campaign file, which is read from a file only: save it, then `ltscamp restore FILE`")
		}
		_ = in.Close()
		rep, err := campaign.RestoreFile(file, a.db, a.options(), ro)
		a.progress.done()
		if err := restoreError(file, err, func(re *campaign.RestoreError) string { return "" }); err != nil {
			return err
		}
		restored(a, rep)
		return nil
	}
	return rules.Errorf(rules.CodeInvalidLog, "%s is not an ltscamp backup: neither a campaign file (what `ltscamp backup` writes) nor an NDJSON log (what `ltscamp export log` writes); nothing was restored", file)
}

// restoreLog restores the NDJSON log r (read from file) into --db: what
// `restore` does with a log, and `import log` always.
func restoreLog(a *app, file string, r io.Reader, ro campaign.RestoreOptions) error {
	lr, err := importers.NewLogReader(file, r)
	if err != nil {
		return rules.Wrap(rules.CodeInvalidLog, err)
	}
	head, _ := importers.DecodeHash(lr.Header.HeadHash)
	want := campaign.RestoreExpect{Events: lr.Header.Events, HeadHash: head, CampaignID: lr.Header.CampaignID}
	rep, err := campaign.RestoreLogWith(a.db, want, lr.Events(), a.options(), ro)
	a.progress.done()
	err = restoreError(file, err, func(re *campaign.RestoreError) string {
		if re.Ordinal > 0 {
			return fmt.Sprintf("line %d: ", importers.LineOf(re.Ordinal))
		}
		return ""
	})
	if err != nil {
		return err
	}
	restored(a, rep)
	return nil
}

// restoreError words a refused restore: where in FILE (where says, for a
// problem with one event) and what, and that nothing was restored.
func restoreError(file string, err error, where func(*campaign.RestoreError) string) error {
	if err == nil {
		return nil
	}
	var re *campaign.RestoreError
	if errors.As(err, &re) {
		return rules.Errorf(rules.CodeInvalidLog, "%s: %s%s; nothing was restored", file, where(re), re.Error())
	}
	if rules.CodeOf(err) == rules.CodeInvalidLog {
		return rules.Errorf(rules.CodeInvalidLog, "%v; nothing was restored", err)
	}
	return err
}

// restored says what a restore made.
func restored(a *app, rep campaign.RestoreReport) {
	a.out.note("restored %d events of %q (edition %s) into %s: verify ok, head seq %d, hash %s (%d snapshots saved)",
		rep.Events, rep.Campaign, rep.Edition, a.db, rep.HeadSeq, rep.HeadHash, rep.Snapshots)
}
