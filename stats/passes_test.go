package stats

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// bruteForce returns P(X = k) for k = 0..n by enumerating all 2^n outcomes
// of the checks one by one.
func bruteForce(groups []Group) []float64 {
	var ps []float64
	for _, g := range groups {
		for range g.N {
			ps = append(ps, g.P)
		}
	}
	n := len(ps)
	dist := make([]float64, n+1)
	for mask := range uint(1) << n {
		prob := 1.0
		for i, p := range ps {
			if mask&(1<<i) != 0 {
				prob *= p
			} else {
				prob *= 1 - p
			}
		}
		dist[bits.OnesCount(mask)] += prob
	}
	return dist
}

func TestPassesAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	// 3d6 under 3, 10 and 17 from the rules, certain failure and success,
	// a coin, and anything.
	special := []float64{0, 1, 0.5, 1.0 / 216, 108.0 / 216, 215.0 / 216}
	for c := range 300 {
		var groups []Group
		total := 0
		for range 1 + r.IntN(5) {
			n := r.IntN(5)
			if total+n > 12 {
				n = 12 - total
			}
			total += n
			p := r.Float64()
			if r.IntN(2) == 0 {
				p = special[r.IntN(len(special))]
			}
			groups = append(groups, Group{P: p, N: n})
		}
		want := bruteForce(groups)
		d := Passes(groups)
		if d.N != total {
			t.Fatalf("case %d %v: N = %d, want %d", c, groups, d.N, total)
		}
		below, mean := 0.0, 0.0
		for k := -1; k <= total+1; k++ {
			w := 0.0
			if k >= 0 && k <= total {
				w = want[k]
			}
			if got := d.At(k); math.Abs(got-w) > 1e-12 {
				t.Errorf("case %d %v: At(%d) = %.17g, brute force %.17g", c, groups, k, got, w)
			}
			if got := d.Below(k); math.Abs(got-below) > 1e-12 {
				t.Errorf("case %d %v: Below(%d) = %.17g, brute force %.17g", c, groups, k, got, below)
			}
			below += w
			mean += float64(k) * w
		}
		if got := d.Mean(); math.Abs(got-mean) > 1e-12 {
			t.Errorf("case %d %v: Mean = %.17g, brute force %.17g", c, groups, got, mean)
		}
		if got := d.Below(total + 1); math.Abs(got-1) > 1e-12 {
			t.Errorf("case %d %v: total mass %.17g", c, groups, got)
		}
	}
}

func TestPassesEdges(t *testing.T) {
	tests := []struct {
		name   string
		groups []Group
		lo, n  int
		prob   []float64
	}{
		{"no checks", nil, 0, 0, []float64{1}},
		{"empty groups", []Group{{P: 0.3}, {P: 1}}, 0, 0, []float64{1}},
		{"all certain", []Group{{P: 1, N: 4}, {P: 0, N: 3}, {P: 1, N: 2}}, 6, 9, []float64{1}},
		{"one coin after certain passes", []Group{{P: 1, N: 2}, {P: 0.5, N: 1}}, 2, 3, []float64{0.5, 0.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Passes(tt.groups)
			if d.Lo != tt.lo || d.N != tt.n || len(d.Prob) != len(tt.prob) {
				t.Fatalf("Passes = %+v, want Lo %d, N %d, Prob %v", d, tt.lo, tt.n, tt.prob)
			}
			for i := range d.Prob {
				if d.Prob[i] != tt.prob[i] {
					t.Fatalf("Passes = %+v, want Prob %v", d, tt.prob)
				}
			}
		})
	}
}

// TestPassesBinomial checks one large group against gonum's binomial
// probabilities, which come from log-gamma functions rather than the
// recurrence Passes uses. Trimming promises 1e-15 absolute, so that is the
// allowance beside the relative error of log-gamma; every entry counts,
// trimmed ones included.
func TestPassesBinomial(t *testing.T) {
	for _, p := range []float64{1.0 / 216, 0.5, 0.9} {
		const n = 2000
		d := Passes([]Group{{P: p, N: n}})
		b := distuv.Binomial{N: n, P: p}
		for k := -1; k <= n+1; k++ {
			want := b.Prob(float64(k))
			if got := d.At(k); math.Abs(got-want) > 1e-15+1e-10*want {
				t.Errorf("p %v: At(%d) = %.15g, binomial %.15g", p, k, got, want)
			}
		}
	}
}

func TestPercentile(t *testing.T) {
	twenty := []Group{{P: 0.5, N: 20}}
	tests := []struct {
		name   string
		groups []Group
		passed int
		want   float64
	}{
		{"all 20 coins", twenty, 20, 100 * (1 - math.Pow(0.5, 20))},
		{"no passes", twenty, 0, 0},
		{"half", twenty, 10, 100 * 0.41190147399902344}, // sum_{k<10} C(20,k) / 2^20 = 431910/1048576
		{"more than possible", twenty, 21, 100},
		{"no passes, mixed", []Group{{P: 0.9, N: 5}, {P: 1.0 / 216, N: 30}}, 0, 0},
		{"certain passes are no luck", []Group{{P: 1, N: 5}}, 5, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Percentile(tt.groups, tt.passed); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("Percentile(%v, %d) = %.15g, want %.15g", tt.groups, tt.passed, got, tt.want)
			}
		})
	}
}

// largeCase is 5,000 checks in 20 groups of 250 with pass chances spread
// over (0, 1), as a long campaign's checks would be.
func largeCase() []Group {
	groups := make([]Group, 20)
	for i := range groups {
		groups[i] = Group{P: (float64(i) + 0.5) / 20, N: 250}
	}
	return groups
}

func TestPassesLarge(t *testing.T) {
	groups := largeCase()
	d := Passes(groups)
	var mean, variance float64
	for _, g := range groups {
		mean += float64(g.N) * g.P
		variance += float64(g.N) * g.P * (1 - g.P)
	}
	if got := d.Mean(); math.Abs(got-mean) > 1e-6 {
		t.Errorf("Mean = %.12g, want %.12g", got, mean)
	}
	if got := d.Below(d.N + 1); math.Abs(got-1) > 1e-12 {
		t.Errorf("total mass = %.17g", got)
	}
	var v float64
	for i, p := range d.Prob {
		x := float64(d.Lo+i) - mean
		v += x * x * p
	}
	if math.Abs(v-variance) > 1e-6 {
		t.Errorf("variance = %.12g, want %.12g", v, variance)
	}
	// The window is trimmed: far shorter than the 5,001 outcomes, yet
	// wide enough to hold ±9 standard deviations.
	sd := math.Sqrt(variance)
	if len(d.Prob) > 1000 || float64(d.Lo) > mean-9*sd || float64(d.Lo+len(d.Prob)) < mean+9*sd {
		t.Errorf("window [%d, %d) for mean %.1f, sd %.1f", d.Lo, d.Lo+len(d.Prob), mean, sd)
	}
}

func TestPassesPanics(t *testing.T) {
	for _, g := range []Group{{P: -0.1, N: 1}, {P: 1.1, N: 1}, {P: math.NaN(), N: 1}, {P: 0.5, N: -1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Passes(%+v) did not panic", g)
				}
			}()
			Passes([]Group{g})
		}()
	}
}

func BenchmarkPasses5000(b *testing.B) {
	groups := largeCase()
	for b.Loop() {
		Passes(groups)
	}
}
