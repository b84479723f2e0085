//go:build !unix

package semantic

import "time"

// cpuTime is not measured here; benchmarks then report 0.
func cpuTime() time.Duration { return 0 }
