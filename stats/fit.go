package stats

import (
	"errors"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Fit is the fairness of a die: Pearson's chi-square goodness-of-fit test
// of its face counts against a fair die.
type Fit struct {
	Counts []int64 // by face, index 0 = face 1
	N      int64   // total faces
	Chi2   float64 // Pearson's statistic against equal expected counts
	DF     int     // faces-1
	PValue float64 // upper tail of the chi-square distribution with DF degrees
}

// FitUniform tests counts, the number of times each face came up (index 0
// is face 1), against a fair die with len(counts) faces. It returns an
// error when there are fewer than 2 faces, a count is negative or no face
// was rolled. The p-value is the chi-square approximation, which is poor
// when an expected count N/len(counts) is under 5.
func FitUniform(counts []int64) (Fit, error) {
	k := len(counts)
	if k < 2 {
		return Fit{}, fmt.Errorf("a die needs at least 2 faces, got %d", k)
	}
	var n int64
	for i, c := range counts {
		if c < 0 {
			return Fit{}, fmt.Errorf("face %d has a negative count %d", i+1, c)
		}
		n += c
	}
	if n == 0 {
		return Fit{}, errors.New("no faces rolled")
	}
	expected := float64(n) / float64(k)
	var chi2 float64
	for _, c := range counts {
		d := float64(c) - expected
		chi2 += d * d / expected
	}
	df := k - 1
	return Fit{
		Counts: slices.Clone(counts),
		N:      n,
		Chi2:   chi2,
		DF:     df,
		PValue: distuv.ChiSquared{K: float64(df)}.Survival(chi2),
	}, nil
}
