#!/usr/bin/env bash
# Interleaved A/B of two server commands on one endpoint, for before/after
# figures in docs/benchmarks.md. Each round starts A and B one after the
# other (order alternating: AB, BA, AB, ...), each with THREADS=1 pinned to
# CPU 0, warms it up for 1 s, then measures it with wrk pinned to CPU 1.
# Prints req/s and the server's CPU time per request (user+sys from
# /proc/PID/stat over the measured run) for each run, the paired ratios B/A
# per round, and their median and range: compare within a round, since a
# shared machine drifts between rounds.
#
# Usage: scripts/bench-ab.sh [-d 5s] [-r 5] [-c 50] [-b BODY.json] [-H HEADER] [-B] PATH 'A argv' 'B argv'
#   -b   POST this file as the body (Content-Type: application/json)
#   -H   send this request header too, e.g. -H 'Accept-Encoding: gzip'
#   -B   share CPU 0 with a busy shell loop (a noisy neighbour)
# Example: scripts/bench-ab.sh -b fixtures/sum-body.json /sum \
#            'node servers/node/main.js http' 'node --v8-pool-size=1 servers/node/main.js http'
# Run it under `flock /tmp/rb-measure.lock` on a shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."
dur=5s rounds=5 conns=50 body= busy=
headers=()
while getopts "d:r:c:b:H:B" opt; do
  case $opt in
    d) dur=$OPTARG ;;
    r) rounds=$OPTARG ;;
    c) conns=$OPTARG ;;
    b) body=$OPTARG ;;
    H) headers+=(-H "$OPTARG") ;;
    B) busy=1 ;;
    *) echo "usage: $0 [-d 5s] [-r 5] [-c 50] [-b BODY] [-B] PATH 'A argv' 'B argv'" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || { echo "usage: $0 [options] PATH 'A argv' 'B argv'" >&2; exit 2; }
path=$1 a=$2 b=$3
port=18573
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; [ -n "${busy_pid:-}" ] && kill "$busy_pid" 2>/dev/null; true' EXIT

script=("${headers[@]}")
if [ -n "$body" ]; then
  # wrk's Lua reads the body once, at start-up.
  printf 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nlocal f = io.open("%s", "rb")\nwrk.body = f:read("*a")\nf:close()\n' \
    "$(realpath "$body")" >"$tmp/post.lua"
  script+=(-s "$tmp/post.lua")
fi
if [ -n "$busy" ]; then
  taskset -c 0 sh -c 'while :; do :; done' &
  busy_pid=$!
fi

# cpu PID: the process's user+sys CPU time in clock ticks (1/100 s).
cpu() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }

# run ARGV: start the server, warm it up, print the measured req/s and the
# server's CPU microseconds per request.
run() {
  HOST=127.0.0.1 PORT=$port THREADS=1 setsid taskset -c 0 $1 >"$tmp/server.log" 2>&1 &
  local pid=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/status" >/dev/null && break; sleep 0.1; done
  taskset -c 1 wrk -t1 -c"$conns" -d1s "${script[@]}" "http://127.0.0.1:$port$path" >/dev/null
  # The server may still be working on requests the warm-up left in flight
  # (50 × /time?work=5 is 250 ms): wait until its CPU time stops growing,
  # so that the measured CPU is the measured requests' alone (at most 3 s).
  local last=-1 now
  for _ in $(seq 30); do
    now=$(cpu "$pid")
    [ "$now" = "$last" ] && break
    last=$now
    sleep 0.1
  done
  local out c0 c1
  c0=$(cpu "$pid")
  out=$(taskset -c 1 wrk -t1 -c"$conns" -d"$dur" "${script[@]}" "http://127.0.0.1:$port$path")
  c1=$(cpu "$pid")
  kill -TERM -- -"$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if grep -q 'Non-2xx' <<<"$out"; then echo "$out" >&2; echo "error responses from: $1" >&2; exit 1; fi
  awk -v ticks=$((c1 - c0)) '/requests in/ { n = $1 } /Requests\/sec/ { printf "%s %.1f\n", $2, ticks * 10000 / n }' <<<"$out"
}

echo "A: $a"
echo "B: $b"
echo "$path, wrk -t1 -c$conns -d$dur, $rounds rounds${busy:+, CPU 0 shared with a busy loop}; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %11s %11s %7s   %11s %11s %7s\n' round "A req/s" "B req/s" "B/A" "A us CPU/r" "B us CPU/r" "B/A"
for r in $(seq "$rounds"); do
  if [ $((r % 2)) -eq 1 ]; then ra=$(run "$a"); rb=$(run "$b"); else rb=$(run "$b"); ra=$(run "$a"); fi
  echo "$ra $rb" >>"$tmp/pairs" # A req/s, A CPU/request, B req/s, B CPU/request
  awk -v r="$r" '{ printf "%-6s %11s %11s %7.3f   %11s %11s %7.3f\n", r, $1, $3, $3 / $1, $2, $4, $4 / $2 }' <<<"$ra $rb"
done
# summary COLUMN-A COLUMN-B NAME: median and range of the paired ratios.
summary() {
  awk -v a="$1" -v b="$2" '{ print $b / $a }' "$tmp/pairs" | sort -g | awk -v name="$3" '{ r[NR] = $1 } END {
    med = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
    printf "B/A %s: median %.3f, range %.3f..%.3f over %d rounds\n", name, med, r[1], r[NR], NR
  }'
}
summary 1 3 "req/s"
summary 2 4 "CPU/request"
