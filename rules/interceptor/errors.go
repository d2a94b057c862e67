package interceptor

import "fmt"

// Code classifies an Error. Its values are the same strings as the codes of
// package rules ("invalid", "rule"), so the CLI can map both with one table.
type Code string

// The error codes of this package.
const (
	// CodeInvalid means the input is malformed: a bad record, template or die face.
	CodeInvalid Code = "invalid"
	// CodeRule means the input is well formed but the rules forbid it, such as
	// repairing a component the book marks REPAIR TIME: N/A.
	CodeRule Code = "rule"
)

// Error is a domain error: a Code and a sentence a player understands.
type Error struct {
	Code    Code
	Message string
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// errorf builds an *Error with a fmt-formatted message.
func errorf(code Code, format string, a ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, a...)}
}
