package stats

import (
	"cmp"
	"slices"
)

// Holm returns the Holm–Bonferroni adjusted p-values of p, in the input
// order: sorted ascending, the i-th smallest (from 0) is multiplied by
// len(p)-i, a running maximum keeps them monotone (step-down), and they
// are capped at 1. Rejecting where the adjusted value is below alpha
// controls the chance of any false alarm across all of p at alpha. Ties
// keep their input order. A nil or empty p gives an empty result.
func Holm(p []float64) []float64 {
	m := len(p)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(p[a], p[b]) })
	adj := make([]float64, m)
	running := 0.0
	for rank, i := range order {
		v := min(float64(m-rank)*p[i], 1)
		running = max(running, v)
		adj[i] = running
	}
	return adj
}
