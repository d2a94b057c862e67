package main

import "github.com/spf13/cobra"

// newAuditCmd is being written (issue 3).
func newAuditCmd(a *app) *cobra.Command {
	return &cobra.Command{Use: "audit", Short: "Audit a character's XP", Hidden: true,
		RunE: func(cmd *cobra.Command, args []string) error { return usagef("audit is not built yet") }}
}
