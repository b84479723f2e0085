//go:build !unix

package main

import "os"

// peakRSSKB is unknown (0) where there is no rusage.
func peakRSSKB(*os.ProcessState) int { return 0 }
