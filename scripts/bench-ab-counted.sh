#!/usr/bin/env bash
# restbench against ab on one -n load without keep-alive: joshuous' Node cell
# (POST /sum, 50,000 requests, 1,000 connections, node-express on the pinned
# node@24 with its default flags, unpinned, as the suite runs it). Each round
# starts a fresh server for each generator (order alternating), warms it up
# for 0.5 s with that generator, then sends the n requests; prints each
# generator's req/s, requests and window, and the ratio restbench/ab per
# round with their median. ab's warm-up is `ab -t 0.5`, a run of its own;
# restbench's is its --warmup, which for -n is a run of its own too.
#
# Usage: scripts/bench-ab-counted.sh [-r 5] [-n 50000] [-c 1000]
# Needs ab (apt-get install apache2-utils) and node@24 (restbench runtimes).
# Run it on a quiet machine: it uses both cores.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=5 n=50000 conns=1000
while getopts "r:n:c:" opt; do
  case $opt in
    r) rounds=$OPTARG ;;
    n) n=$OPTARG ;;
    c) conns=$OPTARG ;;
    *) echo "usage: $0 [-r 5] [-n 50000] [-c 1000]" >&2; exit 2 ;;
  esac
done
command -v ab >/dev/null || { echo "not run: ab is not installed (apt-get install apache2-utils)" >&2; exit 0; }
node=$(bin/restbench runtimes 2>/dev/null | awk '$1=="node@24"' | grep -o '/[^ ]*/bin/node' || true)
[ -n "$node" ] || { echo "not run: node@24 is not installed (restbench run installs it)" >&2; exit 0; }
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
port=18600
start() {
  port=$((port + 1))
  PORT=$port "$node" servers/node/main.js express >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$port/status" && return; sleep 0.1; done
  echo "node-express did not start" >&2; exit 1
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=; sleep 0.5; }
url() { echo "http://127.0.0.1:$port/sum"; }
restbench() {
  start
  bin/restbench load -q -n "$n" -c "$conns" --no-keepalive --warmup 500ms -b @fixtures/sum-body.json \
    -H 'Content-Type: application/json' --json "$tmp/rb$1.json" "$(url)" >/dev/null 2>&1
  stop
}
ab_() {
  start
  ab -q -t 0.5 -n "$n" -c "$conns" -p fixtures/sum-body.json -T application/json "$(url)" >/dev/null 2>&1 || true
  ab -q -n "$n" -c "$conns" -p fixtures/sum-body.json -T application/json "$(url)" >"$tmp/ab$1.txt" 2>&1
  stop
}
for r in $(seq "$rounds"); do
  if [ $((r % 2)) -eq 1 ]; then restbench "$r"; ab_ "$r"; else ab_ "$r"; restbench "$r"; fi
done
python3 - "$tmp" "$rounds" <<'PY'
import json, re, statistics, sys
tmp, rounds = sys.argv[1], int(sys.argv[2])
ratios, p50s = [], []
for r in range(1, rounds + 1):
    rb = json.load(open(f"{tmp}/rb{r}.json"))
    ab = open(f"{tmp}/ab{r}.txt").read()
    ab_rps = float(re.search(r"Requests per second:\s+([\d.]+)", ab).group(1))
    ab_s = float(re.search(r"Time taken for tests:\s+([\d.]+)", ab).group(1))
    ab_p50 = float(re.search(r"^\s*50%\s+(\d+)", ab, re.M).group(1))
    ratios.append(rb["rps"] / ab_rps)
    p50s.append(rb["latency_ms"]["p50"] / ab_p50)
    print(f"round {r}: restbench {rb['rps']:7.0f} req/s ({rb['requests']} requests, {rb['duration_s']:.2f} s, p50 {rb['latency_ms']['p50']:.1f} ms, max {rb['latency_ms']['max']:.0f} ms)"
          f"   ab {ab_rps:7.0f} req/s ({ab_s:.2f} s, p50 {ab_p50:.0f} ms)   restbench/ab req/s {ratios[-1]:.3f}, p50 {p50s[-1]:.3f}")
print(f"median restbench/ab req/s {statistics.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f}), "
      f"p50 {statistics.median(p50s):.3f} (min {min(p50s):.3f}, max {max(p50s):.3f}) over {rounds} rounds (ab's p50 is whole ms)")
PY
