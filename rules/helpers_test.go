package rules

import "testing"

// wantError fails t unless err is an *Error with the given code and, when
// msg is not "", exactly that message.
func wantError(t *testing.T, err error, code Code, msg string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %s %q", code, msg)
	}
	if got := CodeOf(err); got != code {
		t.Errorf("code = %q, want %q (message %q)", got, code, err.Error())
	}
	if msg != "" && err.Error() != msg {
		t.Errorf("message = %q\n                 want %q", err.Error(), msg)
	}
}
