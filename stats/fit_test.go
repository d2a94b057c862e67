package stats

import (
	"math"
	"slices"
	"testing"
)

// chi2SurvivalOdd is the chi-square upper tail for odd df in closed form
// (Abramowitz & Stegun 26.4.4), built on math.Erfc rather than gonum's
// incomplete gamma function, so it checks FitUniform independently:
//
//	Q(x; df) = erfc(sqrt(x/2)) + 2 phi(sqrt x) sum_{r=1}^{(df-1)/2} x^(r-1/2) / (1*3*...*(2r-1)).
func chi2SurvivalOdd(x float64, df int) float64 {
	q := math.Erfc(math.Sqrt(x / 2))
	phi := math.Exp(-x/2) / math.Sqrt(2*math.Pi)
	term := math.Sqrt(x)
	for r := 1; r <= (df-1)/2; r++ {
		q += 2 * phi * term
		term *= x / float64(2*r+1)
	}
	return q
}

func TestFitUniform(t *testing.T) {
	tests := []struct {
		name   string
		counts []int64
		n      int64
		chi2   float64
		df     int
		p      float64
	}{
		{
			// Expected 10 each: (5-10)^2/10 + (15-10)^2/10 = 2.5 + 2.5 = 5.
			// With 1 degree of freedom the tail is erfc(sqrt(x/2)).
			name: "two faces, 5 and 15", counts: []int64{5, 15},
			n: 20, chi2: 5, df: 1, p: math.Erfc(math.Sqrt(2.5)),
		},
		{
			// N = 60, expected 10 each. Squared deviations 25, 4, 1, 4, 0,
			// 100 sum to 134, so chi2 = 134/10 = 13.4 on 5 degrees.
			// mpmath (40 digits) gammainc(5/2, 6.7, inf, regularized=True)
			// gives 0.019905220334774381023...
			name: "six faces, 5 8 9 8 10 20", counts: []int64{5, 8, 9, 8, 10, 20},
			n: 60, chi2: 13.4, df: 5, p: 0.019905220334774381,
		},
		{
			// 36/10 + 0 + 36/10 = 7.2; with 2 degrees the tail is exp(-x/2).
			name: "three faces, 4 10 16", counts: []int64{4, 10, 16},
			n: 30, chi2: 7.2, df: 2, p: math.Exp(-3.6),
		},
		{
			// Expected 3.5 each: 2 * 3.5^2 / 3.5 = 7.
			name: "one face never came up", counts: []int64{0, 7},
			n: 7, chi2: 7, df: 1, p: math.Erfc(math.Sqrt(3.5)),
		},
		{
			name: "perfectly even", counts: []int64{10, 10, 10, 10, 10, 10},
			n: 60, chi2: 0, df: 5, p: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := FitUniform(tt.counts)
			if err != nil {
				t.Fatalf("FitUniform(%v): %v", tt.counts, err)
			}
			if f.N != tt.n || f.DF != tt.df || !slices.Equal(f.Counts, tt.counts) {
				t.Errorf("N, DF, Counts = %d, %d, %v; want %d, %d, %v", f.N, f.DF, f.Counts, tt.n, tt.df, tt.counts)
			}
			if math.Abs(f.Chi2-tt.chi2) > 1e-12 {
				t.Errorf("Chi2 = %.15g, want %.15g", f.Chi2, tt.chi2)
			}
			if math.Abs(f.PValue-tt.p) > 1e-9 {
				t.Errorf("PValue = %.15g, want %.15g", f.PValue, tt.p)
			}
			if tt.df%2 == 1 {
				if q := chi2SurvivalOdd(tt.chi2, tt.df); math.Abs(f.PValue-q) > 1e-9 {
					t.Errorf("PValue = %.15g, closed form gives %.15g", f.PValue, q)
				}
			}
		})
	}
}

func TestFitUniformCopiesCounts(t *testing.T) {
	counts := []int64{3, 4, 5}
	f, err := FitUniform(counts)
	if err != nil {
		t.Fatal(err)
	}
	counts[0] = 100
	if f.Counts[0] != 3 {
		t.Errorf("Fit.Counts aliases the caller's slice: %v", f.Counts)
	}
}

func TestFitUniformRejects(t *testing.T) {
	tests := []struct {
		name   string
		counts []int64
	}{
		{"nil", nil},
		{"no faces", []int64{}},
		{"one face", []int64{12}},
		{"nothing rolled", []int64{0, 0, 0, 0, 0, 0}},
		{"negative count", []int64{3, -1, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if f, err := FitUniform(tt.counts); err == nil {
				t.Errorf("FitUniform(%v) = %+v, want an error", tt.counts, f)
			}
		})
	}
}
