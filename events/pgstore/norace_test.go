//go:build !race

package pgstore_test

// raceEnabled is true in a test binary built with -race (see
// race_test.go).
const raceEnabled = false
