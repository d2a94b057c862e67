package main

import "github.com/spf13/cobra"

// newVerifyCmd is being written (issue 3).
func newVerifyCmd(a *app) *cobra.Command {
	return &cobra.Command{Use: "verify", Short: "Verify the hash chain, the rules and the XP ledgers", Hidden: true,
		RunE: func(cmd *cobra.Command, args []string) error { return usagef("verify is not built yet") }}
}
