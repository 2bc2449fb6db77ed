// How finely each CPU clock a Node-compatible runtime offers advances: the
// steps of process.threadCpuUsage (RUSAGE_THREAD), process.cpuUsage
// (RUSAGE_SELF) and process.hrtime over consecutive reads, and sha256 hashes
// per ms over short runs. docs/benchmarks.md#the-work-clock.
// usage: node scripts/bench-work-clock.mjs (or bun, or deno run -A)
import { createHash } from 'node:crypto';
const P = globalThis.process;
function steps(name, read) {
  if (!read) { console.log(name, 'absent'); return; }
  const deltas = [];
  let last = read(), reads = 0;
  const t0 = performance.now();
  while (deltas.length < 20 && performance.now() - t0 < 400) {
    const v = read(); reads++;
    if (v !== last) { deltas.push(v - last); last = v; }
  }
  deltas.sort((a, b) => a - b);
  console.log(name, 'steps(us) median', deltas[deltas.length >> 1], 'min', deltas[0], 'max', deltas[deltas.length - 1], 'n', deltas.length, 'reads', reads);
}
steps('threadCpuUsage', P.threadCpuUsage && (() => { const u = P.threadCpuUsage(); return u.user + u.system; }));
steps('cpuUsage', () => { const u = P.cpuUsage(); return u.user + u.system; });
steps('hrtime.bigint(ns->us)', () => Number(P.hrtime.bigint()) / 1000);
let d = Buffer.alloc(32);
function hashes(n) { for (let i = 0; i < n; i++) d = createHash('sha256').update(d).digest(); }
hashes(20000);
// rate over short runs
const N = 200, per = 100; const rates = [];
for (let r = 0; r < 60; r++) { const t = P.hrtime.bigint(); hashes(per); rates.push(per / (Number(P.hrtime.bigint() - t) / 1e6)); }
rates.sort((a, b) => b - a);
console.log('hashes/ms fastest', rates[0].toFixed(1), 'p10', rates[6].toFixed(1), 'median', rates[30].toFixed(1), 'slowest', rates[59].toFixed(1));
