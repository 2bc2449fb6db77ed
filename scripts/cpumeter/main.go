// Command cpumeter measures the monitor's CPU meter (server.ReadUsage: the
// process CPU clock) against /proc/PID/stat's clock ticks:
// a shell busy loop pinned to one core (a saturated one-thread server) is
// read every interval by both, and each prints its samples' spread. A
// pinned busy loop cannot use more than 100 % of its core, so what a
// sample reads above that is the meter's error.
//
//	go run ./scripts/cpumeter [-n 40] [-interval 250ms] [-cpu 1]
package main

import (
	"flag"
	"fmt"
	"log"
	"os/exec"
	"slices"
	"strconv"
	"time"

	"github.com/shirou/gopsutil/v4/process"

	"restbench/internal/server"
)

func main() {
	n := flag.Int("n", 40, "samples")
	interval := flag.Duration("interval", 250*time.Millisecond, "time between samples (the monitor's is 250ms)")
	core := flag.Int("cpu", 1, "the core to pin the busy loop to")
	flag.Parse()

	busy := exec.Command("taskset", "-c", strconv.Itoa(*core), "sh", "-c", "while :; do :; done")
	if err := busy.Start(); err != nil {
		log.Fatalf("start the busy loop (needs taskset): %v", err)
	}
	defer busy.Process.Kill()
	pid := busy.Process.Pid
	proc, err := process.NewProcess(int32(pid))
	if err != nil {
		log.Fatal(err)
	}
	read := func() (at time.Time, meter, ticks float64) {
		at = time.Now()
		u, ok := server.ReadUsage(pid)
		ts, err := proc.Times()
		if !ok || err != nil {
			log.Fatalf("read pid %d: ok %v, %v", pid, ok, err)
		}
		return at, u.CPU, ts.User + ts.System
	}
	time.Sleep(200 * time.Millisecond) // past the shell's start
	t0, m0, k0 := read()
	var meter, ticks []float64
	for range *n {
		time.Sleep(*interval)
		t1, m1, k1 := read()
		el := t1.Sub(t0).Seconds()
		meter = append(meter, 100*(m1-m0)/el)
		ticks = append(ticks, 100*(k1-k0)/el)
		t0, m0, k0 = t1, m1, k1
	}
	show := func(name string, xs []float64) {
		s := slices.Clone(xs)
		slices.Sort(s)
		fmt.Printf("%-34s min %6.2f  p10 %6.2f  median %6.2f  p90 %6.2f  max %6.2f  (%% of a core, %d samples of %v)\n",
			name, s[0], s[len(s)/10], s[len(s)/2], s[len(s)*9/10], s[len(s)-1], len(s), *interval)
	}
	show("meter (process CPU clock)", meter)
	show("/proc/PID/stat (10 ms ticks)", ticks)
}
