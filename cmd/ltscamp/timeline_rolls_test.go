package main

import (
	"strings"
	"testing"
)

// Issue 21: the timeline left out rolls and contests, so a session's
// record missed initiative, tackles and medic checks. timeline --rolls
// (whole, one day, JSON) and export timeline --rolls tell them, each with
// its dice, total, target, outcome and reason, in the timeline's own line
// style; a contest between two members (recorded in both streams) is told
// once; without --rolls the timeline is as it was.
func TestTimelineRolls(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"init"},
		{"char", "new", "Kira", "--st", "10", "--dx", "12", "--iq", "10", "--skill", "Medic:1", "--skill", "Pistol:1"},
		{"char", "new", "Brann", "--st", "14", "--dx", "10", "--iq", "8", "--skill", "Unarmed:2"},
		{"adventure", "start", "Audit"},
		{"encounter", "start"},
		{"foe", "add", "Rat:ST10,DX11,IQ8"},
		{"roll", "3/DX", "--char", "Kira", "--dice", "1,2,3", "--reason", "initiative"},
		{"roll", "2d6", "--dice", "3,4"},
		{"contest", "Brann:ST", "Rat:ST", "--dice", "2,2,2", "--dice", "6,6,6", "--reason", "tackle"},
		{"contest", "Brann:ST", "Kira:ST", "--dice", "2,2,2", "--dice", "6,6,6"},
		{"damage", "Brann", "3"},
		{"heal", "Brann", "--medic", "Kira", "--dice", "2,3,4"},
		{"encounter", "end", "--outcome", "victory"},
	} {
		if code, _, stderr := run(t, dir, args...); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	rolls := []string{
		"[encounter 1] Kira: 3/DX [1,2,3] = 6 vs 12, pass: initiative",
		"[encounter 1] bare roll: 2d6 [3,4] = 7",
		"[encounter 1] contest: Brann rolled 6 on ST 14, Rat rolled 18 on ST 10: Brann wins: tackle",
		"[encounter 1] contest: Brann rolled 6 on ST 14, Kira rolled 18 on ST 10: Brann wins",
		"[encounter 1] Kira: 3/IQ [2,3,4] = 9 vs 10, pass: medic for Brann",
	}
	plain := mustRun(t, dir, "timeline")
	for _, args := range [][]string{{"timeline", "--rolls"}, {"timeline", "--rolls", "--day", "1"}} {
		out := mustRun(t, dir, args...)
		for _, want := range rolls {
			if strings.Count(out, want) != 1 {
				t.Errorf("%v tells %q %d times:\n%s", args, want, strings.Count(out, want), out)
			}
			if strings.Contains(plain, want) {
				t.Errorf("timeline without --rolls tells %q", want)
			}
		}
		// Every line of the plain timeline is there, in the same order.
		at := 0
		for _, line := range strings.Split(strings.TrimSpace(plain), "\n") {
			i := strings.Index(out[at:], line)
			if i < 0 {
				t.Errorf("%v lost or moved %q:\n%s", args, line, out)
				break
			}
			at += i + len(line)
		}
	}
	js := mustRun(t, dir, "timeline", "--rolls", "--json")
	if strings.Count(js, `"kind": "roll"`) != 3 || strings.Count(js, `"kind": "contest"`) != 2 {
		t.Errorf("timeline --rolls --json:\n%s", js)
	}
	md := mustRun(t, dir, "export", "timeline", "--rolls")
	if !strings.Contains(md, `| 7 | 1 | Kira: 3/DX \[1,2,3\] = 6 vs 12, pass: initiative |`) || !strings.Contains(md, "Brann wins: tackle |") {
		t.Errorf("export timeline --rolls:\n%s", md)
	}
	if md := mustRun(t, dir, "export", "timeline"); strings.Contains(md, "initiative") {
		t.Errorf("export timeline without --rolls tells the rolls:\n%s", md)
	}
}
