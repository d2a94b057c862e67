package exports

import (
	"strings"
	"testing"
)

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"Ajax":              "Ajax",
		"Hélène 李":          "Hélène 李",
		"A\x1b[2Jjax":       `A\x1b[2Jjax`,
		"bell\x07":          `bell\x07`,
		"tab\there":         `tab\x09here`,
		"line\nbreak":       `line\x0abreak`,
		"del\x7f":           `del\x7f`,
		"csi\u009b2J":       `csi\u009b2J`,
		"rtl\u202eevil":     `rtl\u202eevil`,
		"sep\u2028":         `sep\u2028`,
		"bad\xff\xfeutf8":   `bad\xff\xfeutf8`,
		"real \ufffd stays": "real \ufffd stays",
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMarkdownCarriesNoControls: a name from an old log with an escape
// sequence is written escaped in a Markdown export.
func TestMarkdownCarriesNoControls(t *testing.T) {
	for name, f := range map[string]func(any) string{"text": mdEscape, "code": mdCode} {
		got := f("Evil\x1b[2J\x9bName")
		if strings.ContainsAny(got, "\x1b\u009b") || !strings.Contains(got, `x1b`) {
			t.Errorf("%s(...) = %q: a control character passed, or was dropped", name, got)
		}
	}
}
