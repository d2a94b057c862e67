package main

import (
	"errors"
	"fmt"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// Exit statuses. This table is the one place error codes become exit
// statuses; docs/exit-codes.md prints it.
const (
	ExitOK          = 0
	ExitInternal    = 1
	ExitUsage       = 2
	ExitNotFound    = 3
	ExitRule        = 4
	ExitConflict    = 5
	ExitNotCampaign = 6
	ExitInvalidLog  = 7
	ExitSystem      = 8
)

// exitCodes maps each domain error code to its exit status.
var exitCodes = map[rules.Code]int{
	rules.CodeInvalid:     ExitUsage,
	rules.CodeNotFound:    ExitNotFound,
	rules.CodeRule:        ExitRule,
	rules.CodeConflict:    ExitConflict,
	rules.CodeNotCampaign: ExitNotCampaign,
	rules.CodeInvalidLog:  ExitInvalidLog,
	rules.CodeInternal:    ExitInternal,
}

// usageError is a command-line mistake: a bad flag, a missing argument.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// exitCode returns the exit status for err.
func exitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var u usageError
	if errors.As(err, &u) {
		return ExitUsage
	}
	if errors.Is(err, events.ErrDiskFull) || errors.Is(err, events.ErrIO) || errors.Is(err, events.ErrUnreachable) {
		// The disk, the operating system or the network failed, not
		// ltscamp: a full disk, a failing one, a share gone, a database
		// server down or out of reach.
		return ExitSystem
	}
	if code, ok := exitCodes[rules.CodeOf(err)]; ok {
		return code
	}
	return ExitInternal
}
