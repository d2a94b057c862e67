package rules

import "testing"

// The books' examples of a tackle, decided from the DX contest.
func TestTackleOutcomeBookExamples(t *testing.T) {
	given := func(f ...int) Roller { return NewGivenFaces(f) }
	rows := []struct {
		name     string
		ed       Edition
		tackler  ContestSide
		foe      ContestSide
		tf, ff   []int
		tST, fST int
		want     string
	}{
		// 2021 "Ajax (DX11), tackles his foe (DX12). Ajax rolls 11; his
		// foe, 8. Ajax wins. They are grappling". 2020 Example 1 alike.
		{"2021 Ajax wins", Edition2021, ContestSide{Name: "Ajax", Attribute: DX, AttributeValue: 11}, ContestSide{Name: "foe", Attribute: DX, AttributeValue: 12}, []int{5, 3, 3}, []int{2, 3, 3}, 12, 11, TackleGrappling},
		{"2020 example 1", Edition2020, ContestSide{Name: "Ajax", Attribute: DX, AttributeValue: 11}, ContestSide{Name: "Hector", Attribute: DX, AttributeValue: 12}, []int{5, 3, 3}, []int{2, 3, 3}, 12, 11, TackleGrappling},
		// 2020 Example 2: "Ajax (ST12, DX11) enters Hector's (ST11, DX12)
		// space. Ajax rolls 3, Hector 12. Ajax fails, but he is stronger.
		// Hector retreats".
		{"2020 example 2", Edition2020, ContestSide{Name: "Ajax", Attribute: DX, AttributeValue: 11}, ContestSide{Name: "Hector", Attribute: DX, AttributeValue: 12}, []int{1, 1, 1}, []int{4, 4, 4}, 12, 11, TackleFoeRetreats},
		// 2020 Example 3: "Hector (ST11, DX12) enters Ajax's (ST12, DX11)
		// space. Hector rolls 13, Ajax 9. Hector fails. Hector is weaker.
		// He retreats back to his starting space."
		{"2020 example 3", Edition2020, ContestSide{Name: "Hector", Attribute: DX, AttributeValue: 12}, ContestSide{Name: "Ajax", Attribute: DX, AttributeValue: 11}, []int{5, 4, 4}, []int{3, 3, 3}, 11, 12, TackleBack},
		// 2021: "fails and is equal or weaker": equal ST goes back.
		{"2021 fail equal", Edition2021, ContestSide{Name: "Ajax", Attribute: DX, AttributeValue: 11}, ContestSide{Name: "foe", Attribute: DX, AttributeValue: 12}, []int{1, 1, 1}, []int{4, 4, 4}, 12, 12, TackleBack},
		{"2021 fail stronger", Edition2021, ContestSide{Name: "Ajax", Attribute: DX, AttributeValue: 11}, ContestSide{Name: "foe", Attribute: DX, AttributeValue: 12}, []int{6, 6, 6}, []int{4, 4, 4}, 13, 12, TackleFoeRetreats},
		// 2010 has no tackle
		// and takes the later rule. Both failing is no win.
		{"2010 both fail", Edition2010, ContestSide{Name: "Ajax", Attribute: DX, AttributeValue: 11}, ContestSide{Name: "foe", Attribute: DX, AttributeValue: 12}, []int{6, 6, 6}, []int{6, 6, 6}, 10, 12, TackleBack},
	}
	for _, r := range rows {
		o, err := ResolveContest(r.ed, r.tackler, r.foe, given(r.tf...), given(r.ff...))
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		if got := TackleOutcome(o.Winner == 0, r.tST, r.fST); got != r.want {
			t.Errorf("%s: got %q, want %q (%s)", r.name, got, r.want, o.Explanation)
		}
	}
}
