package events

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"
)

// TestHasherMatchesComputeHash: the reusable hasher gives ComputeHash's
// hash, over times of every width and events of every size.
func TestHasherMatchesComputeHash(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var h Hasher
	times := []time.Time{
		time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-5, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 6, 1, 12, 0, 0, 0, time.FixedZone("x", 5*3600+1800)),
		{},
	}
	for i := range 2000 {
		at := time.Unix(rng.Int64N(1<<37)-1<<36, rng.Int64N(1e9)).UTC()
		if i < len(times) {
			at = times[i]
		}
		payload := make([]byte, rng.IntN(600))
		for j := range payload {
			payload[j] = byte(rng.IntN(256))
		}
		e := Event{Seq: rng.Int64N(1 << 40), ID: "01KDXEWPW0AE67Z5NHD1S73TP4", CommandID: "c" + string(payload[:min(3, len(payload))]),
			Stream: "character/x", StreamVersion: rng.Int64N(1000) - 5, Type: TypeRollMade, PayloadVersion: rng.IntN(3), Actor: "gm",
			RecordedAt: at, Payload: payload}
		prev := make([]byte, HashSize)
		for j := range prev {
			prev[j] = byte(rng.IntN(256))
		}
		if got, want := h.Sum(prev, &e), ComputeHash(prev, e); !bytes.Equal(got[:], want) {
			t.Fatalf("event %+v: hasher %x, ComputeHash %x", e, got, want)
		}
		if got, want := appendCanonicalEncoding(nil, &e), CanonicalEncoding(e); !bytes.Equal(got, want) {
			t.Fatalf("time %s: %q, want %q", at, got, want)
		}
	}
}
