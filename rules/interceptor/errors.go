package interceptor

import "github.com/ltscamp/ltscamp/rules"

// The package's errors are the rules' own (*rules.Error), so that a caller
// maps their codes to exit statuses with the rest:
const (
	// CodeInvalid: the input is malformed (a bad record, template or die
	// face).
	CodeInvalid = rules.CodeInvalid
	// CodeRule: the input is well formed but the book forbids it, such as
	// repairing a component it marks REPAIR TIME: N/A.
	CodeRule = rules.CodeRule
)

// errorf builds a *rules.Error with a fmt-formatted message.
func errorf(code rules.Code, format string, a ...any) error {
	return rules.Errorf(code, format, a...)
}

// CodeOf returns err's code: rules.CodeOf.
func CodeOf(err error) rules.Code { return rules.CodeOf(err) }
