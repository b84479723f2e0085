//go:build unix

package semantic

import (
	"syscall"
	"time"
)

// cpuTime is the process's user and system CPU time so far: benchmarks
// report it beside wall time, which on a shared machine also counts the
// time spent waiting for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
