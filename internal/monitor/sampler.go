package monitor

import (
	"os"
	"time"

	"github.com/shirou/gopsutil/v4/cpu"

	"restbench/internal/result"
	"restbench/internal/server"
)

// Sampler takes one reading. CPU figures are averages since the previous
// call, so the first reading of a Sampler has no CPU figures worth keeping.
type Sampler interface {
	Sample() (result.Sample, error)
}

// Tree is the Sampler restbench uses. It reads
//   - the server: its members by package server's one rule (process group
//     and descendants: cluster workers, pm2-runtime's children), CPU and RSS
//     summed, and the CPU of its busiest thread;
//   - the client: this process and its descendants outside the server (a
//     wrk or ab child), so the same rule covers every engine;
//   - the system's per-core busy percentages.
type Tree struct {
	Server int // pid of the server's group leader
	Client int // pid of the generator's root; 0 means this process

	last        time.Time
	lastCPU     map[int]float64 // pid -> user+system seconds at the last reading
	lastThreads map[int]float64 // server thread id -> CPU seconds at the last reading
	lastCores   []cpu.TimesStat
}

var _ Sampler = (*Tree)(nil)

// NewTree returns a Sampler for the server whose group leader is pid.
func NewTree(server int) *Tree {
	return &Tree{Server: server, Client: os.Getpid(), lastCPU: map[int]float64{}}
}

// Sample reads the trees and the cores once.
func (t *Tree) Sample() (result.Sample, error) {
	procs := server.ReadTable()
	members := procs.Members(t.Server)
	client := procs.Descendants(t.Client, members)
	// The clock is read after the listing, which takes milliseconds, and
	// just before the CPU clocks, which take microseconds: a sample's CPU
	// and its elapsed time then cover the same interval to within those.
	now := time.Now()
	cpuNow := map[int]float64{}
	var s result.Sample
	elapsed := now.Sub(t.last).Seconds()
	read := func(pids []int) (pct float64, mem int64) {
		for _, pid := range pids {
			u, ok := server.ReadUsage(pid)
			if !ok {
				continue // exited since the listing
			}
			cpuNow[pid] = u.CPU
			// A process seen for the first time adds nothing: its CPU
			// time so far belongs to before this interval.
			if prev, ok := t.lastCPU[pid]; ok && elapsed > 0 {
				pct += 100 * (u.CPU - prev) / elapsed
			}
			mem += u.RSS
		}
		return pct, mem
	}
	s.ServerCPU, s.ServerRSS = read(members)
	s.Procs = len(members)
	s.ServerThreadCPU = t.busiestThread(members, elapsed)
	s.ClientCPU, _ = read(client)
	if cores, err := cpu.Times(true); err == nil {
		if len(t.lastCores) == len(cores) {
			s.Cores = make([]float64, len(cores))
			for i := range cores {
				s.Cores[i] = busyPercent(t.lastCores[i], cores[i])
			}
		}
		t.lastCores = cores
	}
	t.last, t.lastCPU = now, cpuNow
	return s, nil
}

// busiestThread is the CPU of the server's busiest thread since the last
// reading, in percent of one core: what a per-core meter shows of a server
// whose one thread does the work and whose helpers (a runtime's garbage
// collector and pools) run beside it ("one CPU at around 90 %"). A thread
// runs on one core at a time, so a share above 100 % is the clocks'
// staleness (up to a tick each read) and reads 100 %. A thread seen for the
// first time adds nothing.
func (t *Tree) busiestThread(members []int, elapsed float64) float64 {
	now := map[int]float64{}
	busiest := 0.0
	for _, pid := range members {
		for tid, sec := range server.ThreadCPU(pid) {
			now[tid] = sec
			if prev, ok := t.lastThreads[tid]; ok && elapsed > 0 {
				busiest = max(busiest, min(100, 100*(sec-prev)/elapsed))
			}
		}
	}
	t.lastThreads = now
	return busiest
}

// busyPercent is the share of the interval a core spent not idle.
func busyPercent(a, b cpu.TimesStat) float64 {
	total := b.Total() - a.Total()
	idle := (b.Idle + b.Iowait) - (a.Idle + a.Iowait)
	if total <= 0 {
		return 0
	}
	return max(0, min(100, 100*(total-idle)/total))
}
