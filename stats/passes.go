package stats

import "fmt"

// Trimming keeps the Passes window short without giving up precision: a
// tail entry is dropped only if it is below trimRatio of the peak and the
// mass dropped over the whole computation stays under trimBudget. No
// probability or sum of probabilities then moves by more than 1e-15, the
// rounding error of a double near 1.
const (
	trimRatio  = 1e-20
	trimBudget = 1e-15
)

// Group is N checks that each pass, independently, with probability P
// (exact, from the rules).
type Group struct {
	P float64
	N int
}

// Distribution is the distribution of a number of passes out of N checks.
// Prob[i] is the probability of exactly Lo+i passes; outside that window
// the probability is 0, or so small that all of it together is under
// 1e-15.
type Distribution struct {
	Lo   int
	Prob []float64
	N    int
}

// Passes returns the exact distribution of the total number of passes over
// independent checks (a Poisson-binomial distribution). Checks with P = 1
// shift the window, checks with P = 0 change nothing, and every other
// check is added one at a time:
//
//	P'(X = k) = (1-p) P(X = k) + p P(X = k-1).
//
// To stay fast it keeps only a window of the support: tail entries below
// 1e-20 of the peak are dropped, but only while the total dropped mass
// stays under 1e-15. The window then spans about ±10 standard deviations,
// and every probability, Below and Percentile is exact to within 1e-15
// absolute (plus rounding): exact to double precision for anything a
// report shows. Far-tail entries, say under 1e-12, can lose relative
// precision, because mass trimmed early would have flowed into them.
//
// Passes panics on a P outside [0, 1] or a negative N.
func Passes(groups []Group) Distribution {
	sure, failed, uncertain := 0, 0, 0
	for _, g := range groups {
		if !(g.P >= 0 && g.P <= 1) || g.N < 0 {
			panic(fmt.Sprintf("stats: group of %d checks at P = %v", g.N, g.P))
		}
		switch g.P {
		case 0:
			failed += g.N
		case 1:
			sure += g.N
		default:
			uncertain += g.N
		}
	}

	// b[k] is P(k passes among the uncertain checks added so far), for k
	// in the window [lo, hi]; b has room for every outcome.
	b := make([]float64, uncertain+1)
	b[0] = 1
	lo, hi := 0, 0
	mode := 0 // where b peaks
	dropped := 0.0
	for _, g := range groups {
		if g.P == 0 || g.P == 1 {
			continue
		}
		p, q := g.P, 1-g.P
		for range g.N {
			// Walk down so that b[k-1] still holds the old value.
			w := b[lo : hi+2]
			last := len(w) - 1
			w[last] = p * w[last-1]
			for k := last - 1; k > 0; k-- {
				w[k] = q*w[k] + p*w[k-1]
			}
			w[0] *= q
			hi++

			// A Poisson-binomial distribution is log-concave, so unimodal:
			// climbing from the old mode finds the new one a step away,
			// without a max over the window (which costs more than the
			// update itself).
			for mode < hi && b[mode+1] > b[mode] {
				mode++
			}
			for mode > lo && b[mode-1] > b[mode] {
				mode--
			}
			floor := trimRatio * b[mode]
			for hi > lo && b[hi] < floor && dropped+b[hi] < trimBudget {
				dropped += b[hi]
				hi--
			}
			for lo < hi && b[lo] < floor && dropped+b[lo] < trimBudget {
				dropped += b[lo]
				lo++
			}
		}
	}
	return Distribution{
		Lo:   sure + lo,
		Prob: append([]float64(nil), b[lo:hi+1]...),
		N:    sure + failed + uncertain,
	}
}

// At returns P(X = k).
func (d Distribution) At(k int) float64 {
	i := k - d.Lo
	if i < 0 || i >= len(d.Prob) {
		return 0
	}
	return d.Prob[i]
}

// Below returns P(X < k).
func (d Distribution) Below(k int) float64 {
	end := min(max(k-d.Lo, 0), len(d.Prob))
	var sum float64
	for _, v := range d.Prob[:end] {
		sum += v
	}
	return sum
}

// Mean returns the expected number of passes.
func (d Distribution) Mean() float64 {
	var sum float64
	for i, v := range d.Prob {
		sum += float64(d.Lo+i) * v
	}
	return sum
}

// Percentile is the share, 0 to 100, of outcomes worse than passed: 100 *
// P(X < passed) for the passes over groups. A character at 90 passed
// more checks than they would have in 90% of campaigns.
func Percentile(groups []Group, passed int) float64 {
	return 100 * Passes(groups).Below(passed)
}
