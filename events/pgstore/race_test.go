//go:build race

package pgstore_test

// raceEnabled is true in a test binary built with -race: the concurrency
// test then appends fewer commands, since the race detector looks for
// unguarded memory, which a few hundred commands reach, not for volume
// (the run without -race appends the full count).
const raceEnabled = true
