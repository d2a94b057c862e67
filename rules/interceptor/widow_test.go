package interceptor

import (
	"reflect"
	"testing"
)

// drawArmour returns a copy of s whose armour block of facing f is the
// picture rows, top row first: o an intact box, x a destroyed one.
func drawArmour(t *testing.T, s Ship, f Facing, rows ...string) Ship {
	t.Helper()
	n := s.clone()
	a := &n.armour[f.index()]
	if len(rows) != a.rows {
		t.Fatalf("picture of %d rows for a block of %d", len(rows), a.rows)
	}
	for r, line := range rows {
		if len(line) != Columns {
			t.Fatalf("picture row %q is not %d wide", line, Columns)
		}
		for c, ch := range line {
			a.boxes[r*Columns+c] = map[rune]BoxState{'o': Intact, 'x': Destroyed}[ch]
		}
	}
	return n
}

// armourPicture draws facing f's block as drawArmour reads it, with ~ for
// widowed boxes.
func armourPicture(s Ship, f Facing) []string {
	var out []string
	for r := 1; r <= s.ArmourRows(f); r++ {
		line := ""
		for c := 1; c <= Columns; c++ {
			st, _ := s.ArmourBox(f, r, c)
			line += map[BoxState]string{Intact: "o", Destroyed: "x", Widowed: "~"}[st]
		}
		out = append(out, line)
	}
	return out
}

// TestWidowedArmourPictures: "Widowed armour is created when any block of
// armour remaining on the Armour Diagram cannot trace a continuous path of
// armour blocks to the bottom row. The armour blocks of this path must
// connect at the side and/or the top or bottom. Blocks that touch only at
// the corner are not connected for this purpose" (WIDOWED ARMOUR, book
// l.330). Each row is a 3-row forward block before and after the check.
func TestWidowedArmourPictures(t *testing.T) {
	base := mustShip(t, Spec{
		Name:       "Plate",
		Armour:     ArmourSpec{Forward: 30},
		Internal:   [][]string{row10("F")},
		Components: map[string]string{"F": "Free"},
	})
	cases := []struct {
		name          string
		before, after []string
	}{
		{"an intact block, edges and all, stands",
			[]string{"oooooooooo", "oooooooooo", "oooooooooo"},
			[]string{"oooooooooo", "oooooooooo", "oooooooooo"}},
		{"a box standing on its left neighbour stands",
			[]string{"xxxxxxxxxx", "xxxxooxxxx", "xxxxoxxxxx"},
			[]string{"xxxxxxxxxx", "xxxxooxxxx", "xxxxoxxxxx"}},
		{"a box standing on its right neighbour stands",
			[]string{"xxxxxxxxxx", "xxxxooxxxx", "xxxxxoxxxx"},
			[]string{"xxxxxxxxxx", "xxxxooxxxx", "xxxxxoxxxx"}},
		{"both neighbours and the box below gone: widowed",
			[]string{"xxxxxxxxxx", "xxxxoxxxxx", "xxxxxxxxxx"},
			[]string{"xxxxxxxxxx", "xxxx~xxxxx", "xxxxxxxxxx"}},
		{"touching the bottom row only at corners: widowed",
			[]string{"xxxxxxxxxx", "xxxxoxxxxx", "xxxoxoxxxx"},
			[]string{"xxxxxxxxxx", "xxxx~xxxxx", "xxxoxoxxxx"}},
		{"a path that goes up, across and down again stands",
			[]string{"oooxxxxxxx", "oxoxxxxxxx", "xxoxxxxxxx"},
			[]string{"oooxxxxxxx", "oxoxxxxxxx", "xxoxxxxxxx"}},
		{"a path along the top row to the far edge stands",
			[]string{"oooooooooo", "xxxxxxxxxo", "xxxxxxxxxo"},
			[]string{"oooooooooo", "xxxxxxxxxo", "xxxxxxxxxo"}},
		{"the edge columns are not joined across the rows",
			[]string{"xxxxxxxxxo", "oxxxxxxxxo", "xxxxxxxxxo"},
			[]string{"xxxxxxxxxo", "~xxxxxxxxo", "xxxxxxxxxo"}},
		{"the edge columns are not joined to each other",
			[]string{"oxxxxxxxxo", "oxxxxxxxxx", "xxxxxxxxxo"},
			[]string{"~xxxxxxxx~", "~xxxxxxxxx", "xxxxxxxxxo"}},
		{"the bottom row always stands",
			[]string{"oxoxoxoxox", "xxxxxxxxxx", "oxoxoxoxox"},
			[]string{"~x~x~x~x~x", "xxxxxxxxxx", "oxoxoxoxox"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := drawArmour(t, base, Forward, c.before...)
			n, rep := s.RemoveWidowed()
			if got := armourPicture(n, Forward); !reflect.DeepEqual(got, c.after) {
				t.Errorf("after the check:\n%v\nwant\n%v", got, c.after)
			}
			var want []Place
			for r, line := range c.after {
				for col, ch := range line {
					if ch == '~' {
						want = append(want, Place{Block: "forward", Row: r + 1, Column: col + 1})
					}
				}
			}
			if !reflect.DeepEqual(rep.Widowed, want) {
				t.Errorf("widowed %v, want %v", rep.Widowed, want)
			}
			if got := armourPicture(s, Forward); !reflect.DeepEqual(got, c.before) {
				t.Errorf("RemoveWidowed changed the ship it was called on: %v", got)
			}
		})
	}
}

// TestExternalLostWithWidowedArmour: "External systems covering widowed
// armour blocks are lost when the widowed armour is removed" (book l.345),
// on the edge columns as anywhere; one over armour that stands stays.
func TestExternalLostWithWidowedArmour(t *testing.T) {
	sp := Spec{
		Name:       "Plate",
		Armour:     ArmourSpec{Forward: 30},
		Internal:   [][]string{row10("F")},
		Components: map[string]string{"F": "Free"},
		Externals: []ExternalSpec{
			{Name: "Left Rack", Type: "External Hardpoint", Facing: Forward, Column: 1},
			{Name: "Right Rack", Type: "External Heavy Hardpoint", Facing: Forward, Column: 10},
			{Name: "Pod", Type: "External Rescue Compartment", Facing: Forward, Column: 5},
		},
	}
	s := drawArmour(t, mustShip(t, sp), Forward, "oxxxoxxxxo", "oxxxoxxxxx", "xxxxoxxxxo")
	n, rep := s.RemoveWidowed()
	if want := []string{"Left Rack", "Right Rack"}; !reflect.DeepEqual(rep.ExternalsLost, want) {
		t.Errorf("externals lost %v, want %v", rep.ExternalsLost, want)
	}
	for name, want := range map[string]BoxState{"Left Rack": Widowed, "Right Rack": Widowed, "Pod": Intact} {
		if got := externalState(n, name); got != want {
			t.Errorf("%s is %v, want %v", name, got, want)
		}
	}
	wantDisabled := []ComponentRef{{Code: "Left Rack", Type: ExternalHardpoint}, {Code: "Right Rack", Type: ExternalHeavyHardpoint}}
	if !reflect.DeepEqual(rep.Disabled, wantDisabled) {
		t.Errorf("disabled %v, want %v", rep.Disabled, wantDisabled)
	}
	if got := n.RenderArmour(Forward)[2]; got != "ext ~  .  .  .  E  .  .  .  .  ~" {
		t.Errorf("ext row %q", got)
	}
}
