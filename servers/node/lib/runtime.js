// GET /runtime (docs/contract.md#get-runtime): what the runtime says about
// itself, for restbench's monitor to sample during a trial. Nothing runs
// until the first call, so a server that is never asked pays nothing; the
// event-loop delay and utilisation cover the time since the previous call.
import { constants, monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';

const GC_KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

// The delay histogram holds whole intervals between the sampling timer's
// runs; what the loop was late by is the excess over its resolution.
const RESOLUTION_MS = 10;
const late = (ns) => Math.max(0, ns / 1e6 - RESOLUTION_MS);

let state = null;

// start turns on what can be observed here; Bun and Deno lack some of it,
// and say so in not_available.
function start() {
  const s = { delay: null, elu: null, gc: null, notAvailable: [] };
  try {
    // Bun's and Deno's histograms exist but do not measure the loop: a
    // 60 ms block read 250 ms in a 120 ms interval on Bun 1.4.5, and
    // 0.02 ms on Deno 2.9.6. Not available there rather than wrong.
    if (process.versions.bun || globalThis.Deno) throw new Error('not the loop');
    s.delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    s.delay.enable();
  } catch {
    s.delay = null;
    s.notAvailable.push('event_loop_delay');
  }
  try {
    s.elu = performance.eventLoopUtilization();
  } catch {
    s.notAvailable.push('event_loop_utilization');
  }
  try {
    // Bun and Deno accept the observer but never report a 'gc' entry.
    if (!PerformanceObserver.supportedEntryTypes?.includes('gc')) throw new Error('no gc entries');
    const gc = {};
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const kind = GC_KINDS[e.detail?.kind ?? e.kind] ?? 'other';
        gc[kind] ??= { count: 0, total_ms: 0 };
        gc[kind].count++;
        gc[kind].total_ms += e.duration;
      }
    }).observe({ entryTypes: ['gc'] });
    s.gc = gc;
  } catch {
    s.notAvailable.push('gc');
  }
  return s;
}

function runtimeName() {
  if (process.versions.bun) return `bun ${process.versions.bun}`;
  if (globalThis.Deno?.version) return `deno ${globalThis.Deno.version.deno}`;
  return `node ${process.version}`;
}

// runtimeStats answers GET /runtime.
export function runtimeStats() {
  state ??= start();
  const out = { runtime: runtimeName() };
  const notAvailable = [...state.notAvailable];
  const d = state.delay;
  if (d) {
    // An interval without a sample (the first call) reads NaN: say 0.
    const ok = d.count > 0;
    out.event_loop_delay_p50_ms = ok ? late(d.percentile(50)) : 0;
    out.event_loop_delay_p99_ms = ok ? late(d.percentile(99)) : 0;
    out.event_loop_delay_max_ms = ok ? late(d.max) : 0;
    d.reset();
  }
  if (state.elu) {
    const now = performance.eventLoopUtilization();
    // Bun and Deno answer all zeros: no idle and no active time.
    if (now.idle === 0 && now.active === 0) notAvailable.push('event_loop_utilization');
    else out.event_loop_utilization = performance.eventLoopUtilization(now, state.elu).utilization;
    state.elu = now;
  }
  const mem = process.memoryUsage();
  out.heap_used_bytes = mem.heapUsed;
  out.heap_total_bytes = mem.heapTotal;
  if (state.gc) out.gc = state.gc;
  if (notAvailable.length) out.not_available = notAvailable;
  return out;
}
