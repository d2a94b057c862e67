package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/exports"
)

// exportOptions are the flags of `export sheet|party|ship|timeline|audit`.
type exportOptions struct {
	format    string
	out       string
	force     bool
	asOf      string
	paper     string
	template  string
	adventure int
	rolls     bool
	// dice narrows an export of the dice report.
	dice campaign.DiceQuery
}

func newExportCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "export KIND [NAME]",
		Short: "Write a sheet, the party, a ship, the timeline, an XP audit or the whole log to a file",
		Long: `Write what the log folds to as a document to take away: Markdown (GitHub
tables), PDF (a printable page), or JSON (the same document as the read
command's --json). KIND is one of:

  sheet NAME   one character's sheet (a PDF sheet is always one page)
  party        a one-page party summary, then every member's sheet
  ship NAME    a star craft's record (a detailed one with its grids)
  timeline     the campaign day by day (--adventure N for one adventure)
  audit NAME   a character's itemised XP ledger with its balance checks
  dice         the dice report: fairness of each die source, luck of each
               character, with charts (as ltscamp dice report)
  log          every event, as an NDJSON backup that import log restores

The format is --format, else the -o file's extension (.md, .pdf, .json),
else Markdown on standard output. A PDF needs -o FILE. An existing file is
replaced only with --force, and a file is written whole or not at all (a
temporary file, then a rename). Every document's footer names the campaign,
the seq it was folded at and that event's hash, so a printed sheet can be
traced back to the log. --as-of POINT exports the log as it was at a seq, an
event id, a time or day:N, as sheet --as-of does.`,
		Example: `  ltscamp export sheet Ajax -o ajax.pdf
  ltscamp export sheet Ajax --paper letter -o ajax.pdf
  ltscamp export party -o party.md
  ltscamp export ship Kit-Kat --format json | jq .sections
  ltscamp export timeline --adventure 1 -o adventure-1.pdf
  ltscamp export audit Ajax -o ajax-xp.md
  ltscamp export dice -o dice.pdf
  ltscamp export sheet Ajax --template index-card.md.tmpl -o ajax.md
  ltscamp export log -o campaign.ndjson`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return usagef("export what? choose sheet NAME, party, ship NAME, timeline, audit NAME, dice or log; see `ltscamp export --help`")
		},
	}
	cmd.AddCommand(
		newExportDocCmd(a, exports.KindSheet, "sheet NAME", "Export a character sheet (Markdown, one-page PDF or JSON)", 1,
			"  ltscamp export sheet Ajax -o ajax.pdf\n  ltscamp export sheet Ajax --as-of day:1 --format md"),
		newExportDocCmd(a, exports.KindParty, "party", "Export a one-page party summary and every member's sheet", 0,
			"  ltscamp export party -o party.pdf\n  ltscamp export party --format json | jq '.[].name'"),
		newExportDocCmd(a, exports.KindShip, "ship NAME", "Export a star craft's record", 1,
			"  ltscamp export ship Kit-Kat -o kit-kat.pdf\n  ltscamp export ship \"Space Gull\" -o space-gull.md"),
		newExportDocCmd(a, exports.KindTimeline, "timeline", "Export the campaign day by day, or one adventure", 0,
			"  ltscamp export timeline -o timeline.md\n  ltscamp export timeline --adventure 1 -o adventure-1.pdf\n  ltscamp export timeline --rolls -o session.md"),
		newExportDocCmd(a, exports.KindAudit, "audit NAME", "Export a character's itemised XP ledger with its balance checks", 1,
			"  ltscamp export audit Ajax -o ajax-xp.pdf"),
		newExportDocCmd(a, exports.KindDice, "dice", "Export the dice report: fairness of each die source and luck of each character", 0,
			"  ltscamp export dice -o dice.pdf\n  ltscamp export dice --physical --adventure 2 -o dice.md"),
		newExportLogCmd(a),
	)
	return cmd
}

func newExportDocCmd(a *app, kind exports.Kind, use, short string, nargs int, example string) *cobra.Command {
	var opts exportOptions
	what := "no arguments"
	if nargs == 1 {
		what = "one " + strings.Fields(use)[1]
	}
	cmd := &cobra.Command{
		Use:     use,
		Short:   short,
		Example: example,
		Args:    exactArgs(nargs, what),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := ""
			if nargs == 1 {
				name = args[0]
			}
			if kind == exports.KindDice {
				if err := diceActor(a, cmd, &opts.dice); err != nil {
					return err
				}
			}
			return exportDocRun(a, kind, name, opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.out, "output", "o", "", "write to FILE (- for standard output)")
	f.StringVar(&opts.format, "format", "", "md, pdf or json (default: -o's extension, else md)")
	f.BoolVar(&opts.force, "force", false, "replace FILE if it exists")
	f.StringVar(&opts.asOf, "as-of", "", "the log as it was at a seq, event id, time or day:N")
	f.StringVar(&opts.paper, "paper", "a4", "PDF page size: a4 or letter")
	f.StringVar(&opts.template, "template", "", "your own Markdown layout (docs/export-templates.md)")
	switch kind {
	case exports.KindTimeline:
		f.IntVar(&opts.adventure, "adventure", 0, "only this adventure")
		f.BoolVar(&opts.rolls, "rolls", false, "tell every roll and contest too")
	case exports.KindDice:
		diceFlags(f, &opts.dice)
		cmd.MarkFlagsMutuallyExclusive("physical", "program")
	}
	return cmd
}

// exportFormat decides the format: --format, else the -o extension, else
// Markdown.
func exportFormat(flag, out string) (exports.Format, error) {
	if flag != "" {
		switch f := exports.Format(strings.ToLower(strings.TrimSpace(flag))); f {
		case exports.FormatMarkdown, exports.FormatPDF, exports.FormatJSON:
			return f, nil
		case "markdown":
			return exports.FormatMarkdown, nil
		}
		return "", usagef("--format %q: choose md, pdf or json", flag)
	}
	if out == "" || out == "-" {
		return exports.FormatMarkdown, nil
	}
	switch ext := strings.ToLower(filepath.Ext(out)); ext {
	case ".md", ".markdown":
		return exports.FormatMarkdown, nil
	case ".pdf":
		return exports.FormatPDF, nil
	case ".json":
		return exports.FormatJSON, nil
	case "":
		return "", usagef("-o %s has no extension to tell the format by: pass --format md|pdf|json", out)
	default:
		return "", usagef("-o %s: cannot tell the format from %q: pass --format md|pdf|json", out, ext)
	}
}

func exportDocRun(a *app, kind exports.Kind, name string, opts exportOptions) error {
	format, err := exportFormat(opts.format, opts.out)
	if err != nil {
		return err
	}
	toStdout := opts.out == "" || opts.out == "-"
	if format == exports.FormatPDF && (opts.out == "" || (opts.out == "-" && a.env.StdoutTTY)) {
		return usagef("a PDF is not written to a terminal: add -o FILE, e.g. `ltscamp export %s -o %s.pdf`", strings.TrimSpace(string(kind)+" "+name), exportFileStem(kind, name))
	}
	paper, err := exports.ParsePaper(opts.paper)
	if err != nil {
		return usageError{err}
	}
	var tmpl *template.Template
	if opts.template != "" {
		if format != exports.FormatMarkdown {
			return usagef("--template renders Markdown (text); it cannot make %s", format)
		}
		text, err := os.ReadFile(opts.template)
		if err != nil {
			return usagef("--template: %v", err)
		}
		if tmpl, err = exports.ParseTemplate(filepath.Base(opts.template), string(text)); err != nil {
			return usagef("--template: %v", err)
		}
	}
	if !toStdout {
		if err := checkOutput(opts.out, opts.force); err != nil {
			return err
		}
	}
	return a.withCampaign(func(s *campaign.Service) error {
		doc, trace, err := exportDoc(s, kind, name, opts)
		if err != nil {
			return err
		}
		render := func(w io.Writer) error {
			switch {
			case tmpl != nil:
				return exports.ExecuteTemplate(w, tmpl, doc)
			case format == exports.FormatPDF:
				return exports.PDF(w, doc, exports.PDFOptions{Paper: paper})
			case format == exports.FormatJSON:
				return exports.JSON(w, doc)
			}
			return exports.Markdown(w, doc)
		}
		if toStdout {
			return a.writeStdout(render)
		}
		if err := a.writeFile(opts.out, opts.force, permDocument, render); err != nil {
			return err
		}
		a.out.note("wrote %s (%s, %s) %s seq %d, hash %s", opts.out, describeKind(kind, name), format, map[bool]string{true: "as of", false: "at"}[trace.AsOf], trace.Seq, trace.ShortHash())
		return nil
	})
}

// exportDoc folds the document of kind, every part of it at one point of
// the log.
func exportDoc(s *campaign.Service, kind exports.Kind, name string, opts exportOptions) (any, exports.Trace, error) {
	p, err := s.Point(opts.asOf)
	if err != nil {
		return nil, exports.Trace{}, err
	}
	t := exports.Trace{
		Campaign: p.Campaign.Name, CampaignID: p.CampaignID, Edition: p.Campaign.Edition,
		Seq: p.Seq, Hash: p.HashHex(), AsOf: p.AsOf,
	}
	at := p.At()
	switch kind {
	case exports.KindSheet:
		sh, err := s.SheetAsOf(name, at)
		return exports.SheetDoc{Trace: t, Sheet: sh}, t, err
	case exports.KindParty:
		sheets, err := s.SheetsAsOf(at)
		if err != nil {
			return nil, t, err
		}
		doc := exports.PartyDoc{Trace: t, Sheets: sheets}
		if p.Campaign.InEncounter {
			doc.Foes, err = s.FoeSheetsAsOf(at)
		}
		return doc, t, err
	case exports.KindShip:
		// A detailed (INTERCEPTOR) record has a document of its own, as
		// it has its own `ship show`.
		detailed, _, err := s.ShipKind(name, at)
		if err != nil {
			return nil, t, err
		}
		if detailed {
			sh, err := s.DetailedShip(name, at)
			if err != nil {
				return nil, t, err
			}
			return exports.NewDetailedShipDoc(t, sh), t, nil
		}
		sh, err := s.Ship(name, at)
		return exports.ShipDoc{Trace: t, Ship: sh}, t, err
	case exports.KindTimeline:
		tl, err := s.TimelineOf(campaign.TimelineQuery{Adventure: opts.adventure, AsOf: at, Rolls: opts.rolls})
		return exports.TimelineDoc{Trace: t, Adventure: opts.adventure, Timeline: tl}, t, err
	case exports.KindAudit:
		au, err := s.AuditXPAsOf(name, at)
		return exports.AuditDoc{Trace: t, Audit: au}, t, err
	case exports.KindDice:
		q := opts.dice
		q.UpTo = p.Seq
		rep, err := s.DiceReport(q)
		return exports.DiceDoc{Trace: t, Report: rep}, t, err
	}
	return nil, t, fmt.Errorf("export: unknown kind %q", kind)
}

// describeKind names a document in a status line.
func describeKind(kind exports.Kind, name string) string {
	switch kind {
	case exports.KindSheet:
		return "sheet of " + name
	case exports.KindShip:
		return "record of " + name
	case exports.KindAudit:
		return "XP audit of " + name
	}
	return string(kind)
}

// exportFileStem suggests a file name for a document.
func exportFileStem(kind exports.Kind, name string) string {
	if name == "" {
		return string(kind)
	}
	return strings.ToLower(strings.Join(strings.Fields(name), "-"))
}
