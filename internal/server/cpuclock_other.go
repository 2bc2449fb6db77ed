//go:build !linux

package server

// processCPU has no nanosecond source outside Linux: ReadUsage falls back
// to the process table's user and system times.
func processCPU(pid int) (float64, bool) { return 0, false }
