package rules

import (
	"math"
	"slices"
	"testing"
)

func TestSumDistribution(t *testing.T) {
	d := SumDistribution(3, 6)
	if len(d) != 19 || d[0] != 0 || d[3] != 1 || d[10] != 27 || d[11] != 27 || d[18] != 1 {
		t.Errorf("3d6 = %v", d)
	}
	for _, r := range []struct {
		dice, sides int
		all         int64
	}{{4, 6, 1296}, {3, 6, 216}, {2, 3, 9}, {0, 6, 1}, {24, 6, 4738381338321616896}} {
		var total int64
		for _, w := range SumDistribution(r.dice, r.sides) {
			total += w
		}
		if total != r.all {
			t.Errorf("%dd%d sums to %d, want %d", r.dice, r.sides, total, r.all)
		}
		if n := len(SumDistribution(r.dice, r.sides)); n != r.dice*r.sides+1 {
			t.Errorf("%dd%d has %d entries", r.dice, r.sides, n)
		}
	}
	// A one-sided die rolls its count, and only that.
	if d := SumDistribution(2, 1); !slices.Equal(d, []int64{0, 0, 1}) {
		t.Errorf("2d1 = %v, want [0 0 1]", d)
	}
	// 63d2 and 21d8 have 2^63 ways, one past int64.
	if SumDistribution(-1, 6) != nil || SumDistribution(2, 0) != nil || SumDistribution(25, 6) != nil ||
		SumDistribution(63, 2) != nil || SumDistribution(21, 8) != nil || SumDistribution(62, 2) == nil {
		t.Error("impossible or overflowing distributions are not nil")
	}
}

func TestPassProbability(t *testing.T) {
	for _, r := range []struct {
		name                 string
		dice, target, modify int
		want                 float64
	}{
		{"3/x at 10 is exactly a half", 3, 10, 0, 0.5},
		{"3/DX at 11 (Ajax)", 3, 11, 0, 0.625},
		{"3/DX at 11 with one curse", 3, 11, 1, 0.5},
		{"3/DX at 12 with two curses", 3, 12, 2, 0.5},
		{"4/DX at 11", 4, 11, 0, 310.0 / 1296},
		{"4/DX at 13", 4, 13, 0, 575.0 / 1296},
		{"target below the lowest roll", 3, 2, 0, 0},
		{"curse pushes the lowest roll over", 3, 3, 1, 0},
		{"target at the highest roll", 3, 18, 0, 1},
		{"target above the highest roll", 3, 40, 0, 1},
		{"negative target", 3, -5, 0, 0},
		{"no dice", 0, 0, 0, 1},
		{"negative dice", -1, 10, 0, 0},
		// Past 24d6 probabilities are folded as floats, whose sum for
		// 29d6 is 0.9999999999999997: a target at the highest roll is
		// still a sure pass.
		{"29/x at the highest roll", 29, 174, 0, 1},
		// Up to 24d6 the chance is a ratio of whole counts: the float fold
		// would give 2.110425330085844e-19 here, not 1/6^24.
		{"24/x at the lowest roll", 24, 24, 0, 1.0 / 4738381338321616896},
	} {
		if got := PassProbability(r.dice, r.target, r.modify); got != r.want {
			t.Errorf("%s: PassProbability(%d, %d, %d) = %v, want %v", r.name, r.dice, r.target, r.modify, got, r.want)
		}
	}
	// Beyond 24d6 the float fold keeps the symmetry about the mean 105:
	// P(sum ≤ 104) = P(sum ≥ 106) = 1 - P(sum ≤ 105).
	if lo, hi := PassProbability(30, 104, 0), PassProbability(30, 105, 0); math.Abs(lo+hi-1) > 1e-9 || lo >= 0.5 {
		t.Errorf("30d6: P(≤104) = %v, P(≤105) = %v, want them to add up to 1", lo, hi)
	}
	// Probabilities grow with the target.
	prev := 0.0
	for target := 0; target <= 25; target++ {
		p := PassProbability(4, target, 0)
		if p < prev || p < 0 || p > 1 {
			t.Fatalf("PassProbability(4, %d) = %v after %v", target, p, prev)
		}
		prev = p
	}
}

func TestFormatProbability(t *testing.T) {
	for _, r := range []struct {
		p    float64
		want string
	}{
		{PassProbability(3, 10, 0), "50.0%"},
		{PassProbability(3, 11, 0), "62.5%"}, // 3/DX for Ajax (DX11)
		{PassProbability(3, 10, 1), "37.5%"},
		{0, "0.0%"}, {1, "100.0%"}, {1.0 / 3, "33.3%"},
	} {
		if got := FormatProbability(r.p); got != r.want {
			t.Errorf("FormatProbability(%v) = %q, want %q", r.p, got, r.want)
		}
	}
}
