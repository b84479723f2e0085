//go:build race

package eval

// raceEnabled: the benchmark run takes minutes under the race detector;
// .ci/run runs it without.
const raceEnabled = true
