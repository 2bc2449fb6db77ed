#!/usr/bin/env bash
# The capacity search against a server that spends 1 ms of CPU per request on
# one thread: go-gorilla with GOMAXPROCS=1 alone on CPU 0, GET /time?work=1
# (1 ms of hashing, measured on the request's thread), the generator on CPU
# 1, 50 connections. On a quiet 2-core machine the search should find
# 700-1,050 req/s (issue 17); the script says whether it did. A shared,
# busy machine gives the server's core to others and finds less.
# Usage: make restbench servers && scripts/bench-capacity.sh [extra capacity flags]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp}/capacity-go-gorilla-work1.json
log=$(mktemp)
PORT=18591 THREADS=1 GOMAXPROCS=1 setsid taskset -c 0 bin/servers/go-gorilla >"$log" 2>&1 &
pid=$!
trap 'kill -TERM -- -$pid 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 100); do curl -sf http://127.0.0.1:18591/status >/dev/null && break; sleep 0.1; done
bin/restbench capacity -c 50 --cpus 1 -d 2s --warmup 500ms --json "$out" "$@" 'http://127.0.0.1:18591/time?work=1'
python3 - "$out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
c = r["capacity_rps"]
print(f"{sys.argv[1]}: capacity_rps {c:.0f} over {len(r['steps'])} steps:",
      "within 700-1,050" if 700 <= c <= 1050 else "OUTSIDE 700-1,050")
PY
