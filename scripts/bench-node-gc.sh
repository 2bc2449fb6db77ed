#!/usr/bin/env bash
# GC per request of the Node servers with and without the manifest's V8 flags
# (--max-semi-space-size=4 --v8-pool-size=1): each server THREADS=1 with
# --trace-gc, pinned to CPU 0, wrk -t1 -c50 pinned to CPU 1, 1 s of warm-up
# (not counted), then 4 s whose --trace-gc lines are summed: scavenges and
# GC pause milliseconds per 1,000 requests, and mark-sweeps.
# Usage: scripts/bench-node-gc.sh [ROUNDS]   (after `make node`; run under flock on a shared machine)
#   NODE=/path/to/node   another Node than the one on PATH (restbench runtimes lists the pinned ones)
#   BASE='flags...'      flags both sides get;  FLAGS='flags...'  the flags under test ("with")
#   APPS='express'       the servers to measure (default: http express fastify)
cd "$(dirname "$0")/.."
flags=${FLAGS:-'--max-semi-space-size=4 --v8-pool-size=1'}
base=${BASE:-}
node_bin=${NODE:-node}
apps=${APPS:-http express fastify}
tmp=$(mktemp -d)
for body in echo sum; do # POST the fixture, as scripts/bench-ab.sh -b does
  printf 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nlocal f = io.open("%s", "rb")\nwrk.body = f:read("*a")\nf:close()\n' "$PWD/fixtures/$body-body.json" > $tmp/$body.lua
done
printf '%-14s %-7s %-6s %9s %12s %14s %12s\n' impl path flags requests "scav/1k req" "GC ms/1k req" "mark-sweeps"
for round in $(seq "${1:-1}"); do
for app in $apps; do
  for ep in echo sum hello; do
    for f in none "$flags"; do
      [ "$f" = none ] && fl=$base || fl="$base $f"
      script=(); [ $ep != hello ] && script=(-s $tmp/$ep.lua)
      HOST=127.0.0.1 PORT=18591 THREADS=1 setsid taskset -c 0 "$node_bin" $fl --trace-gc servers/node/main.js $app > $tmp/log 2>&1 &
      pid=$!
      for _ in $(seq 100); do curl -sf http://127.0.0.1:18591/status >/dev/null && break; sleep 0.1; done
      taskset -c 1 wrk -t1 -c50 -d1s "${script[@]}" http://127.0.0.1:18591/$ep > /dev/null
      skip=$(wc -l < $tmp/log)
      n=$(taskset -c 1 wrk -t1 -c50 -d4s "${script[@]}" http://127.0.0.1:18591/$ep | awk '/requests in/ {print $1}')
      kill -TERM -- -$pid; wait $pid 2>/dev/null
      tail -n +$((skip + 1)) $tmp/log | awk -v n=$n -v app=node-$app -v ep=/$ep -v f="$([ "$f" != none ] && echo with || echo without)" '
        /: Scavenge/ { s++ } /: Mark-Compact|: Mark-sweep|Mark-Compact/ { m++ }
        / MB, / { x = $0; sub(/.* MB, /, "", x); split(x, a, " "); ms += a[1] }
        END { printf "%-14s %-7s %-7s %9d %12.2f %14.2f %12d\n", app, ep, f, n, s * 1000 / n, ms * 1000 / n, m }'
    done
  done
done
done
rm -rf $tmp
