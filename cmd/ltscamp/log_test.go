package main

import (
	"testing"
	"time"
)

// TestParseWhen: --since and --until take RFC 3339 times or dates; a date
// is the whole UTC day, so --until includes its last instant.
func TestParseWhen(t *testing.T) {
	day := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		in       string
		endOfDay bool
		want     time.Time
	}{
		{"", false, time.Time{}},
		{"2026-11-21", false, day},
		{"2026-11-21", true, day.Add(24*time.Hour - time.Nanosecond)},
		{" 2026-11-21T20:00:00Z ", true, day.Add(20 * time.Hour)},
		{"2026-11-21T21:00:00+01:00", false, day.Add(20 * time.Hour)},
		{"2026-11-21T20:00:00.5Z", false, day.Add(20*time.Hour + 500*time.Millisecond)},
	}
	for _, tc := range tests {
		got, err := parseWhen("--until", tc.in, tc.endOfDay)
		if err != nil || !got.Equal(tc.want) || (!got.IsZero() && got.Location() != time.UTC) {
			t.Errorf("parseWhen(%q, %v) = %v, %v; want %v", tc.in, tc.endOfDay, got, err, tc.want)
		}
	}
	for _, in := range []string{"yesterday", "2026-13-01", "21/11/2026", "2026-11-21 20:00"} {
		if _, err := parseWhen("--since", in, false); exitCode(err) != ExitUsage {
			t.Errorf("parseWhen(%q): %v, want a usage error", in, err)
		}
	}
}
