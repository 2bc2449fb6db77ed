#!/usr/bin/env bash
# How much of /time?work=200 the Node event loop thread itself does: ten
# sequential requests to node-http and node-fastify (THREADS=1), then the CPU
# time of the whole process and of its main thread from /proc (10 ms ticks),
# and of each thread. Usage: NODE=/path/to/node scripts/bench-node-thread-clock.sh
cd "$(dirname "$0")/.."
for app in http fastify; do
HOST=127.0.0.1 PORT=18590 THREADS=1 setsid ${NODE:-node} --max-semi-space-size=4 --v8-pool-size=1 servers/node/main.js $app >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do curl -sf http://127.0.0.1:18590/status >/dev/null && break; sleep 0.1; done
t() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "$1"; }
p0=$(t /proc/$pid/stat); m0=$(t /proc/$pid/task/$pid/stat)
for i in $(seq 10); do curl -sf "http://127.0.0.1:18590/time?work=200" >/dev/null; done
p1=$(t /proc/$pid/stat); m1=$(t /proc/$pid/task/$pid/stat)
echo "node-$app 10 x work=200: process $(( (p1-p0)*10 )) ms CPU, main thread $(( (m1-m0)*10 )) ms CPU; threads: $(ls /proc/$pid/task | wc -l)"
for t in /proc/$pid/task/*; do echo "  $(cat $t/comm): $(( $(t $t/stat) * 10 )) ms"; done
kill -TERM -- -$pid; wait $pid 2>/dev/null
done
