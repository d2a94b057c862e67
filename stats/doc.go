// Package stats holds the statistics behind `ltscamp dice report`: whether
// each die source is fair (a chi-square goodness-of-fit test, its power
// against a loaded die, and Holm's correction across several sources) and
// how lucky each character was (the exact distribution of the number of
// checks passed).
//
// The package is pure. It imports gonum and the standard library and
// nothing else of ltscamp, does no I/O, reads no clock and keeps no
// mutable state. It takes plain counts and probabilities; a projection
// folds dice events into them.
package stats
