package main

import (
	"compress/gzip"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/exports"
	"github.com/ltscamp/ltscamp/importers"
	"github.com/ltscamp/ltscamp/rules"
)

func newExportLogCmd(a *app) *cobra.Command {
	var out string
	var force bool
	cmd := &cobra.Command{
		Use:   "log",
		Short: "Write every event as an NDJSON backup that `import log` restores",
		Long: `Write the whole log, one JSON object a line: first a header (format, version,
campaign id, campaign name, edition, event count, head seq and hash), then
every event with its whole envelope, its payload byte for byte, prev_hash and
hash. The hash chain is checked while it is written: a log whose chain is
broken is not exported (run verify; ` + "`ltscamp backup`" + ` copies the file as it is).
A file named *.gz is written gzip-compressed. The format is described in
docs/formats.md.`,
		Example: `  ltscamp export log -o campaign.ndjson
  ltscamp export log -o campaign.ndjson.gz
  ltscamp export log | ltscamp --db copy.ltscamp import log -`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			toStdout := out == "" || out == "-"
			if !toStdout {
				if err := checkOutput(out, force); err != nil {
					return err
				}
			}
			return a.withCampaign(func(s *campaign.Service) error {
				p, err := s.Point("")
				if err != nil {
					return err
				}
				h := exports.LogHeader{CampaignID: p.CampaignID, Campaign: p.Campaign.Name, Edition: string(p.Campaign.Edition),
					Events: p.Seq, HeadSeq: p.Seq, HeadHash: p.HashHex()}
				var n int64
				write := func(w io.Writer) error {
					// A .gz name is written compressed; import log reads
					// it either way.
					var zw *gzip.Writer
					if strings.HasSuffix(strings.ToLower(out), ".gz") {
						zw = gzip.NewWriter(w)
						w = zw
					}
					var err error
					evs := a.progress.count("exporting", p.Seq, s.Events(p.Seq))
					n, err = exports.WriteLog(w, h, evs)
					a.progress.done()
					if err != nil {
						return rules.Wrap(rules.CodeInvalidLog, err)
					}
					if zw != nil {
						return zw.Close()
					}
					return nil
				}
				if toStdout {
					return a.writeStdout(write)
				}
				if err := a.writeFile(out, force, permBackup, write); err != nil {
					return err
				}
				a.out.note("wrote %d events to %s (head seq %d, hash %s)", n, out, p.Seq, p.HashHex())
				return nil
			})
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to FILE instead of standard output")
	cmd.Flags().BoolVar(&force, "force", false, "replace FILE if it exists")
	return cmd
}

func newImportCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import KIND FILE",
		Short: "Restore a campaign from a backup, or bring a party in from a roster file",
		Long: `Bring data in from files:

  log FILE|-       restore an NDJSON backup (from export log) into a new
                   campaign file (--db), checked as verify checks a log
  roster FILE      create characters and star craft from a CSV, YAML or JSON
                   roster, by the same rules as char new, equip and ship new`,
		Example: `  ltscamp --db restored.ltscamp import log campaign.ndjson
  ltscamp import roster party.csv
  ltscamp import roster party.yaml --dry-run`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return usagef("import what? `import log FILE` restores a backup, `import roster FILE` brings a party in")
		},
	}
	cmd.AddCommand(newImportLogCmd(a), newImportRosterCmd(a))
	return cmd
}

func newImportLogCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "log FILE|-",
		Short: "Restore an NDJSON backup into a new campaign file",
		Long: `Restore a backup written by export log into a new campaign file: --db (or
$LTSCAMP_DB) must name a file that does not exist yet. FILE - reads standard
input. A gzip-compressed backup is read as it is.

The restore is all or nothing. The file is built under a temporary name
while every line is read, checked to continue the hash chain, and loaded; then
the whole log is verified as ` + "`ltscamp verify`" + ` does (every event replayed under
the rules, every XP ledger). A line that is not an event, a broken chain (an
edited, deleted or moved line), a log the rules would not have produced, or a
backup cut short is refused with its line number, exit status 7, and no file
is left behind. The restored log has the same event ids, seqs and hashes,
and the snapshots ` + "`ltscamp rebuild`" + ` saves. ` + "`ltscamp restore`" + ` does the same, and
also restores a campaign file that ` + "`ltscamp backup`" + ` wrote.`,
		Example: `  ltscamp --db restored.ltscamp import log campaign.ndjson
  ltscamp --db restored.ltscamp import log campaign.ndjson.gz
  ssh table ltscamp export log | ltscamp --db copy.ltscamp import log -`,
		Args: exactArgs(1, "one FILE (- for standard input)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			file := args[0]
			in, err := a.openInput("import log", file)
			if err != nil {
				return err
			}
			defer in.Close()
			r, err := importers.Decompress(in)
			if err != nil {
				return rules.Errorf(rules.CodeInvalidLog, "%s: %v; nothing was restored", file, err)
			}
			return restoreLog(a, file, r, campaign.RestoreOptions{})
		},
	}
}

func newBackupCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "backup FILE",
		Short: "Copy the campaign file while others may be writing to it",
		Long: `Write a consistent copy of the campaign file to FILE, which must not exist.
The copy is taken in one read (SQLite's VACUUM INTO), so others may go on
writing meanwhile: it holds the log as of the moment it began, and is a
campaign file that every command opens (--db FILE). It is written under a
temporary name and renamed into place, so FILE never holds half a copy.`,
		Example: `  ltscamp backup campaign-$(date +%F).ltscamp
  ltscamp --db campaign-2026-11-23.ltscamp verify`,
		Args: exactArgs(1, "one FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFolder(args[0]); err != nil {
				return err
			}
			return a.withCampaign(func(s *campaign.Service) error {
				seq, hash, err := s.Backup(args[0])
				if err != nil {
					return err
				}
				a.out.note("backed up %s to %s: %d events, head hash %x (check it with `ltscamp --db %s verify`)", a.db, args[0], seq, hash, args[0])
				return nil
			})
		},
	}
}
