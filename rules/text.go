package rules

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
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

// A name is compared with the others as a person reads it: two names
// that look the same must be one name. So a name, unlike a reason or a
// note, may not hold a character that shows nothing (Invisible): "Kira"
// and "Kira" with a zero-width space after it would otherwise be two
// characters no reader can tell apart. And a name is written in Unicode's
// composed form (NFC), the form keyboards type: "é" is one character,
// U+00E9, never "e" followed by the combining accent U+0301, which looks
// the same and compares different. Names already in a log are left as
// they are: these checks are made on the names a command brings in.

// Invisible reports whether r shows nothing where it stands, so that a
// name holding it looks like the name without it: the format characters
// (Unicode category Cf: the zero-width space U+200B, the joiners U+200C
// and U+200D, the left-to-right and right-to-left marks U+200E, U+200F
// and U+061C, the word joiner U+2060, the byte order mark U+FEFF, the
// soft hyphen U+00AD, the tags U+E0001 to U+E007F, the bidirectional
// controls) and the other default-ignorable characters (the variation
// selectors U+FE00 to U+FE0F, the combining grapheme joiner U+034F, the
// Hangul fillers U+115F, U+1160, U+3164, U+FFA0), and the Braille blank
// U+2800, which shows as a space that white space does not fold.
func Invisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		unicode.Is(unicode.Variation_Selector, r) || r == '\u2800'
}

// CheckName checks a name the user typed: what names it ("character
// name", "ship name", "actor"). A name is at most MaxNameLength
// characters, holds no control character, tab or newline and no
// invisible character, and is in Unicode's composed form (NFC). An empty
// name is the caller's to refuse. Errors are CodeInvalid.
func CheckName(what, s string) error {
	if bad := firstUnprintable(s); bad != "" {
		return Errorf(CodeInvalid, "%s %q holds %s: names are plain text on one line", what, s, bad)
	}
	if n := utf8.RuneCountInString(s); n > MaxNameLength {
		return Errorf(CodeInvalid, "%s %q is %d characters long; a name has at most %d", what, shorten(s), n, MaxNameLength)
	}
	if i := strings.IndexFunc(s, Invisible); i >= 0 {
		r, _ := utf8.DecodeRuneInString(s[i:])
		return Errorf(CodeInvalid, "%s %q holds the invisible character %U%s: a name may not hold a character that shows nothing, so that no two names look the same", what, s, r, invisibleName(r))
	}
	if !norm.NFC.IsNormalString(s) {
		return Errorf(CodeInvalid, "%s %q holds %s: type the name again as a keyboard types it (one character for an accented letter, Unicode NFC), so that no two names look the same", what, s, decomposed(s))
	}
	return nil
}

// invisibleName names the invisible characters most often met, for the
// message.
func invisibleName(r rune) string {
	switch r {
	case '\u200b':
		return " (zero-width space)"
	case '\u200c':
		return " (zero-width non-joiner)"
	case '\u200d':
		return " (zero-width joiner)"
	case '\u2060':
		return " (word joiner)"
	case '\ufeff':
		return " (byte order mark)"
	case '\u00ad':
		return " (soft hyphen)"
	case '\u200e', '\u200f', '\u061c':
		return " (a direction mark)"
	}
	return ""
}

// decomposed describes where s, not in NFC, first differs from its NFC
// form: "the letter e and the combining mark U+0301 where one character
// belongs".
func decomposed(s string) string {
	c := norm.NFC.String(s)
	i := 0
	for i < len(s) && i < len(c) && s[i] == c[i] {
		i++
	}
	// Back to the start of the rune, and to the base the marks follow.
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	base, size := utf8.DecodeRuneInString(s[i:])
	if i > 0 && unicode.Is(unicode.Mn, base) {
		base, size = utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	// Past the end DecodeRuneInString gives RuneError, which is no mark.
	mark, _ := utf8.DecodeRuneInString(s[i+size:])
	if unicode.Is(unicode.M, mark) {
		return fmt.Sprintf("the letter %q and the combining mark %U where one character belongs", base, mark)
	}
	return fmt.Sprintf("the character %U, which Unicode writes another way (NFC)", base)
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
