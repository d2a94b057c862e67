package rules

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// Length limits of the text a user types, counted in characters (runes).
const (
	// MaxNameLength bounds the name of a character, a foe, a ship, an
	// actor: a name fits a sheet's heading and a table column.
	MaxNameLength = 64
	// MaxReasonLength bounds a reason, a source, a title, a plotword: one
	// line of the log, a sentence or two.
	MaxReasonLength = 500
	// MaxNoteLength bounds a session note: a paragraph of the story, not a
	// chapter (record a long account as several notes).
	MaxNoteLength = 2000
)

// A name, a reason and a note are single lines of text printed in the
// log, the sheets, the exports and in a terminal. Every character that is
// not text is refused, so none can move the cursor, clear a reader's
// screen or disguise the text:
//   - the C0 controls (U+0000 to U+001F: ESC, BEL, backspace, carriage
//     return, and also tab and newline: a tab moves the cursor and a
//     newline would break the log's one-line rows), DEL (U+007F) and the
//     C1 controls (U+0080 to U+009F, among them the 8-bit CSI);
//   - the line and paragraph separators U+2028 and U+2029;
//   - the bidirectional embeddings, overrides and isolates (U+202A to
//     U+202E, U+2066 to U+2069), which reorder the text shown;
//   - bytes that are not UTF-8.
// Notes are the exception for white space only: `note` joins its words
// with single spaces before it checks, so a pasted paragraph's line breaks
// become spaces.

// Unprintable reports whether r is one of the characters text may not
// hold (see above).
func Unprintable(r rune) bool {
	switch {
	case unicode.IsControl(r): // C0, DEL, C1
		return true
	case r == '\u2028' || r == '\u2029':
		return true
	case r >= '\u202A' && r <= '\u202E', r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}

// firstUnprintable returns a description of the first character s may not
// hold, "" when it holds none.
func firstUnprintable(s string) string {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return fmt.Sprintf("the byte %#02x, which is not UTF-8 text", s[i])
			}
		}
		if Unprintable(r) {
			return fmt.Sprintf("the control character %U%s", r, controlName(r))
		}
	}
	return ""
}

// controlName names the controls most often met, for the message.
func controlName(r rune) string {
	switch r {
	case '\t':
		return " (tab)"
	case '\n':
		return " (newline)"
	case '\r':
		return " (carriage return)"
	case 0x1b:
		return " (escape)"
	case 0x7f:
		return " (delete)"
	}
	return ""
}

// CheckName checks a name the user typed: what names it ("character
// name", "ship name", "actor"). A name is at most MaxNameLength characters
// and holds no control character, tab or newline. An empty name is the
// caller's to refuse. Errors are CodeInvalid.
func CheckName(what, s string) error {
	if bad := firstUnprintable(s); bad != "" {
		return Errorf(CodeInvalid, "%s %q holds %s: names are plain text on one line", what, s, bad)
	}
	if n := utf8.RuneCountInString(s); n > MaxNameLength {
		return Errorf(CodeInvalid, "%s %q is %d characters long; a name has at most %d", what, shorten(s), n, MaxNameLength)
	}
	return nil
}

// CheckReason checks a reason, a source or a title: at most
// MaxReasonLength characters and no control character, tab or newline.
// what names it ("--reason", "--source"). Errors are CodeInvalid.
func CheckReason(what, s string) error {
	return checkText(what, s, MaxReasonLength)
}

// CheckNote checks a session note: at most MaxNoteLength characters and
// no control character. Errors are CodeInvalid.
func CheckNote(s string) error {
	return checkText("the note", s, MaxNoteLength)
}

func checkText(what, s string, limit int) error {
	if bad := firstUnprintable(s); bad != "" {
		return Errorf(CodeInvalid, "%s holds %s: write it as plain text on one line", what, bad)
	}
	if n := utf8.RuneCountInString(s); n > limit {
		return Errorf(CodeInvalid, "%s is %d characters long; it holds at most %d", what, n, limit)
	}
	return nil
}

// shorten cuts a long text to its first 20 characters and an ellipsis, to
// quote it in a message.
func shorten(s string) string {
	if utf8.RuneCountInString(s) <= 20 {
		return s
	}
	return string([]rune(s)[:20]) + "…"
}
