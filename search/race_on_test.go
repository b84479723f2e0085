//go:build race

package search

// raceEnabled: some tests scan hundreds of thousands of vectors, which
// takes minutes under the race detector; .ci/run also runs them without.
const raceEnabled = true
