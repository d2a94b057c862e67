package rules

import (
	"fmt"
	"math"
)

// maxExactDice is the most d6 whose 6^n outcomes fit in an int64.
const maxExactDice = 24

// SumDistribution returns the number of ways dice dice of the given sides
// can roll each total: the index is the total, so the slice has
// dice*sides+1 entries and entries below dice are 0. It returns nil for
// negative or impossible arguments and when the counts would overflow an
// int64 (more than 24d6).
func SumDistribution(dice, sides int) []int64 {
	if dice < 0 || sides < 1 {
		return nil
	}
	if float64(dice)*math.Log2(float64(sides)) >= 63 {
		return nil
	}
	ways := []int64{1}
	for range dice {
		next := make([]int64, len(ways)+sides)
		for total, w := range ways {
			if w == 0 {
				continue
			}
			for f := 1; f <= sides; f++ {
				next[total+f] += w
			}
		}
		ways = next
	}
	return ways
}

// PassProbability returns the exact chance that dice d6 plus totalModifier
// (curses worsen a check by raising its total) come to target or less. With
// at most 24 dice the result is a ratio of exact integer counts, so
// PassProbability(3, 10, 0) is exactly 0.5.
func PassProbability(dice, target, totalModifier int) float64 {
	if dice < 0 {
		return 0
	}
	need := target - totalModifier // the highest dice sum that passes
	switch {
	case need < dice:
		return 0
	case need >= 6*dice:
		return 1
	}
	if dice <= maxExactDice {
		ways := SumDistribution(dice, 6)
		var pass, all int64
		for total, w := range ways {
			all += w
			if total <= need {
				pass += w
			}
		}
		return float64(pass) / float64(all)
	}
	// Beyond 24d6 the counts overflow; fold probabilities instead.
	p := []float64{1}
	for range dice {
		next := make([]float64, len(p)+6)
		for total, q := range p {
			for f := 1; f <= 6; f++ {
				next[total+f] += q / 6
			}
		}
		p = next
	}
	var pass float64
	for total := dice; total <= need; total++ {
		pass += p[total]
	}
	return min(pass, 1)
}

// FormatProbability renders a probability as a percentage with one
// decimal, such as "62.5%".
func FormatProbability(p float64) string {
	return fmt.Sprintf("%.1f%%", p*100)
}
