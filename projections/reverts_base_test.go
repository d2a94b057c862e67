package projections

import (
	"fmt"
	"testing"
)

// TestRevertBaseRoundTrip: every command encoded is found with its undo,
// none other is, and damaged encodings are refused rather than misread.
func TestRevertBaseRoundTrip(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 300} {
		refs := map[string]revertRef{}
		for i := 0; i < n; i++ {
			id := fmt.Sprintf("01KDX%021d", i*7919%1000003)
			if i%3 == 0 {
				id = fmt.Sprintf("C%d", i) // IDs need not be ULIDs
			}
			refs[id] = revertRef{seq: int64(1000 + i), pos: i % 4}
		}
		b := encodeBase(refs, int64(n)+5)
		base, version, err := decodeBase(b)
		if err != nil || version != int64(n)+5 || base.n != n {
			t.Fatalf("n=%d: decode: %v, version %d, %d records", n, err, version, base.n)
		}
		for id, want := range refs {
			if got, ok := base.find(id); !ok || got != want {
				t.Fatalf("n=%d: find(%q) = %v, %v; want %v", n, id, got, ok, want)
			}
		}
		for _, id := range []string{"", "C", "01KDX", "zzz", "C1x"} {
			if _, ok := refs[id]; !ok {
				if got, ok := base.find(id); ok {
					t.Fatalf("n=%d: find(%q) = %v, but it was not encoded", n, id, got)
				}
			}
		}
		for cut := 0; cut < len(b); cut += 1 + len(b)/17 {
			if _, _, err := decodeBase(b[:cut]); err == nil {
				t.Fatalf("n=%d: a snapshot cut at byte %d of %d decodes", n, cut, len(b))
			}
		}
	}
	if _, _, err := decodeBase([]byte("garbage that is long enough")); err == nil {
		t.Fatal("garbage decodes")
	}
}
