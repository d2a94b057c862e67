package rules

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// kitKat is the 2020/2021 gunboat: "Cargo1, Engineering1, Operations1,
// Living1, d6/1, M+1".
var kitKat = ShipRecord{
	Sections: []Section{
		{Name: "Cargo", Kind: SectionCargo, Points: 1},
		{Name: "Engineering", Kind: SectionEngineering, Points: 1},
		{Name: "Operations", Kind: SectionOperations, Points: 1},
		{Name: "Living", Kind: SectionLiving, Points: 1},
	},
	WeaponDice: 1, Shields: 1, Maneuver: 1,
}

// mustShip parses a record or fails the test.
func mustShip(t *testing.T, ed Edition, s string) ShipRecord {
	t.Helper()
	r, err := ParseShipRecord(ed, s)
	if err != nil {
		t.Fatalf("ParseShipRecord(%s, %q): %v", ed, s, err)
	}
	return r
}

// Example 9: Kit-Kat "Cargo1, Engineering1, Operations1, Living1, d6/1, M+1"
// costs 14 build points. 2020/2021 "Maneuver" Example 2: "Build
// cost=14 build points". 2010 has no Kit-Kat but the same prices ("Building
// Costs", "Weapons/Shields/Maneuver Capabilities"), so the row holds there
// too.
func TestExample9KitKatCost(t *testing.T) {
	for _, ed := range Editions() {
		for _, text := range []string{
			"Cargo1, Engineering1, Operations1, Living1, d6/1, M+1",
			"C1, E1, O1, L1, d6/1, M+1",
			"c1,e1,o1,l1,D6/1,m+1",
		} {
			t.Run(fmt.Sprintf("example9/%s/%s", ed, text), func(t *testing.T) {
				r := mustShip(t, ed, text)
				if !reflect.DeepEqual(r, kitKat) {
					t.Fatalf("parsed %+v, want %+v", r, kitKat)
				}
				c := ShipCost(r)
				want := BuildCost{Total: 14, Sections: 4, Weapons: 6, Shields: 2, Maneuver: 2,
					Formula: "sections 4 + weapons 6 (d6) + shields 2 (/1) + maneuver 2 (M+1) = 14"}
				if c != want {
					t.Errorf("ShipCost = %+v, want %+v", c, want)
				}
				if got := r.String(); got != "Cargo1, Engineering1, Operations1, Living1, d6/1, M+1" {
					t.Errorf("String = %q", got)
				}
				if got := r.Short(); got != "C1, E1, O1, L1, d6/1, M+1" {
					t.Errorf("Short = %q", got)
				}
				if r.CargoUnits() != 1 || !r.HasLiving() {
					t.Errorf("CargoUnits = %d, HasLiving = %v; want 1, true", r.CargoUnits(), r.HasLiving())
				}
			})
		}
	}
}

// Example 10: Kit-Kat hit for 3 with shields 1: 2 damage points; cargo then
// engineering destroyed; the craft is dead in the water; crew in those
// sections die; operations still works. 2020/2021 "DOG FIGHTS" Examples
// 1d-1g; 2010 "Shields", "Damage" and "Dead In The Water (DIW)" give the
// same result.
func TestExample10KitKatHit(t *testing.T) {
	for _, ed := range Editions() {
		t.Run(fmt.Sprintf("example10/%s", ed), func(t *testing.T) {
			r := mustShip(t, ed, "C1, E1, O1, L1, d6/1, M+0")
			out, st, err := ApplyShipHit(r, nil, 3, -1)
			if err != nil {
				t.Fatal(err)
			}
			want := HitOutcome{
				Rolled: 3, Shields: 1, Stopped: 1, Inflicted: 2,
				Applied: []SectionDamage{
					{Index: 0, Name: "Cargo", Points: 1, DestroyedNow: true},
					{Index: 1, Name: "Engineering", Points: 1, DestroyedNow: true},
				},
				DIW: true, DIWNow: true,
				Explanation: "Hit for 3, shields stop 1: 2 damage points; Cargo takes 1 and is destroyed with all aboard, " +
					"Engineering takes 1 and is destroyed with all aboard. Engineering is destroyed: the craft is dead in the water, " +
					"has lost propulsion, and can no longer move or fire.",
			}
			if !reflect.DeepEqual(out, want) {
				t.Fatalf("ApplyShipHit =\n%+v\nwant\n%+v", out, want)
			}
			destroyed := []bool{true, true, false, false}
			for i, s := range st {
				if s.Destroyed() != destroyed[i] {
					t.Errorf("%s destroyed = %v, want %v", s.Name, s.Destroyed(), destroyed[i])
				}
			}
			// Example 1g: "his operations section is still intact, so he can
			// send out a distress signal".
			if st[2].Damage != 0 {
				t.Errorf("Operations damage = %d, want 0", st[2].Damage)
			}
			diw, reason := Dead(st)
			if !diw || !strings.HasPrefix(reason, "Engineering is destroyed") {
				t.Errorf("Dead = %v, %q", diw, reason)
			}
		})
	}
}

// Example 11: a two-point engineering section that takes 1 damage still
// works; a second point destroys it. 2020/2021 "Building Costs" Example;
// 2010 "Building Costs": "A section remains intact until it has accumulated
// damage points equal to its build points."
func TestExample11TwoPointEngineering(t *testing.T) {
	for _, ed := range Editions() {
		t.Run(fmt.Sprintf("example11/%s", ed), func(t *testing.T) {
			r := mustShip(t, ed, "Engineering2, Operations1")
			out, st, err := ApplyShipHit(r, nil, 1, -1)
			if err != nil {
				t.Fatal(err)
			}
			if st[0].Damage != 1 || st[0].Destroyed() || out.DIW || out.Applied[0].DestroyedNow {
				t.Fatalf("after 1 point: %+v, outcome %+v; want Engineering damaged but working", st[0], out)
			}
			if want := "Hit for 1: 1 damage point; Engineering takes 1 (1 of 2) and still works."; out.Explanation != want {
				t.Errorf("Explanation = %q, want %q", out.Explanation, want)
			}
			out, st, err = ApplyShipHit(r, st, 1, -1)
			if err != nil {
				t.Fatal(err)
			}
			if !st[0].Destroyed() || !out.Applied[0].DestroyedNow || !out.DIW || !out.DIWNow {
				t.Fatalf("after 2 points: %+v, outcome %+v; want Engineering destroyed, DIW", st[0], out)
			}
			if st[1].Damage != 0 {
				t.Errorf("Operations took %d, want 0", st[1].Damage)
			}
		})
	}
}

// Example 12: a corvette with 2d6 weapons spends 12 build points on them;
// two shield factors cost 4 and, hit for 3 then for 2, the craft takes 1
// then 0 damage. 2020/2021 "Weapons" and "Shields" Examples; 2010 "Weapons
// Capabilities" and "Shields Capabilities" set the same prices.
func TestExample12Corvette(t *testing.T) {
	for _, ed := range Editions() {
		t.Run(fmt.Sprintf("example12/%s", ed), func(t *testing.T) {
			r := mustShip(t, ed, "Engineering2, Operations2, Living1, 2d6/2")
			c := ShipCost(r)
			if c.Weapons != 12 || c.Shields != 4 || c.Total != 21 {
				t.Errorf("ShipCost = %+v, want weapons 12, shields 4, total 21", c)
			}
			out, st, err := ApplyShipHit(r, nil, 3, -1)
			if err != nil {
				t.Fatal(err)
			}
			if out.Stopped != 2 || out.Inflicted != 1 || st[0].Damage != 1 {
				t.Fatalf("hit for 3: %+v; want 2 stopped, 1 inflicted", out)
			}
			out, st2, err := ApplyShipHit(r, st, 2, -1)
			if err != nil {
				t.Fatal(err)
			}
			if out.Stopped != 2 || out.Inflicted != 0 || len(out.Applied) != 0 || !reflect.DeepEqual(st2, st) {
				t.Fatalf("hit for 2: %+v; want all stopped, no damage", out)
			}
			if want := "Hit for 2, shields stop 2: 0 damage points."; out.Explanation != want {
				t.Errorf("Explanation = %q, want %q", out.Explanation, want)
			}
		})
	}
}

func TestParseShipRecord(t *testing.T) {
	sec := func(name string, kind SectionKind, points int) Section {
		return Section{Name: name, Kind: kind, Points: points}
	}
	eng, ops := sec("Engineering", SectionEngineering, 1), sec("Operations", SectionOperations, 1)
	rows := []struct {
		ed   Edition
		in   string
		want ShipRecord
		long string
	}{
		{Edition2021, "Engineering1, Operations1", ShipRecord{Sections: []Section{eng, ops}}, "Engineering1, Operations1"},
		// 2021 "Listing Sections": the Kit-Kat without M.
		{Edition2021, "Cargo1, Engineering1, Operations1, Living1, d6/1",
			ShipRecord{Sections: kitKat.Sections, WeaponDice: 1, Shields: 1}, "Cargo1, Engineering1, Operations1, Living1, d6/1"},
		{Edition2021, "E1,O1,2d6", ShipRecord{Sections: []Section{eng, ops}, WeaponDice: 2}, "Engineering1, Operations1, 2d6"},
		{Edition2021, "E1, O1, /2", ShipRecord{Sections: []Section{eng, ops}, Shields: 2}, "Engineering1, Operations1, /2"},
		{Edition2021, "E1, O1, 2d6, /2", ShipRecord{Sections: []Section{eng, ops}, WeaponDice: 2, Shields: 2}, "Engineering1, Operations1, 2d6/2"},
		{Edition2021, " E 1 , O1 , 2 d 6 / 2 , M + 3 ", ShipRecord{Sections: []Section{eng, ops}, WeaponDice: 2, Shields: 2, Maneuver: 3}, "Engineering1, Operations1, 2d6/2, M+3"},
		// 2010 "Weapons Capabilities": "Abbreviate weapons as: XD6".
		{Edition2010, "ENGINEERING1, OPERATIONS1, 3D6/1, M+1, S+2",
			ShipRecord{Sections: []Section{eng, ops}, WeaponDice: 3, Shields: 1, Maneuver: 1, Systems: 2}, "Engineering1, Operations1, 3d6/1, M+1, S+2"},
		{Edition2010, "E1, O1, S+0", ShipRecord{Sections: []Section{eng, ops}}, "Engineering1, Operations1"},
		// 2010 "Dead In The Water": "If engineering or ops is destroyed".
		{Edition2010, "Ops2, E1", ShipRecord{Sections: []Section{sec("Operations", SectionOperations, 2), eng}}, "Operations2, Engineering1"},
		// "Other Sections": "science bays, botany bays, machine shops".
		{Edition2021, "Science2, E1, machine  shop 3, O1, Captain's Quarters1, Botany-Bay1",
			ShipRecord{Sections: []Section{sec("Science", SectionOther, 2), eng, sec("Machine shop", SectionOther, 3), ops,
				sec("Captain's Quarters", SectionOther, 1), sec("Botany-Bay", SectionOther, 1)}},
			"Science2, Engineering1, Machine shop3, Operations1, Captain's Quarters1, Botany-Bay1"},
		{Edition2021, "E1, O1, d6/0, M+0", ShipRecord{Sections: []Section{eng, ops}, WeaponDice: 1}, "Engineering1, Operations1, d6"},
		{Edition2021, "E1, O1, Med-bay2, Ship1", ShipRecord{Sections: []Section{eng, ops, sec("Med-bay", SectionOther, 2), sec("Ship", SectionOther, 1)}},
			"Engineering1, Operations1, Med-bay2, Ship1"},
		// Names that begin like a bonus are sections: "M-ship", "S-bay".
		{Edition2010, "E1, O1, M-ship1, S-bay2", ShipRecord{Sections: []Section{eng, ops, sec("M-ship", SectionOther, 1), sec("S-bay", SectionOther, 2)}},
			"Engineering1, Operations1, M-ship1, S-bay2"},
		{Edition2021, "E1,\nO1,\tdock2", ShipRecord{Sections: []Section{eng, ops, sec("Dock", SectionOther, 2)}}, "Engineering1, Operations1, Dock2"},
		{Edition2021, "E999, O1, 30d6/99, M+99", ShipRecord{Sections: []Section{sec("Engineering", SectionEngineering, 999), ops}, WeaponDice: 30, Shields: 99, Maneuver: 99},
			"Engineering999, Operations1, 30d6/99, M+99"},
		{"", "E1, O1, M+01", ShipRecord{Sections: []Section{eng, ops}, Maneuver: 1}, "Engineering1, Operations1, M+1"},
	}
	for _, row := range rows {
		t.Run(row.in, func(t *testing.T) {
			r := mustShip(t, row.ed, row.in)
			if !reflect.DeepEqual(r, row.want) {
				t.Fatalf("got %+v\nwant %+v", r, row.want)
			}
			if got := r.String(); got != row.long {
				t.Errorf("String = %q, want %q", got, row.long)
			}
			again := mustShip(t, row.ed, r.String())
			if !reflect.DeepEqual(again, r) {
				t.Errorf("round trip gives %+v", again)
			}
			if err := r.Validate(row.ed); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

func TestParseShipRecordErrors(t *testing.T) {
	rows := []struct {
		ed   Edition
		in   string
		want string
	}{
		{Edition2021, "", `bad ship record: the record is empty; write it like Cargo1, Engineering1, Operations1, Living1, d6/1, M+1`},
		{Edition2021, "   ", `bad ship record: the record is empty; write it like Cargo1, Engineering1, Operations1, Living1, d6/1, M+1`},
		{Edition2021, "Engineering0, Operations1", `bad ship record: "Engineering0": a section has at least 1 point`},
		{Edition2021, "Cargo1, Living1, d6/1", `bad ship record "Cargo1, Living1, d6/1": a craft requires engineering and operations sections; Engineering and Operations are missing`},
		{Edition2021, "E1, Living1", `bad ship record "E1, Living1": a craft requires engineering and operations sections; Operations is missing`},
		{Edition2021, "Eng1, O1", `bad ship record "Eng1, O1": a craft requires engineering and operations sections; Engineering is missing (is Eng1 meant to be Engineering? write Engineering1 or E1)`},
		{Edition2021, "E1, Operatons1", `bad ship record "E1, Operatons1": a craft requires engineering and operations sections; Operations is missing (is Operatons1 meant to be Operations? write Operations1 or O1)`},
		{Edition2021, "E1, O1, 2d6+1", `bad ship record: "2d6+1": weapons come in whole dice of d6 only, with no modifier`},
		{Edition2021, "E1, O1, d3", `bad ship record: "d3": weapons come in whole dice of d6 only`},
		{Edition2021, "E1, O1, 2d", `bad ship record: "2d": weapons come in whole dice of d6 only`},
		{Edition2021, "E1, O1, 0d6/1", `bad ship record: "0d6/1": weapons deal at least d6; leave them out for an unarmed craft`},
		{Edition2021, "E1, O1, 31d6", `bad ship record: "31d6": weapons deal 1 to 30 dice`},
		{Edition2021, "E1, O1, d6x", `bad ship record: "d6x": unexpected "x" after d6`},
		{Edition2020, "E1, O1, S+1", `bad ship record: "S+1": systems exist only in edition 2010`},
		{Edition2021, "E1, O1, s+1", `bad ship record: "s+1": systems exist only in edition 2010`},
		{Edition2010, "E1, O1, S1", `bad ship record: "S1": write the systems bonus as S+1`},
		{Edition2010, "E1, O1, S+1, S+2", `bad ship record: "S+2": the record lists the systems bonus twice`},
		{Edition2021, "Engineering1, Operations1, Engineering2", `bad ship record: "Engineering2": the record lists Engineering twice`},
		{Edition2021, "E1, O1, Engineering2", `bad ship record: "Engineering2": the record lists Engineering twice`},
		{Edition2021, "E1, O1, Science1, science2", `bad ship record: "science2": the record lists Science twice`},
		{Edition2021, "E1, O1, d6, 2d6", `bad ship record: "2d6": the record lists weapons twice`},
		{Edition2021, "E1, O1, d6/1, /2", `bad ship record: "/2": the record lists shields twice`},
		{Edition2021, "E1, O1, M+1, M+2", `bad ship record: "M+2": the record lists the maneuver bonus twice`},
		{Edition2021, "E1, O1, M-1", `bad ship record: "M-1": the maneuver bonus cannot be negative`},
		{Edition2021, "E1, O1, M+-1", `bad ship record: "M+-1": the maneuver bonus cannot be negative`},
		{Edition2021, "E1, O1, M1", `bad ship record: "M1": write the maneuver bonus as M+1`},
		{Edition2021, "E1, O1, M+", `bad ship record: "M+": missing the maneuver bonus after "M+", as in M+1`},
		{Edition2021, "E1, O1, M", `bad ship record: "M": missing the maneuver bonus, as in M+1`},
		{Edition2021, "E1, O1, M+100", `bad ship record: "M+100": the maneuver bonus is 0 to 99`},
		{Edition2021, "E1, O1, M+x", `bad ship record: "M+x": the maneuver bonus must be a whole number, as in M+1`},
		{Edition2021, "E1, O1, d6/-1", `bad ship record: "d6/-1": shields cannot be negative`},
		{Edition2021, "E1, O1, d6/", `bad ship record: "d6/": missing the shield factors after "/", as in d6/1 or /1`},
		{Edition2021, "E1, O1, d6/x", `bad ship record: "d6/x": shields must be a whole number of factors, as in d6/1 or /1`},
		{Edition2021, "E1, O1, d6/1/2", `bad ship record: "d6/1/2": unexpected second "/"; write weapons and shields as d6/1`},
		{Edition2021, "E1, O1, /100", `bad ship record: "/100": shields are 0 to 99 factors`},
		{Edition2021, "Engineering-1, O1", `bad ship record: "Engineering-1": a section's points cannot be negative`},
		{Edition2021, "Cargo+1, E1, O1", `bad ship record: "Cargo+1": write a section's points without a sign, as in Cargo1`},
		{Edition2021, "12, E1, O1", `bad ship record: "12": a section needs a name before its points, as in Science2`},
		{Edition2021, "Engineering, O1", `bad ship record: "Engineering": missing the section's build points, as in Engineering1`},
		{Edition2021, "E1, O1, X2", `bad ship record: "X2": unknown section "X": the one-letter sections are C, E, O and L; name others in full, as in Science2`},
		{Edition2021, "E1, O1, Sci@nce2", `bad ship record: "Sci@nce2": a section's name is letters, spaces and hyphens only, not "@"`},
		{Edition2021, "E1, O1, -Bay2", `bad ship record: "-Bay2": a section's name starts with a letter, not "-"`},
		{Edition2021, "E1 O1", `bad ship record: "E1 O1": unexpected "O1" after the points; separate entries with commas`},
		{Edition2021, "E1, O1, Cargo1x", `bad ship record: "Cargo1x": unexpected "x" after the points; separate entries with commas`},
		{Edition2021, "E1, O1, Cargo1000", `bad ship record: "Cargo1000": a section has 1 to 999 points`},
		{Edition2021, "E1, O1, Cargo99999999999", `bad ship record: "Cargo99999999999": a section has 1 to 999 points`},
		{Edition2021, "E1,, O1", `bad ship record: entry 2 of 3 is empty; separate entries with single commas`},
		{Edition2021, "E1, O1,", `bad ship record: entry 3 of 3 is empty; separate entries with single commas`},
		{Edition2021, "E1, O1, Abcdefghijklmnopqrstuvwxyzabcdefghijklmnop1", `bad ship record: "Abcdefghijklmnopqrstuvwxyzabcdefghijklmn…": a section's name is at most 40 letters`},
		// An entry of 40 letters is quoted whole, one of 41 cut.
		{Edition2021, "E1, O1, Abcdefghijklmnopqrstuvwxyzabcdefghijklm!", `bad ship record: "Abcdefghijklmnopqrstuvwxyzabcdefghijklm!": a section's name is letters, spaces and hyphens only, not "!"`},
		{Edition2021, "E1, O1, Abcdefghijklmnopqrstuvwxyzabcdefghijklmn!", `bad ship record: "Abcdefghijklmnopqrstuvwxyzabcdefghijklmn…": a section's name is letters, spaces and hyphens only, not "!"`},
		// A number past any int is past 99 too.
		{Edition2021, "E1, O1, M+99999999999999999999", `bad ship record: "M+99999999999999999999": the maneuver bonus is 0 to 99`},
		// A section's points with more after them: the lowest and the highest digit.
		{Edition2021, "E1, O1, 1Cargo1", `bad ship record: "1Cargo1": a section needs a name before its points, as in Science2`},
		{Edition2021, "Cargo0 E1, O1", `bad ship record: "Cargo0 E1": unexpected "E1" after the points; separate entries with commas`},
		{Edition2021, "Cargo9 E1, O1", `bad ship record: "Cargo9 E1": unexpected "E1" after the points; separate entries with commas`},
		// Two letters are enough to point at the section meant.
		{Edition2021, "En1, O1", `bad ship record "En1, O1": a craft requires engineering and operations sections; Engineering is missing (is En1 meant to be Engineering? write Engineering1 or E1)`},
		{Edition2021, "E1, O1\x00", `bad ship record: contains the control character U+0000`},
		{Edition2021, "E1, O1, \xff", `bad ship record: not valid UTF-8 text`},
		{"1999", "E1, O1", `unknown edition "1999": choose 2010, 2020 or 2021`},
	}
	for _, row := range rows {
		t.Run(row.in, func(t *testing.T) {
			_, err := ParseShipRecord(row.ed, row.in)
			wantError(t, err, CodeInvalid, row.want)
		})
	}
	// Too many sections.
	many := []string{"E1", "O1"}
	for i := 0; i < MaxShipSections-1; i++ {
		many = append(many, "Bay"+strings.Repeat("x", i+1)+"1")
	}
	_, err := ParseShipRecord(Edition2021, strings.Join(many, ", "))
	wantError(t, err, CodeInvalid, fmt.Sprintf(`bad ship record: "%s": a craft has at most 32 sections`, many[len(many)-1]))
	// 36 entries, as many as 32 sections and the four other kinds: each
	// entry is read, and the 33rd section is the error. One more entry is
	// too many before any is read.
	many = append(many, "d6/1", "M+0", "S+1")
	_, err = ParseShipRecord(Edition2010, strings.Join(many, ", "))
	wantError(t, err, CodeInvalid, fmt.Sprintf(`bad ship record: "%s": a craft has at most 32 sections`, many[len(many)-4]))
	many = append(many, "M+1")
	_, err = ParseShipRecord(Edition2010, strings.Join(many, ", "))
	wantError(t, err, CodeInvalid, "bad ship record: 37 entries is too many (at most 32 sections plus weapons, shields, maneuver and systems)")
	// A name of 40 letters is long enough.
	long := mustShip(t, Edition2021, "E1, O1, Abcdefghijklmnopqrstuvwxyzabcdefghijklmn1")
	if got := long.Sections[2].Name; got != "Abcdefghijklmnopqrstuvwxyzabcdefghijklmn" {
		t.Errorf("the 40-letter section is named %q", got)
	}
}

func TestShipRecordStringShortToLong(t *testing.T) {
	r := mustShip(t, Edition2010, "C2, E1, O1, L1, Science2, 2d6/2, M+0, S+1")
	if got, want := r.String(), "Cargo2, Engineering1, Operations1, Living1, Science2, 2d6/2, S+1"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if got, want := r.Short(), "C2, E1, O1, L1, Science2, 2d6/2, S+1"; got != want {
		t.Errorf("Short = %q, want %q", got, want)
	}
	if c := ShipCost(r); c.Total != 7+12+4+2 || c.Systems != 2 || c.Formula != "sections 7 + weapons 12 (2d6) + shields 4 (/2) + systems 2 (S+1) = 25" {
		t.Errorf("ShipCost = %+v", c)
	}
	if r.CargoUnits() != 2 {
		t.Errorf("CargoUnits = %d, want 2", r.CargoUnits())
	}
	noLiving := mustShip(t, Edition2021, "E1, O1")
	if noLiving.HasLiving() || noLiving.CargoUnits() != 0 {
		t.Errorf("E1, O1: HasLiving %v, CargoUnits %d", noLiving.HasLiving(), noLiving.CargoUnits())
	}
	if c := ShipCost(noLiving); c.Formula != "sections 2 = 2" {
		t.Errorf("Formula = %q", c.Formula)
	}
}

func TestShipRecordValidate(t *testing.T) {
	bad := kitKat
	bad.Sections = []Section{{Name: "cargo", Kind: SectionCargo, Points: 1}, kitKat.Sections[1], kitKat.Sections[2]}
	wantError(t, bad.Validate(Edition2021), CodeInvalid, `bad ship record: section 1 is "cargo" of kind "cargo"; write it as "Cargo" of kind "cargo"`)
	bad.Sections = []Section{{Name: "Cargo", Kind: SectionOther, Points: 1}, kitKat.Sections[1], kitKat.Sections[2]}
	wantError(t, bad.Validate(Edition2021), CodeInvalid, `bad ship record: section 1 is "Cargo" of kind "other"; write it as "Cargo" of kind "cargo"`)
	bad.Sections = []Section{{Name: "Bay", Kind: SectionOther, Points: 0}, kitKat.Sections[1], kitKat.Sections[2]}
	wantError(t, bad.Validate(Edition2021), CodeInvalid, `bad ship record: section "Bay" has 0 points; a section has at least 1 point`)
	bad.Sections = []Section{{Name: "d", Kind: SectionOther, Points: 6}, kitKat.Sections[1], kitKat.Sections[2]}
	bad.WeaponDice = 0
	wantError(t, bad.Validate(Edition2021), CodeInvalid, `bad ship record: "d6, Engineering1, Operations1, /1, M+1" reads back as 2 sections, not 3`)
	withSystems := kitKat
	withSystems.Systems = 1
	wantError(t, withSystems.Validate(Edition2021), CodeInvalid, `bad ship record: "S+1": systems exist only in edition 2010`)
	if err := withSystems.Validate(Edition2010); err != nil {
		t.Errorf("Validate 2010: %v", err)
	}
	if err := kitKat.Validate(Edition2021); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestSectionIndex(t *testing.T) {
	r := mustShip(t, Edition2021, "C1, E2, O1, Science Bay1")
	for name, want := range map[string]int{"Cargo": 0, "c": 0, "E": 1, "engineering": 1, "ops": 2, "O": 2, "science  bay": 3} {
		got, err := r.SectionIndex(name)
		if err != nil || got != want {
			t.Errorf("SectionIndex(%q) = %d, %v; want %d", name, got, err, want)
		}
	}
	// A section not found is at no index: -1, never one a caller could use.
	i, err := r.SectionIndex("Living")
	wantError(t, err, CodeNotFound, `the craft has no section "Living": its sections are Cargo, Engineering, Operations, Science Bay`)
	j, err := r.SectionIndex("Sciense Bay")
	wantError(t, err, CodeNotFound, `the craft has no section "Sciense Bay"; did you mean "Science Bay"?`)
	if i != -1 || j != -1 {
		t.Errorf("SectionIndex of a missing section = %d and %d, want -1", i, j)
	}
}

func TestApplyShipHit(t *testing.T) {
	r := kitKat
	t.Run("the attacker inflicts fewer", func(t *testing.T) {
		// "The attacker may inflict fewer damage points than he rolled,
		// preserving craft sections."
		out, st, err := ApplyShipHit(r, nil, 5, 1)
		if err != nil {
			t.Fatal(err)
		}
		if out.Inflicted != 1 || !st[0].Destroyed() || st[1].Damage != 0 || out.DIW {
			t.Fatalf("got %+v %+v", out, st)
		}
		if want := "Hit for 5, shields stop 1: 1 damage point (the attacker holds back 3); Cargo takes 1 and is destroyed with all aboard."; out.Explanation != want {
			t.Errorf("Explanation = %q, want %q", out.Explanation, want)
		}
		// The next point skips the destroyed cargo section.
		out, st, err = ApplyShipHit(r, st, 2, -1)
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Applied) != 1 || out.Applied[0].Name != "Engineering" || !out.DIWNow {
			t.Fatalf("second hit: %+v", out)
		}
		// A craft already DIW: DIW stays, DIWNow does not repeat.
		out, _, err = ApplyShipHit(r, st, 2, -1)
		if err != nil {
			t.Fatal(err)
		}
		if !out.DIW || out.DIWNow || out.Applied[0].Name != "Operations" {
			t.Fatalf("third hit: %+v", out)
		}
		if want := "Hit for 2, shields stop 1: 1 damage point; Operations takes 1 and is destroyed with all aboard. " +
			"Engineering and Operations are destroyed: the craft is dead in the water, has lost propulsion and cannot communicate with the outside world, and can no longer move or fire."; out.Explanation != want {
			t.Errorf("Explanation = %q\nwant          %q", out.Explanation, want)
		}
	})
	t.Run("the attacker inflicts none, or all he may", func(t *testing.T) {
		// Kit-Kat has shields 1: a hit for 5 may inflict 0 to 4.
		out, st, err := ApplyShipHit(r, nil, 5, 0)
		if err != nil {
			t.Fatal(err)
		}
		if out.Inflicted != 0 || len(out.Applied) != 0 || !reflect.DeepEqual(st, NewShipState(r)) {
			t.Fatalf("inflict 0: %+v %+v", out, st)
		}
		out, _, err = ApplyShipHit(r, nil, 5, 4)
		if err != nil {
			t.Fatal(err)
		}
		if out.Inflicted != 4 || len(out.Applied) != 4 || !out.Destroyed {
			t.Fatalf("inflict 4 of 4: %+v", out)
		}
	})
	t.Run("a damaged section takes what it has left", func(t *testing.T) {
		// 2021 Example 11: the two-point engineering section takes one
		// point and stays; a hit of 3 then destroys it with its last point
		// and goes on down the record.
		two := mustShip(t, Edition2021, "E2, O1, L1")
		_, st, err := ApplyShipHit(two, nil, 1, -1)
		if err != nil {
			t.Fatal(err)
		}
		out, st, err := ApplyShipHit(two, st, 3, -1)
		if err != nil {
			t.Fatal(err)
		}
		want := []SectionDamage{{Index: 0, Name: "Engineering", Points: 1, DestroyedNow: true},
			{Index: 1, Name: "Operations", Points: 1, DestroyedNow: true}, {Index: 2, Name: "Living", Points: 1, DestroyedNow: true}}
		if !reflect.DeepEqual(out.Applied, want) || out.Wasted != 0 || st[0].Damage != 2 || st[1].Damage != 1 || st[2].Damage != 1 {
			t.Fatalf("got %+v, state %+v", out, st)
		}
	})
	t.Run("wasted points", func(t *testing.T) {
		out, st, err := ApplyShipHit(r, nil, 9, -1)
		if err != nil {
			t.Fatal(err)
		}
		if out.Inflicted != 8 || out.Wasted != 4 || !out.Destroyed || len(out.Applied) != 4 {
			t.Fatalf("got %+v", out)
		}
		if !strings.Contains(out.Explanation, "; 4 points are wasted: no section is left.") {
			t.Errorf("Explanation = %q", out.Explanation)
		}
		for _, s := range st {
			if s.Damage != s.Points {
				t.Errorf("%s damage %d, want %d", s.Name, s.Damage, s.Points)
			}
		}
	})
	t.Run("input state unchanged", func(t *testing.T) {
		st := NewShipState(r)
		before := append([]SectionState(nil), st...)
		if _, _, err := ApplyShipHit(r, st, 4, -1); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(st, before) {
			t.Errorf("state changed to %+v", st)
		}
	})
	t.Run("zero rolled", func(t *testing.T) {
		out, _, err := ApplyShipHit(r, nil, 0, -1)
		if err != nil || out.Stopped != 0 || out.Inflicted != 0 {
			t.Fatalf("got %+v, %v", out, err)
		}
	})
	errs := []struct {
		name            string
		state           []SectionState
		rolled, inflict int
		code            Code
		msg             string
	}{
		{"too many", nil, 3, 3, CodeInvalid, "the attacker can inflict at most 2: 3 rolled, shields stop 1"},
		{"all stopped", nil, 1, 1, CodeInvalid, "the attacker can inflict at most 0: 1 rolled, shields stop 1"},
		{"negative roll", nil, -1, -1, CodeInvalid, "a hit of -1 damage points is negative"},
		{"short state", NewShipState(r)[:2], 3, -1, CodeInvalid, "the damage state has 2 sections, the ship record 4"},
		{"other ship", NewShipState(mustShip(t, Edition2021, "E1, O1, C1, L1")), 3, -1, CodeInvalid,
			"the damage state does not match the ship record: section 1 is Engineering1, the record lists Cargo1"},
		{"overdamaged", []SectionState{{r.Sections[0], 2}, {r.Sections[1], 0}, {r.Sections[2], 0}, {r.Sections[3], 0}}, 3, -1, CodeInvalid,
			"section Cargo has 2 damage; it has 1 points"},
	}
	for _, e := range errs {
		t.Run(e.name, func(t *testing.T) {
			_, _, err := ApplyShipHit(r, e.state, e.rolled, e.inflict)
			wantError(t, err, e.code, e.msg)
		})
	}
	_, _, err := ApplyShipHit(ShipRecord{}, nil, 1, -1)
	wantError(t, err, CodeInvalid, "the ship record lists no sections")
}

func TestRepairSection(t *testing.T) {
	r := mustShip(t, Edition2021, "C1, E3, O1")
	_, st, err := ApplyShipHit(r, nil, 4, -1)
	if err != nil {
		t.Fatal(err)
	}
	if diw, _ := Dead(st); !diw {
		t.Fatal("want DIW after 4 points")
	}
	// Partial repair of a destroyed section rebuilds it: no longer DIW.
	st2, n, err := RepairSection(st, 1, 1)
	if err != nil || n != 1 || st2[1].Damage != 2 || st2[1].Destroyed() {
		t.Fatalf("RepairSection(1, 1) = %+v, %d, %v", st2, n, err)
	}
	if diw, reason := Dead(st2); diw {
		t.Errorf("still DIW: %s", reason)
	}
	if st[1].Damage != 3 {
		t.Errorf("input state changed: %+v", st[1])
	}
	// More than the damage repairs what there is; -1 repairs all.
	st3, n, err := RepairSection(st2, 1, 10)
	if err != nil || n != 2 || st3[1].Damage != 0 {
		t.Fatalf("RepairSection(1, 10) = %+v, %d, %v", st3, n, err)
	}
	st4, n, err := RepairSection(st, 0, -1)
	if err != nil || n != 1 || st4[0].Damage != 0 {
		t.Fatalf("RepairSection(0, -1) = %+v, %d, %v", st4, n, err)
	}
	_, _, err = RepairSection(st3, 1, 1)
	wantError(t, err, CodeRule, "Engineering has no damage to repair")
	_, _, err = RepairSection(st, 3, 1)
	wantError(t, err, CodeInvalid, "no section 3: the craft has 3 sections (0 to 2)")
	_, _, err = RepairSection(st, -1, 1)
	wantError(t, err, CodeInvalid, "no section -1: the craft has 3 sections (0 to 2)")
	_, _, err = RepairSection(st, 1, 0)
	wantError(t, err, CodeInvalid, "repair at least 1 point of Engineering")
}

func TestDead(t *testing.T) {
	r := mustShip(t, Edition2021, "O1, L1, E1")
	st := NewShipState(r)
	if diw, reason := Dead(st); diw || reason != "" {
		t.Errorf("undamaged: %v %q", diw, reason)
	}
	st[0].Damage = 1
	diw, reason := Dead(st)
	if want := "Operations is destroyed: the craft is dead in the water, cannot communicate with the outside world, and can no longer move or fire"; !diw || reason != want {
		t.Errorf("Dead = %v, %q; want %q", diw, reason, want)
	}
	st[0].Damage, st[1].Damage = 0, 1
	if diw, _ := Dead(st); diw {
		t.Error("a destroyed living section does not make a craft DIW")
	}
}

// FuzzParseShipRecord checks that ParseShipRecord never panics, that every
// error is a CodeInvalid *Error, that what parses is a legal record, and
// that String round-trips: ParseShipRecord(ed, r.String()) equals r, and
// so does the short form.
func FuzzParseShipRecord(f *testing.F) {
	for _, s := range []string{
		"Cargo1, Engineering1, Operations1, Living1, d6/1, M+1",
		"C1, E1, O1, L1, d6/1, M+0", "c1,e1,o1,l1,D6/1,m+1", "E1, O1, 2d6, /2", "E2, O2, L1, 2d6/2",
		"Science2, E1, machine  shop 3, O1", "Ops1, E1, S+1", "E1, O1, 2d6+1", "E1, O1, d3",
		"Engineering0, O1", "", ",", "E1,,O1", "E1 O1", "M+", "/", "d6//1", "E1, O1, Med-bay2",
		"E1, O1, \xff", "E1, O1, Zoë's Bay2", "E1, O1, ſcience1, science2", "E1, O1, 31d6", "E1, O1, M+99999999999",
	} {
		f.Add(s, 2021)
		f.Add(s, 2010)
	}
	f.Fuzz(func(t *testing.T, s string, year int) {
		ed := Edition(fmt.Sprint(year))
		r, err := ParseShipRecord(ed, s)
		if err != nil {
			if CodeOf(err) != CodeInvalid {
				t.Fatalf("ParseShipRecord(%q) error %v has code %q", s, err, CodeOf(err))
			}
			return
		}
		if len(r.Sections) == 0 || len(r.Sections) > MaxShipSections || r.WeaponDice < 0 || r.WeaponDice > MaxDice ||
			r.Shields < 0 || r.Maneuver < 0 || r.Systems < 0 || (r.Systems > 0 && ed != Edition2010) {
			t.Fatalf("ParseShipRecord(%q) = %+v out of range", s, r)
		}
		for _, sec := range r.Sections {
			if sec.Points < 1 || sec.Points > MaxSectionPoints || sec.Name == "" {
				t.Fatalf("ParseShipRecord(%q) gave section %+v", s, sec)
			}
		}
		text := r.String()
		again, err := ParseShipRecord(ed, text)
		if err != nil {
			t.Fatalf("ParseShipRecord(%q) = %q, which does not parse: %v", s, text, err)
		}
		if !reflect.DeepEqual(again, r) {
			t.Fatalf("round trip of %q: %q gives %q", s, text, again.String())
		}
		if again.String() != text {
			t.Fatalf("String is not stable: %q then %q", text, again.String())
		}
		short, err := ParseShipRecord(ed, r.Short())
		if err != nil || !reflect.DeepEqual(short, r) {
			t.Fatalf("short form %q of %q: %+v, %v", r.Short(), s, short, err)
		}
		if err := r.Validate(ed); err != nil {
			t.Fatalf("Validate(%q): %v", text, err)
		}
		if c := ShipCost(r); c.Total < len(r.Sections) {
			t.Fatalf("ShipCost(%q) = %+v", text, c)
		}
	})
}
