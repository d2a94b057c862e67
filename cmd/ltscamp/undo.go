package main

import "github.com/spf13/cobra"

// newUndoCmd is being written (issue 3).
func newUndoCmd(a *app) *cobra.Command {
	return &cobra.Command{Use: "undo", Hidden: true, RunE: func(cmd *cobra.Command, args []string) error { return usagef("undo is not built yet") }}
}

// newRedoCmd is being written (issue 3).
func newRedoCmd(a *app) *cobra.Command {
	return &cobra.Command{Use: "redo", Hidden: true, RunE: func(cmd *cobra.Command, args []string) error { return usagef("redo is not built yet") }}
}
