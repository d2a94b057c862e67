package rules

import (
	"fmt"
	"slices"
	"testing"
)

// The worked examples of RULES.md, each run for every edition it names
// (no edition named means every edition).

// Example 1: Ajax ST12 DX11 IQ9 and Hector ST11 DX12 IQ9 are legal new
// characters (32 points). Ajax's skills are the 2021 example's "Unarmed
// Combat +2, and Medic +2"; Hector has none.
func TestExample1NewCharacters(t *testing.T) {
	for _, ed := range Editions() {
		unarmed, err := LookupSkill(ed, "Unarmed Combat")
		if err != nil {
			t.Fatal(err)
		}
		medic, err := LookupSkill(ed, "Medic")
		if err != nil {
			t.Fatal(err)
		}
		rows := []struct {
			name   string
			a      Attributes
			skills []SkillLevel
		}{
			{"Ajax", Attributes{ST: 12, DX: 11, IQ: 9}, []SkillLevel{{unarmed, 2}, {medic, 2}}},
			{"Hector", Attributes{ST: 11, DX: 12, IQ: 9}, nil},
		}
		for _, r := range rows {
			t.Run(fmt.Sprintf("example1/%s/%s", ed, r.name), func(t *testing.T) {
				if err := ValidateNewCharacter(ed, r.name, r.a, r.skills); err != nil {
					t.Fatalf("ValidateNewCharacter: %v", err)
				}
				if left := CreationPointsLeft(r.a); left != 0 {
					t.Errorf("CreationPointsLeft = %d, want 0", left)
				}
			})
		}
	}
}

// Example 2: Ajax (DX11) rolls 1,3,6 = 10 on 3/DX: hit. Ajax rolls 2,3,4 = 9:
// hit.
func TestExample2Hits(t *testing.T) {
	rows := []struct {
		faces []int
		sum   int
	}{{[]int{1, 3, 6}, 10}, {[]int{2, 3, 4}, 9}}
	for _, ed := range Editions() {
		for _, r := range rows {
			t.Run(fmt.Sprintf("example2/%s/%v", ed, r.faces), func(t *testing.T) {
				e, err := ParseExpr("3/DX")
				if err != nil {
					t.Fatal(err)
				}
				out, err := ResolveCheck(CheckInput{Edition: ed, Expr: *e.Check, AttributeValue: 11}, NewGivenFaces(r.faces))
				if err != nil {
					t.Fatal(err)
				}
				if !out.Pass || out.Sum != r.sum || out.Total != r.sum || out.Target != 11 {
					t.Errorf("got pass=%v sum=%d total=%d target=%d, want a hit with %d against 11", out.Pass, out.Sum, out.Total, out.Target, r.sum)
				}
				if out.Margin != 11-r.sum {
					t.Errorf("Margin = %d, want %d", out.Margin, 11-r.sum)
				}
			})
		}
	}
}

// Example 3: contest ST. Ajax (ST12) rolls 13, Hector (ST11) rolls 9:
// Hector wins [2010, 2020]. Ajax (ST11) rolls 11, foe (ST12) rolls 13: Ajax
// wins [2021].
func TestExample3Contests(t *testing.T) {
	rows := []struct {
		name     string
		editions []Edition
		a, b     ContestSide
		fa, fb   []int
		winner   int
		explain  string
	}{
		{
			name:     "Ajax ST12 rolls 13, Hector ST11 rolls 9",
			editions: []Edition{Edition2010, Edition2020},
			a:        ContestSide{Name: "Ajax", Attribute: ST, AttributeValue: 12},
			b:        ContestSide{Name: "Hector", Attribute: ST, AttributeValue: 11},
			fa:       []int{6, 4, 3}, fb: []int{2, 3, 4},
			winner:  1,
			explain: "Ajax's 13 exceeds ST 12; Hector wins with 9 on ST 11.",
		},
		{
			name:     "Ajax ST11 rolls 11, foe ST12 rolls 13",
			editions: []Edition{Edition2021},
			a:        ContestSide{Name: "Ajax", Attribute: ST, AttributeValue: 11},
			b:        ContestSide{Name: "the foe", Attribute: ST, AttributeValue: 12},
			fa:       []int{5, 3, 3}, fb: []int{6, 6, 1},
			winner:  0,
			explain: "The foe's 13 exceeds ST 12; Ajax wins with 11 on ST 11.",
		},
	}
	for _, r := range rows {
		for _, ed := range r.editions {
			t.Run(fmt.Sprintf("example3/%s/%s", ed, r.name), func(t *testing.T) {
				out, err := ResolveContest(ed, r.a, r.b, NewGivenFaces(r.fa), NewGivenFaces(r.fb))
				if err != nil {
					t.Fatal(err)
				}
				if out.Winner != r.winner || out.Outcome != ContestWin {
					t.Errorf("Winner = %d (%s), want %d (win)", out.Winner, out.Outcome, r.winner)
				}
				if out.Explanation != r.explain {
					t.Errorf("Explanation = %q, want %q", out.Explanation, r.explain)
				}
			})
		}
	}
}

// Example 4 (damage part): 2d6-1 with faces 5,2 deals 6.
func TestExample4Damage(t *testing.T) {
	for _, ed := range Editions() {
		t.Run(fmt.Sprintf("example4/%s", ed), func(t *testing.T) {
			d, err := ParseDice("2d6-1")
			if err != nil {
				t.Fatal(err)
			}
			out, err := ResolveDamage(ed, d, 0, NewGivenFaces([]int{5, 2}))
			if err != nil {
				t.Fatal(err)
			}
			if out.Sum != 7 || out.Raw != 6 || out.Total != 6 || out.MinimumApplied {
				t.Errorf("got sum=%d raw=%d total=%d min=%v, want 7, 6, 6, false", out.Sum, out.Raw, out.Total, out.MinimumApplied)
			}
		})
	}
	// 2010 writes the same example in capitals: "2D6-1".
	t.Run("example4/2010/2D6-1", func(t *testing.T) {
		d, err := ParseDice("2D6-1")
		if err != nil {
			t.Fatal(err)
		}
		out, err := ResolveDamage(Edition2010, d, 0, NewGivenFaces([]int{5, 2}))
		if err != nil || out.Total != 6 {
			t.Fatalf("got %d, %v; want 6", out.Total, err)
		}
	})
}

// Example 5: Hector DX12 with restriction 2: adjusted DX10, MA5.
func TestExample5Restriction(t *testing.T) {
	for _, ed := range Editions() {
		t.Run(fmt.Sprintf("example5/%s", ed), func(t *testing.T) {
			adj := AdjustedDX(12, 2)
			if adj != 10 {
				t.Errorf("AdjustedDX(12, 2) = %d, want 10", adj)
			}
			if ma := MovementAllowance(adj); ma != 5 {
				t.Errorf("MovementAllowance(10) = %d, want 5", ma)
			}
			target, mods := CheckTarget(CheckInput{Edition: ed, Expr: CheckExpr{Dice: 3, Attribute: DX, Mode: CheckPlain}, AttributeValue: 12, Restriction: 2})
			if target != 10 || len(mods) != 1 || mods[0].Value != -2 || mods[0].Applies != AppliesTarget {
				t.Errorf("CheckTarget = %d %+v, want 10 with a -2 restriction", target, mods)
			}
		})
	}
}

// Example 6: IQ10→IQ11 costs 16 XP [2020, 2021]; IQ13→IQ14 costs 14 XP
// [2010]; ST12→ST13 costs 18 XP [2021]; Ajax with 20 XP raising ST to 13
// keeps 2 XP [2021].
func TestExample6AttributePrices(t *testing.T) {
	rows := []struct {
		name     string
		editions []Edition
		current  int
		xp       int
		formula  map[Edition]string
	}{
		{"IQ10 to IQ11", []Edition{Edition2020, Edition2021}, 10, 16, map[Edition]string{
			Edition2020: "next level + 5 = 11 + 5", Edition2021: "current level + 6 = 10 + 6"}},
		{"IQ13 to IQ14", []Edition{Edition2010}, 13, 14, map[Edition]string{Edition2010: "next level = 14"}},
		{"ST12 to ST13", []Edition{Edition2021}, 12, 18, map[Edition]string{Edition2021: "current level + 6 = 12 + 6"}},
	}
	for _, r := range rows {
		for _, ed := range r.editions {
			t.Run(fmt.Sprintf("example6/%s/%s", ed, r.name), func(t *testing.T) {
				p := AttributePrice(ed, r.current)
				want := Price{XP: r.xp, Formula: r.formula[ed], Edition: ed}
				if p != want {
					t.Errorf("AttributePrice(%s, %d) = %+v, want %+v", ed, r.current, p, want)
				}
			})
		}
	}
	t.Run("example6/2021/Ajax keeps 2 XP", func(t *testing.T) {
		left, err := Afford("Ajax", "raise ST to 13", 20, AttributePrice(Edition2021, 12))
		if err != nil || left != 2 {
			t.Errorf("Afford = %d, %v; want 2, nil", left, err)
		}
	})
}

// Example 7: a skill point costs 10 XP (Ajax spends 10 XP on Knife) [all].
func TestExample7SkillPrice(t *testing.T) {
	for _, ed := range Editions() {
		t.Run(fmt.Sprintf("example7/%s", ed), func(t *testing.T) {
			knife, err := LookupSkill(ed, "Knife")
			if err != nil {
				t.Fatal(err)
			}
			p := SkillPrice(ed, 0)
			if p.XP != 10 || p.Formula != "10 XP a skill point" || p.Edition != ed {
				t.Errorf("SkillPrice = %+v", p)
			}
			if err := CheckSkillPurchase(ed, "Ajax", knife, 0, true); err != nil {
				t.Errorf("learning Knife between adventures: %v", err)
			}
			left, err := Afford("Ajax", "learn Knife", 10, p)
			if err != nil || left != 0 {
				t.Errorf("Afford = %d, %v; want 0, nil", left, err)
			}
		})
	}
}

func TestEditionsListed(t *testing.T) {
	if got := Editions(); !slices.Equal(got, []Edition{"2010", "2020", "2021"}) {
		t.Errorf("Editions() = %v", got)
	}
	if DefaultEdition != Edition2021 {
		t.Errorf("DefaultEdition = %s", DefaultEdition)
	}
}
