package main

import (
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"
)

// helpWidth is the width help keeps to.
const helpWidth = 80

// The help and usage templates are cobra's own, with every line that could
// run long wrapped to helpWidth: the descriptions, the usage line, the
// command listing (with a hanging indent) and the flags.
const usageTemplate = `Usage:{{if .Runnable}}
{{wrapIndent (print "  " .UseLine) 4}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [command]{{end}}{{if gt (len .Aliases) 0}}

Aliases:
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

Examples:
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}{{$cmds := .Commands}}{{if eq (len .Groups) 0}}

Available Commands:{{range $cmds}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
{{listing .Name .NamePadding .Short}}{{end}}{{end}}{{else}}{{range $group := .Groups}}

{{.Title}}{{range $cmds}}{{if (and (eq .GroupID $group.ID) (or .IsAvailableCommand (eq .Name "help")))}}
{{listing .Name .NamePadding .Short}}{{end}}{{end}}{{end}}{{if not .AllChildCommandsHaveGroup}}

Additional Commands:{{range $cmds}}{{if (and (eq .GroupID "") (or .IsAvailableCommand (eq .Name "help")))}}
{{listing .Name .NamePadding .Short}}{{end}}{{end}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

Flags:
{{.LocalFlags.FlagUsagesWrapped 80 | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableInheritedFlags}}

Global Flags:
{{.InheritedFlags.FlagUsagesWrapped 80 | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableSubCommands}}

Use "{{.CommandPath}} [command] --help" for more information about a command.{{end}}
`

const helpTemplate = `{{with (or .Long .Short)}}{{wrapIndent (trimTrailingWhitespaces .) 0}}

{{end}}{{if or .Runnable .HasSubCommands}}{{.UsageString}}{{end}}`

// setHelpTemplates installs the wrapping templates on root (its commands
// inherit them).
func setHelpTemplates(root *cobra.Command) {
	cobra.AddTemplateFunc("wrapIndent", wrapIndent)
	cobra.AddTemplateFunc("listing", listing)
	root.SetUsageTemplate(usageTemplate)
	root.SetHelpTemplate(helpTemplate)
}

// listing is one line of a command listing, "  name   Short", its Short
// wrapped under itself.
func listing(name string, pad int, short string) string {
	indent := 2 + max(pad, utf8.RuneCountInString(name)) + 1
	prefix := "  " + name + strings.Repeat(" ", indent-2-utf8.RuneCountInString(name))
	return strings.Join(fill(strings.Fields(short), prefix, strings.Repeat(" ", indent)), "\n")
}

// wrapIndent wraps each line of text longer than helpWidth at spaces; the
// lines it makes are indented as the line they came from, or by indent
// when indent is larger. Lines that fit are left alone, so preformatted
// text keeps its shape.
func wrapIndent(text string, indent int) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if utf8.RuneCountInString(line) <= helpWidth {
			out = append(out, line)
			continue
		}
		lead := len(line) - len(strings.TrimLeft(line, " "))
		out = append(out, fill(strings.Fields(line), line[:lead], strings.Repeat(" ", max(lead, indent)))...)
	}
	return strings.Join(out, "\n")
}

// fill lays words out in lines of at most helpWidth columns: the first
// line after first, the others after hang.
func fill(words []string, first, hang string) []string {
	var lines []string
	cur, empty := first, true
	for _, word := range words {
		switch {
		case empty:
			cur += word
		case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(word) > helpWidth:
			lines = append(lines, cur)
			cur = hang + word
		default:
			cur += " " + word
		}
		empty = false
	}
	return append(lines, cur)
}
