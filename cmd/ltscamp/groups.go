package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/rules"
)

// The topics of the top-level help.
var commandGroups = []struct {
	id, title string
	commands  []string
}{
	{"campaign", "Campaign, characters and foes:", []string{"init", "campaigns", "demo", "char", "foe", "sheet", "party"}},
	{"table", "At the table:", []string{"play", "roll", "contest", "reroll", "attack", "dodge", "damage", "heal", "equip", "karma", "wish", "curse", "note"}},
	{"time", "Game time:", []string{"adventure", "day", "encounter", "sleep", "night", "rest", "timeline"}},
	{"xp", "Experience:", []string{"xp", "audit"}},
	{"craft", "Star craft:", []string{"ship", "dogfight"}},
	{"log", "The log:", []string{"log", "undo", "redo", "verify", "rebuild", "dice", "whatif"}},
	{"files", "Files:", []string{"export", "import", "backup", "restore"}},
	{"pages", "Players' pages:", []string{"serve", "share"}},
	{"reference", "Reference:", []string{"rules", "version", "completion", "help"}},
}

// organize puts the top-level commands under their topics, and makes every
// command group strict: a word that is not one of its subcommands exits 2
// with "unknown command" and the nearest subcommand, never help and 0.
func organize(root *cobra.Command) {
	topic := map[string]string{}
	for _, g := range commandGroups {
		root.AddGroup(&cobra.Group{ID: g.id, Title: g.title})
		for _, c := range g.commands {
			topic[c] = g.id
		}
	}
	root.SetHelpCommandGroupID("reference")
	root.SetCompletionCommandGroupID("reference")
	for _, c := range root.Commands() {
		c.GroupID = topic[c.Name()]
	}
	strict(root)
}

// ownArgs marks a runnable command with subcommands that takes its own
// arguments beside them (damage NAME N, damage dice): strict leaves it be.
const ownArgs = "ltscamp-own-args"

// strict walks the tree and makes every group refuse unknown subcommands.
func strict(cmd *cobra.Command) {
	for _, c := range cmd.Commands() {
		strict(c)
	}
	if !cmd.HasSubCommands() || cmd.Annotations[ownArgs] != "" {
		return
	}
	cmd.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		return unknownCommand(cmd, args[0])
	}
	if !cmd.Runnable() {
		cmd.RunE = func(cmd *cobra.Command, args []string) error { return cmd.Help() }
	}
}

// unknownCommand is the usage error for a word that names no subcommand
// of cmd, with the nearest one when there is one.
func unknownCommand(cmd *cobra.Command, word string) error {
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	msg := fmt.Sprintf("unknown command %q for %q", word, cmd.CommandPath())
	if near, ok := rules.Suggest(word, names); ok {
		return usagef("%s; did you mean %q? (see `%s --help`)", msg, near, cmd.CommandPath())
	}
	return usagef("%s; the commands are %s (see `%s --help`)", msg, strings.Join(names, ", "), cmd.CommandPath())
}
