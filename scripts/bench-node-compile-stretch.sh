#!/usr/bin/env bash
# Node's compile stretch counted in requests: a fresh Node server (THREADS=1,
# Node's default flags, pinned to CPU 1), optionally held to a share of its
# CPU by a cgroup quota over 10 ms periods (what `restbench run --server-cpu
# F` does), then 30 closed loops of 100 ms on 100 connections back to back
# (restbench load, pinned to CPU 0): each loop's req/s and the requests
# served so far. Where the req/s levels off is the stretch's end; heysphere's
# and dotchev's prewarm_requests are sized from it (docs/suites.md).
# Usage: scripts/bench-node-compile-stretch.sh [QUOTA] [ROUNDS]   (as root for QUOTA < 1; after make)
#   QUOTA: 1 (default, no cgroup) or the share, e.g. 0.5
#   NODE=/path/to/node   the Node to run (default: the pinned node@24, as the suites run it)
#   FRAMEWORK=express    servers/node/main.js's framework (http for node-http)
#   TARGET=/time  CONNS=100  BODY=@fixtures/echo-body.json (POSTs it)   the load
#   KEEPALIVE=no         a new connection per request (ab without -k)
#   e.g. dotchev's cells: FRAMEWORK=http TARGET=/echo CONNS=10 BODY=@fixtures/echo-body.json
#        fastify's: FRAMEWORK=fastify TARGET=/hello KEEPALIVE=no
cd "$(dirname "$0")/.."
quota=${1:-1}
node_bin=${NODE:-$(bin/restbench runtimes 2>/dev/null | awk '$1 == "node@24" {print $NF}')}
[ -x "$node_bin" ] || node_bin=node
port=18181
framework=${FRAMEWORK:-express}
target=${TARGET:-/time}
conns=${CONNS:-100}
body=()
[ -n "$BODY" ] && body=(-b "$BODY" -H 'Content-Type: application/json')
[ "$KEEPALIVE" = no ] && body+=(--no-keepalive)
cg=""
if [ "$quota" != 1 ]; then
  us=$(awk -v q="$quota" 'BEGIN { print int(q * 10000) }')
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then # cgroup v2
    cg=/sys/fs/cgroup/restbench-compile-stretch
    mkdir -p $cg && echo "$us 10000" > $cg/cpu.max
  else # cgroup v1
    cg=/sys/fs/cgroup/cpu/restbench-compile-stretch
    mkdir -p $cg && echo 10000 > $cg/cpu.cfs_period_us && echo "$us" > $cg/cpu.cfs_quota_us
  fi || { echo "not run: cannot write a cgroup for the quota (run as root)"; exit 0; }
fi
for round in $(seq "${2:-2}"); do
  HOST=127.0.0.1 PORT=$port THREADS=1 taskset -c 1 "$node_bin" servers/node/main.js "$framework" > /dev/null 2>&1 &
  pid=$!
  [ -n "$cg" ] && echo $pid > $cg/cgroup.procs
  for _ in $(seq 100); do curl -sf http://127.0.0.1:$port/status > /dev/null && break; sleep 0.1; done
  total=0
  line=""
  for _ in $(seq 30); do
    n=$(taskset -c 0 bin/restbench load -q -c "$conns" -d 100ms "${body[@]}" --json - "http://127.0.0.1:$port$target" 2> /dev/null |
      python3 -c 'import json, sys; print(json.load(sys.stdin)["responses"])')
    total=$((total + n))
    line="$line $((n / 100))k/s@$((total / 1000))k"
  done
  echo "$framework $target c=$conns keep-alive ${KEEPALIVE:-yes} quota $quota round $round (req/s @ requests so far):$line"
  kill $pid; wait $pid 2> /dev/null
done
[ -n "$cg" ] && rmdir $cg 2> /dev/null
exit 0
