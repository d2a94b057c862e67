package interceptor

import (
	"testing"
)

// fuzzShip is a ship with everything hits interact with: externals, empty
// cargo, missile reloads, a hangar, a cockpit with crew, and a turret.
func fuzzShip(t *testing.T) Ship {
	sp := spaceGullSpec()
	sp.Internal = append([][]string{
		{"K", "K", "M", "M", "H", "H", "K", "K", "F", "F"},
	}, sp.Internal...)
	sp.Components["K"] = "Cargo"
	sp.Components["M"] = "Missile Reloads"
	sp.Components["H"] = "Hangar"
	sp.Externals = []ExternalSpec{{Name: "H1", Type: "External Hardpoint", Facing: Forward, Column: 2}, {Name: "R1", Type: "External Rescue Compartment", Facing: Left, Column: 7}}
	sp.Turrets = []TurretSpec{{Name: "Dorsal", Armour: 20, Internal: [][]string{row10("W"), row10("R")}, Components: map[string]string{"W": "Weapon", "R": "Turret Structure"}}}
	return mustShip(t, sp)
}

// FuzzHit applies a stream of hits decoded from the fuzzer's bytes and
// checks invariants after each: no panic; no box ever comes back; after
// RemoveWidowed the widowed armour boxes are exactly those with no
// 4-connected path of intact armour to the bottom row; the ship the hit was
// applied to is unchanged.
func FuzzHit(f *testing.F) {
	f.Add([]byte{0, 3, 6, 0, 0, 5, 6, 0, 1, 6, 0, 0})
	f.Add([]byte{0, 5, 0, 200, 3, 1, 40, 1, 2, 10, 0, 9})
	f.Add([]byte{7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7})
	f.Fuzz(func(t *testing.T, data []byte) {
		s := fuzzShip(t)
		templates := SampleTemplates()
		for len(data) >= 4 && !s.Exploded() {
			b := data[:4]
			data = data[4:]
			h := Hit{Facing: Facings()[b[0]%4], Column: int(b[1] % 12), Turret: int(b[3] % 3)}
			if b[2]%2 == 0 {
				h.Points = int(b[2] / 2 % 30)
			} else {
				tp := templates[int(b[2]/2)%len(templates)]
				h.Template = &tp
			}
			before := s.snapshotAll()
			n, rep, err := s.Hit(h)
			if err != nil {
				if c := CodeOf(err); c != CodeInvalid && c != CodeRule {
					t.Fatalf("Hit(%+v): uncoded error %v", h, err)
				}
				continue
			}
			if got := s.snapshotAll(); got != before {
				t.Fatalf("Hit changed the ship it was called on")
			}
			after := n.snapshotAll()
			if !noneRestored(before, after) {
				t.Fatalf("Hit(%+v) restored a box", h)
			}
			points := h.Points
			if h.Template != nil {
				points = h.Template.Points()
			}
			if got := len(rep.Destroyed) + rep.Wasted; got > points {
				t.Fatalf("Hit(%+v): %d destroyed + %d wasted > %d points", h, len(rep.Destroyed), rep.Wasted, points)
			}
			if b[3]%5 == 0 {
				n, _ = n.RemoveWidowed()
				checkWidowed(t, n)
			}
			s = n
		}
	})
}

// snapshotAll renders every block, a cheap deep value of the ship's state.
func (s Ship) snapshotAll() string {
	out := ""
	for _, f := range Facings() {
		for _, l := range s.RenderArmour(f) {
			out += l + "\n"
		}
	}
	for _, l := range s.RenderInternal() {
		out += l + "\n"
	}
	for k := range s.turrets {
		for _, l := range s.RenderTurret(k + 1) {
			out += l + "\n"
		}
	}
	return out
}

// noneRestored reports whether every destroyed or widowed mark of before is
// still one in after (x and ~ never turn back into a box).
func noneRestored(before, after string) bool {
	if len(before) != len(after) {
		// Disabled marks (*) may lengthen internal lines; compare by cells.
		return countGone(after) >= countGone(before)
	}
	for i := range before {
		if (before[i] == 'x' || before[i] == '~') && after[i] != before[i] && after[i] != 'x' && after[i] != '~' {
			return false
		}
	}
	return true
}

func countGone(s string) int {
	n := 0
	for _, c := range s {
		if c == 'x' || c == '~' {
			n++
		}
	}
	return n
}

// checkWidowed recomputes reachability independently and compares.
func checkWidowed(t *testing.T, s Ship) {
	t.Helper()
	blocks := []armourBlock{}
	for i := range s.armour {
		blocks = append(blocks, s.armour[i])
	}
	for _, tu := range s.turrets {
		blocks = append(blocks, tu.armour)
	}
	for bi, a := range blocks {
		// Flood fill by repeated relaxation, a different algorithm from widow.
		ok := make([]bool, len(a.boxes))
		for c := range Columns {
			if a.rows > 0 {
				ok[(a.rows-1)*Columns+c] = a.boxes[(a.rows-1)*Columns+c] == Intact
			}
		}
		for changed := true; changed; {
			changed = false
			for i := range a.boxes {
				if ok[i] || a.boxes[i] != Intact {
					continue
				}
				r, c := i/Columns, i%Columns
				if (r > 0 && ok[i-Columns]) || (r < a.rows-1 && ok[i+Columns]) || (c > 0 && ok[i-1]) || (c < Columns-1 && ok[i+1]) {
					ok[i] = true
					changed = true
				}
			}
		}
		for i, st := range a.boxes {
			if st == Intact && !ok[i] {
				t.Fatalf("block %d box %d is intact with no path to the bottom", bi, i)
			}
			r, c := i/Columns, i%Columns
			if st == Widowed && ((r > 0 && ok[i-Columns]) || (r < a.rows-1 && ok[i+Columns]) || (c > 0 && ok[i-1]) || (c < Columns-1 && ok[i+1]) || r == a.rows-1) {
				t.Fatalf("block %d box %d is widowed but joins armour that reaches the bottom", bi, i)
			}
		}
	}
	for _, e := range s.externals {
		if e.State == Intact && s.armour[e.Facing.index()].boxes[e.Column-1] != Intact {
			t.Fatalf("external %s stands on a box that is gone", e.Name)
		}
	}
}
