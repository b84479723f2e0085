//go:build unix

package main

import (
	"os"
	"syscall"
)

// peakRSSKB is the peak resident set of an exited child in kilobytes (what
// Linux reports; macOS reports bytes, so figures there are 1,024 times too big).
func peakRSSKB(ps *os.ProcessState) int {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int(ru.Maxrss)
	}
	return 0
}
