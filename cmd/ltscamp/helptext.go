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
	var lines []string
	cur := ""
	for _, word := range strings.Fields(short) {
		if cur != "" && indent+utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(word) > helpWidth {
			lines = append(lines, cur)
			cur = word
			continue
		}
		if cur != "" {
			cur += " "
		}
		cur += word
	}
	lines = append(lines, cur)
	return prefix + strings.Join(lines, "\n"+strings.Repeat(" ", indent))
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
		hang := strings.Repeat(" ", max(lead, indent))
		cur := line[:lead]
		for _, word := range strings.Fields(line) {
			switch {
			case strings.TrimSpace(cur) == "":
				cur += word
			case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(word) > helpWidth:
				out = append(out, cur)
				cur = hang + word
			default:
				cur += " " + word
			}
		}
		out = append(out, cur)
	}
	return strings.Join(out, "\n")
}
