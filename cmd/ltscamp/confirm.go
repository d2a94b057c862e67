package main

import (
	"charm.land/huh/v2"
)

// confirm asks a yes-or-no question on the terminal, defaulting to no. It
// does not ask — the answer is yes — with --yes, with --no-input, or when
// there is no terminal to ask on (a script has said what it wants).
func (a *app) confirm(yes bool, question string) (bool, error) {
	if yes || a.noInput || !a.env.StdinTTY || !a.env.StderrTTY {
		return true, nil
	}
	answer := false
	err := huh.NewForm(huh.NewGroup(huh.NewConfirm().Title(question).Affirmative("Yes").Negative("No").Value(&answer))).
		WithInput(a.env.Stdin).WithOutput(a.env.Stderr).WithAccessible(a.env.Getenv("ACCESSIBLE") != "").Run()
	if err != nil {
		return false, usagef("not confirmed: %v", err)
	}
	return answer, nil
}
