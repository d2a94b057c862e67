package exports

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ltscamp/ltscamp/rules"
)

// Printable returns s with every character that is not text (the ones
// rules.Unprintable names: C0 and C1 controls, DEL, tab and newline, the
// line separators, the bidirectional overrides) and every byte that is not
// UTF-8 written as a visible escape: "\x1b", "\u202e", "\xff". The
// commands refuse such characters in names, reasons and notes; an old or
// imported log may still hold them, and human output (the terminal, a
// Markdown or PDF export) must not pass them on: an "ESC[2J" in a name
// would clear the screen of whoever reads the log. JSON output keeps the
// text exact (JSON escapes control characters itself). Text without such
// characters is returned as it is.
func Printable(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || rules.Unprintable(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case rules.Unprintable(r) && r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case rules.Unprintable(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
