package rules

import (
	"errors"
	"fmt"
)

// Code classifies a domain error so that callers can map it to an exit
// status or an HTTP-like outcome without parsing messages.
type Code string

// The error codes. Their string values are part of the CLI's --json output.
const (
	// CodeInvalid means the input is malformed: bad notation, unknown names.
	CodeInvalid Code = "invalid"
	// CodeNotFound means a named thing (character, campaign) does not exist.
	CodeNotFound Code = "not_found"
	// CodeRule means the input is well formed but the rules forbid it.
	CodeRule Code = "rule"
	// CodeConflict means the request clashes with the current state, such as
	// a concurrent change or a duplicate name.
	CodeConflict Code = "conflict"
	// CodeNotCampaign means the directory or file is not an ltscamp campaign.
	CodeNotCampaign Code = "not_campaign"
	// CodeInvalidLog means the campaign's event log fails verification: the
	// hash chain is broken, a seq is missing, an event is one the rules
	// would not have produced, or an XP ledger does not balance. The log was
	// tampered with, or written by a faulty program.
	CodeInvalidLog Code = "invalid_log"
	// CodeInternal means a bug or an environmental failure, not the user's
	// doing.
	CodeInternal Code = "internal"
)

// Error is a domain error: a Code and a Message written as a full sentence a
// player understands, with the numbers that led to it.
type Error struct {
	Code    Code
	Message string
	// Err, when set, is the error the message tells of, for callers that
	// want its details (errors.As).
	Err error
}

// Error returns the message alone, so that it can be shown to the player.
func (e *Error) Error() string { return e.Message }

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// Wrap gives err a code: an *Error whose message is err's and whose Err is
// err.
func Wrap(code Code, err error) *Error {
	return &Error{Code: code, Message: err.Error(), Err: err}
}

// Errorf builds an *Error with the given code and a fmt-formatted message.
func Errorf(code Code, format string, a ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, a...)}
}

// CodeOf returns the code of err: "" for nil, the Code of the first *Error
// in its chain, and CodeInternal for any other error.
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) && e != nil {
		return e.Code
	}
	return CodeInternal
}
