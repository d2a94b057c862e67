package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

func TestHolm(t *testing.T) {
	tests := []struct {
		name string
		p    []float64
		want []float64
	}{
		{
			// Wikipedia, "Holm–Bonferroni method", Example: sorted
			// 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04
			// raised to 0.06 by the running maximum.
			name: "four hypotheses",
			p:    []float64{0.01, 0.04, 0.03, 0.005},
			want: []float64{0.03, 0.06, 0.06, 0.02},
		},
		{
			// R: p.adjust(c(0.01, 0.02, 0.03, 0.04, 0.05), "holm") is
			// 0.05 0.08 0.09 0.09 0.09 (0.04*2 and 0.05*1 step up to 0.09).
			name: "evenly spaced",
			p:    []float64{0.01, 0.02, 0.03, 0.04, 0.05},
			want: []float64{0.05, 0.08, 0.09, 0.09, 0.09},
		},
		{
			// 0.3*3 = 0.9, 0.5*2 = 1, 0.6*1 = 0.6 raised to 1.
			name: "capped at 1",
			p:    []float64{0.5, 0.3, 0.6},
			want: []float64{1, 0.9, 1},
		},
		{
			name: "ties",
			p:    []float64{0.02, 0.02},
			want: []float64{0.04, 0.04},
		},
		{name: "one", p: []float64{0.03}, want: []float64{0.03}},
		{name: "none", p: nil, want: []float64{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Holm(tt.p)
			if len(got) != len(tt.want) {
				t.Fatalf("Holm(%v) = %v, want %v", tt.p, got, tt.want)
			}
			for i := range got {
				if math.Abs(got[i]-tt.want[i]) > 1e-15 {
					t.Errorf("Holm(%v) = %v, want %v", tt.p, got, tt.want)
					break
				}
			}
		})
	}
}

// TestHolmProperties checks random inputs: adjusted values keep the order
// of the p-values, lie between p and min(1, m*p), and the input is left
// alone.
func TestHolmProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		m := 1 + r.IntN(12)
		p := make([]float64, m)
		for i := range p {
			p[i] = math.Pow(r.Float64(), 3) // many small p-values
		}
		in := slices.Clone(p)
		adj := Holm(p)
		if !slices.Equal(p, in) {
			t.Fatalf("Holm changed its input: %v became %v", in, p)
		}
		for i := range p {
			if adj[i] < p[i] || adj[i] > min(1, float64(m)*p[i]) {
				t.Errorf("Holm(%v)[%d] = %v, outside [p, min(1, m*p)]", p, i, adj[i])
			}
		}
		idx := make([]int, m)
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
		for j := 1; j < m; j++ {
			if adj[idx[j]] < adj[idx[j-1]] {
				t.Errorf("Holm(%v) = %v is not monotone in p", p, adj)
				break
			}
		}
	}
}
