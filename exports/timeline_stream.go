package exports

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"github.com/ltscamp/ltscamp/projections"
)

// TimelineJSON writes a timeline as WriteJSON writes it (the document of
// `timeline --json`), byte for byte, one day at a time, as
// campaign.Service.TimelineStream hands the days over: the reader sees the
// first day at once, and nothing holds the whole timeline.
type TimelineJSON struct {
	w io.Writer
	// started: the document is open; period: the period whose days are
	// being written (days > 0 once one is).
	started bool
	period  *projections.TimelinePeriod
	days    int
	err     error
}

// NewTimelineJSON returns a writer of a timeline document to w.
func NewTimelineJSON(w io.Writer) *TimelineJSON { return &TimelineJSON{w: w} }

// indented encodes v as WriteJSON does, each line after the first
// indented by prefix, without the final newline.
func indented(v any, prefix string) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

func (t *TimelineJSON) write(s string) {
	if t.err == nil {
		_, t.err = io.WriteString(t.w, s)
	}
}

// Day writes a day of period p (whose Days are ignored).
func (t *TimelineJSON) Day(p projections.TimelinePeriod, d projections.TimelineDay) error {
	if !t.started {
		t.write("{\n  \"periods\": [\n")
		t.started = true
	}
	if t.period == nil || t.period.Adventure != p.Adventure || t.period.Title != p.Title {
		if t.period != nil {
			t.write("\n      ]\n    },\n")
		}
		head := p
		head.Days = []projections.TimelineDay{}
		s, err := indented(head, "    ")
		if err != nil {
			return err
		}
		// `"days": []` closes the period's encoding: open the list instead.
		s = strings.TrimSuffix(s, "[]\n    }") + "[\n"
		t.write("    " + s)
		t.period, t.days = &head, 0
	}
	s, err := indented(d, "        ")
	if err != nil {
		return err
	}
	if t.days > 0 {
		t.write(",\n")
	}
	t.write("        " + s)
	t.days++
	return t.err
}

// Close ends the document.
func (t *TimelineJSON) Close() error {
	switch {
	case !t.started:
		t.write("{\n  \"periods\": []\n}\n")
	case t.period != nil:
		t.write("\n      ]\n    }\n  ]\n}\n")
	}
	return t.err
}
