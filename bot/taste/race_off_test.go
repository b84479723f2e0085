//go:build !race

package taste_test

const raceEnabled = false
