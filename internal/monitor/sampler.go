package monitor

import (
	"fmt"
	"os"
	"time"

	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/process"

	"restbench/internal/result"
)

// Sampler takes one reading. CPU figures are averages since the previous
// call, so the first reading of a Sampler has no CPU figures worth keeping.
type Sampler interface {
	Sample() (result.Sample, error)
}

// Tree is the Sampler restbench uses: through gopsutil it reads
//   - the server's whole process tree: the leader and every descendant
//     (cluster workers, pm2-runtime's children), CPU and RSS summed;
//   - the client: this process and its descendants outside the server's
//     tree (a wrk or ab child), so the same rule covers every engine;
//   - the system's per-core busy percentages.
type Tree struct {
	Server int32 // pid of the server's group leader
	Client int32 // pid of the generator's root; 0 means this process

	last      time.Time
	lastCPU   map[int32]float64 // pid -> user+system seconds at the last reading
	lastCores []cpu.TimesStat
}

var _ Sampler = (*Tree)(nil)

// NewTree returns a Sampler for the server whose group leader is pid.
func NewTree(server int) *Tree {
	return &Tree{Server: int32(server), Client: int32(os.Getpid()), lastCPU: map[int32]float64{}}
}

// Sample reads the trees and the cores once.
func (t *Tree) Sample() (result.Sample, error) {
	now := time.Now()
	children, err := childrenMap()
	if err != nil {
		return result.Sample{}, fmt.Errorf("monitor: list processes: %w", err)
	}
	server := descendants(t.Server, children, -1)
	client := descendants(t.Client, children, t.Server)
	cpuNow := map[int32]float64{}
	var s result.Sample
	elapsed := now.Sub(t.last).Seconds()
	read := func(pids []int32, rss bool) (pct float64, mem int64) {
		for _, pid := range pids {
			p, err := process.NewProcess(pid)
			if err != nil {
				continue // exited since the listing
			}
			if ts, err := p.Times(); err == nil {
				total := ts.User + ts.System
				cpuNow[pid] = total
				// A process seen for the first time adds nothing: its CPU
				// time so far belongs to before this interval.
				if prev, ok := t.lastCPU[pid]; ok && elapsed > 0 {
					pct += 100 * (total - prev) / elapsed
				}
			}
			if rss {
				if m, err := p.MemoryInfo(); err == nil {
					mem += int64(m.RSS)
				}
			}
		}
		return pct, mem
	}
	s.ServerCPU, s.ServerRSS = read(server, true)
	s.Procs = len(server)
	s.ClientCPU, _ = read(client, false)
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

// busyPercent is the share of the interval a core spent not idle.
func busyPercent(a, b cpu.TimesStat) float64 {
	total := b.Total() - a.Total()
	idle := (b.Idle + b.Iowait) - (a.Idle + a.Iowait)
	if total <= 0 {
		return 0
	}
	return max(0, min(100, 100*(total-idle)/total))
}

// childrenMap maps each pid to its children, from one pass over /proc.
func childrenMap() (map[int32][]int32, error) {
	pids, err := process.Pids()
	if err != nil {
		return nil, err
	}
	m := make(map[int32][]int32, len(pids))
	for _, pid := range pids {
		p, err := process.NewProcess(pid)
		if err != nil {
			continue
		}
		if ppid, err := p.Ppid(); err == nil {
			m[ppid] = append(m[ppid], pid)
		}
	}
	return m, nil
}

// descendants returns root and all its descendants, leaving out the subtree
// of skip.
func descendants(root int32, children map[int32][]int32, skip int32) []int32 {
	out := []int32{root}
	for i := 0; i < len(out); i++ {
		for _, c := range children[out[i]] {
			if c != skip {
				out = append(out, c)
			}
		}
	}
	return out
}
