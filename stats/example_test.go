package stats_test

import (
	"fmt"

	"github.com/ltscamp/ltscamp/stats"
)

// The dice report's power statement: how often 600 faces of a die weighted
// 2, 3, 3, 3, 3, 4 out of 18 fail the fairness test, and how many faces
// it takes to catch it nine times in ten.
func ExamplePower() {
	for _, alpha := range []float64{0.05, 0.01} {
		fmt.Printf("alpha %.2f: %.1f%% at 600 faces, 90%% at %d faces\n", alpha,
			100*stats.Power(600, stats.LoadedDie(), alpha),
			stats.FacesForPower(stats.LoadedDie(), alpha, 0.9))
	}
	// Output:
	// alpha 0.05: 97.1% at 600 faces, 90% at 445 faces
	// alpha 0.01: 90.3% at 600 faces, 90% at 595 faces
}

func ExampleFitUniform() {
	fit, err := stats.FitUniform([]int64{5, 8, 9, 8, 10, 20})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("chi2 %.1f on %d degrees, p = %.4f\n", fit.Chi2, fit.DF, fit.PValue)
	// Output: chi2 13.4 on 5 degrees, p = 0.0199
}

func ExampleHolm() {
	// Three die sources; only the first stays suspicious once we allow
	// for having looked at three.
	fmt.Printf("%.3f\n", stats.Holm([]float64{0.004, 0.03, 0.2}))
	// Output: [0.012 0.060 0.200]
}

// A character who passed 14 of 20 coin-flip checks and 3 of 4 hard ones
// (3d6 under 7: 35 of 216) did better than most.
func ExamplePercentile() {
	groups := []stats.Group{{P: 0.5, N: 20}, {P: 35.0 / 216, N: 4}}
	d := stats.Passes(groups)
	fmt.Printf("expected %.2f passes\n", d.Mean())
	fmt.Printf("17 passes beats %.2f%% of outcomes\n", stats.Percentile(groups, 17))
	// Output:
	// expected 10.65 passes
	// 17 passes beats 99.39% of outcomes
}
