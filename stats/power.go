package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// maxFaces is where FacesForPower gives up.
const maxFaces = 1_000_000_000

// poissonTail is the Poisson mass left out of the noncentral chi-square
// mixture; it bounds the error of Power.
const poissonTail = 1e-12

// LoadedDie returns the bias the dice report states its power against: a
// d6 whose faces 1 to 6 are weighted 2, 3, 3, 3, 3 and 4 out of 18. Each
// call returns a fresh slice.
func LoadedDie() []float64 {
	return []float64{2.0 / 18, 3.0 / 18, 3.0 / 18, 3.0 / 18, 3.0 / 18, 4.0 / 18}
}

// Power returns the chance that FitUniform flags (p < alpha) a die whose
// faces come up with probabilities alt (one per face, summing to 1) after
// n faces. It uses the large-sample approximation: Pearson's statistic
// follows a noncentral chi-square distribution with len(alt)-1 degrees of
// freedom and noncentrality lambda = n * sum((alt_i - 1/k)^2 / (1/k)).
// The result is exact for that distribution to within 1e-12. At a fair
// alt it is alpha.
//
// Power panics if alt has fewer than 2 faces, a negative entry or does not
// sum to 1 (within 1e-9), if n is negative or alpha is not in (0, 1): those
// come from code, not from players.
func Power(n int64, alt []float64, alpha float64) float64 {
	checkAlt(alt)
	if n < 0 {
		panic(fmt.Sprintf("stats: Power of %d faces", n))
	}
	if !(alpha > 0 && alpha < 1) {
		panic(fmt.Sprintf("stats: Power at level %v, want 0 < alpha < 1", alpha))
	}
	k := float64(len(alt))
	var lambda float64
	for _, a := range alt {
		d := a - 1/k
		lambda += d * d * k // (alt_i - 1/k)^2 / (1/k)
	}
	lambda *= float64(n)
	df := k - 1
	crit := distuv.ChiSquared{K: df}.Quantile(1 - alpha)
	return noncentralChiSquaredSurvival(crit, df, lambda)
}

// checkAlt panics unless alt is a probability vector over at least 2 faces.
func checkAlt(alt []float64) {
	if len(alt) < 2 {
		panic(fmt.Sprintf("stats: a die needs at least 2 faces, got %d", len(alt)))
	}
	var sum float64
	for _, a := range alt {
		if !(a >= 0) {
			panic(fmt.Sprintf("stats: face probability %v", a))
		}
		sum += a
	}
	if math.Abs(sum-1) > 1e-9 {
		panic(fmt.Sprintf("stats: face probabilities sum to %v, not 1", sum))
	}
}

// noncentralChiSquaredSurvival returns P(X > x) for X noncentral
// chi-square with df degrees of freedom and noncentrality lambda. gonum has
// no such distribution, so it uses the Poisson mixture
//
//	P(X > x) = sum_j Poisson(j; lambda/2) * P(chi2(df+2j) > x).
//
// Summing the survivals rather than taking 1 - CDF keeps small powers
// accurate. The sum starts at the Poisson mode and walks out both ways,
// so a large lambda costs about sqrt(lambda) terms rather than lambda.
// Each side stops once a geometric bound on the Poisson mass beyond it is
// under poissonTail/2: past the mode the ratio of successive weights only
// shrinks, so that bound holds, and since every survival is at most 1 the
// left-out mass bounds the error.
func noncentralChiSquaredSurvival(x, df, lambda float64) float64 {
	mu := lambda / 2
	surv := func(j float64) float64 { return distuv.ChiSquared{K: df + 2*j}.Survival(x) }
	if mu == 0 {
		return surv(0)
	}
	mode := math.Floor(mu)
	wMode := distuv.Poisson{Lambda: mu}.Prob(mode)
	sum := wMode * surv(mode)

	// Upwards: w(j+1) = w(j) * mu/(j+1), and mu/(j+1) < 1 above the mode.
	for j, w := mode, wMode; ; {
		w *= mu / (j + 1)
		j++
		sum += w * surv(j)
		r := mu / (j + 1)
		if w*r/(1-r) < poissonTail/2 {
			break
		}
	}
	// Downwards: w(j-1) = w(j) * j/mu, and j/mu < 1 below the mode.
	for j, w := mode, wMode; j > 0; {
		w *= j / mu
		j--
		sum += w * surv(j)
		r := j / mu
		if w*r/(1-r) < poissonTail/2 {
			break
		}
	}
	return min(max(sum, 0), 1)
}

// FacesForPower returns the fewest faces n at which Power(n, alt, alpha)
// reaches want. Power grows with n, so it doubles n until want is reached
// and then bisects. It returns 0 when want is at most the power with no
// faces (alpha), and -1 when even 1e9 faces fall short, as for a fair alt
// and any want above alpha. It panics as Power does.
func FacesForPower(alt []float64, alpha, want float64) int64 {
	reached := func(n int64) bool { return Power(n, alt, alpha) >= want }
	if reached(0) {
		return 0
	}
	lo, hi := int64(0), int64(1) // reached(lo) is false throughout
	for !reached(hi) {
		if hi == maxFaces {
			return -1
		}
		lo, hi = hi, min(2*hi, maxFaces)
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if reached(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}
