//go:build race

package taste_test

// raceEnabled: the simulated channels build an index of 7,000 papers, minutes under the race detector.
const raceEnabled = true
