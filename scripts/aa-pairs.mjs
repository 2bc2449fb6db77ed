#!/usr/bin/env node
// The A/A arms of saved benches, pooled: for each suite, the spread of the
// per-round ratio of a run to its A/A twin (sd of log req/s ratio), whether
// the trial measured first in its round reads faster (an order effect the
// runner's rotation would not cancel), and, for Node servers that answered
// GET /runtime, whether a slow trial allocated more per response or spent
// longer per scavenge (monitor.runtime.gc covers prewarm, warm-up and
// window, so it is divided by all their responses).
//
// Usage: node scripts/aa-pairs.mjs RESULTS_ROOT...   (make bench RESULTS=...)
import fs from 'node:fs';
import path from 'node:path';

const mean = (a) => a.reduce((s, x) => s + x, 0) / a.length;
const sd = (a) => Math.sqrt(a.reduce((s, x) => s + (x - mean(a)) ** 2, 0) / (a.length - 1));
const median = (a) => { const s = [...a].sort((x, y) => x - y); return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2; };
const corr = (x, y) => {
  const mx = mean(x), my = mean(y);
  let sxy = 0, sxx = 0, syy = 0;
  for (let i = 0; i < x.length; i++) { sxy += (x[i] - mx) * (y[i] - my); sxx += (x[i] - mx) ** 2; syy += (y[i] - my) ** 2; }
  return sxy / Math.sqrt(sxx * syy);
};

const bySuite = new Map(); // suite -> {ratios: [], firstFaster: 0, gc: []}
for (const root of process.argv.slice(2)) {
  for (const suite of fs.readdirSync(root)) {
    const dir = path.join(root, suite, 'latest');
    if (!fs.existsSync(dir)) continue;
    const rounds = new Map(); // experiment/round -> run -> trial
    for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.json') && /\.t\d+\.json$/.test(f))) {
      let t;
      try { t = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')); } catch { continue; }
      if (t.status !== 'ok' || !t.load || !t.load.rps) continue;
      const key = `${t.experiment}/${t.round}`;
      if (!rounds.has(key)) rounds.set(key, new Map());
      rounds.get(key).set(t.run, t);
    }
    const s = bySuite.get(suite) ?? { ratios: [], firstFaster: 0, gc: [] };
    bySuite.set(suite, s);
    for (const runs of rounds.values()) {
      for (const [id, twin] of runs) {
        if (!id.endsWith(' A/A') || !runs.has(id.slice(0, -4))) continue;
        const a = runs.get(id.slice(0, -4));
        s.ratios.push(Math.log(a.load.rps / twin.load.rps));
        const [first, second] = Date.parse(a.started) < Date.parse(twin.started) ? [a, twin] : [twin, a];
        if (first.load.rps > second.load.rps) s.firstFaster++;
        for (const t of [a, twin]) {
          const gc = t.monitor?.runtime?.at(-1)?.gc?.minor;
          if (!gc || !gc.count) continue;
          const all = t.load.responses + (t.load.warmup?.responses ?? 0) + (t.prewarm_requests ?? 0);
          s.gc.push({ rps: t.load.rps, perK: (1000 * gc.count) / all, msEach: gc.total_ms / gc.count });
        }
      }
    }
  }
}
for (const [suite, s] of bySuite) {
  if (s.ratios.length < 3) continue;
  let line = `${suite}: ${s.ratios.length} A/A pairs, log ratio sd ${(100 * sd(s.ratios)).toFixed(1)} %, median ${Math.exp(median(s.ratios)).toFixed(3)}; first of the pair faster in ${s.firstFaster}`;
  if (s.gc.length >= 6) {
    const x = s.gc.map((g) => Math.log(g.rps));
    const perK = s.gc.map((g) => g.perK), msEach = s.gc.map((g) => g.msEach);
    line += `; Node GC over ${s.gc.length} trials: scavenges per 1,000 responses ${Math.min(...perK).toFixed(2)}-${Math.max(...perK).toFixed(2)} (corr with log req/s ${corr(x, perK).toFixed(2)}), ms per scavenge ${Math.min(...msEach).toFixed(3)}-${Math.max(...msEach).toFixed(3)} (corr ${corr(x, msEach).toFixed(2)})`;
  }
  console.log(line);
}
