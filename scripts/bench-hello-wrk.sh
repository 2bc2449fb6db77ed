#!/usr/bin/env bash
# wrk -t1 -c50 -d10s GET /hello against every implementation, one after the
# other: server THREADS=1 pinned to CPU 0, wrk pinned to CPU 1.
# Usage: scripts/bench-hello-wrk.sh [DURATION] [ROUNDS]   (after `make setup`)
set -euo pipefail
cd "$(dirname "$0")/.."
dur=${1:-10s}
rounds=${2:-1}
port=18571
ids=$(awk '/^  - id:/ {print $3}' servers/implementations.yaml)
start_cmd() { # id -> the start argv from the manifest, one word per line
  awk -v id="$1" '$0 ~ "- id: "id"$" {f=1; next} f && /^  - id:/ {f=0} f && /start:/ {print}' servers/implementations.yaml |
    sed -e 's/.*start: *\[//' -e 's/\].*//' -e 's/, */ /g'
}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(uname -r); wrk $(wrk -v 2>&1 | head -1 | awk '{print $2}')"
for r in $(seq "$rounds"); do
  for id in $ids; do
    cmd=$(start_cmd "$id")
    HOST=127.0.0.1 PORT=$port THREADS=1 setsid taskset -c 0 $cmd >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/status" >/dev/null && break; sleep 0.1; done
    rps=$(taskset -c 1 wrk -t1 -c50 -d"$dur" "http://127.0.0.1:$port/hello" | awk '/Requests\/sec/ {print $2}')
    kill -TERM -- -"$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    printf 'round %d  %-14s %10s req/s\n' "$r" "$id" "$rps"
    sleep 1
  done
done
