#!/usr/bin/env bash
# Throughput of `restbench load` against wrk on the same server (issue 3):
# a Go net/http hello server pinned to CPU 0 with GOMAXPROCS=1, each
# generator pinned to CPU 1, -c 50, alternating restbench and wrk for
# ROUNDS rounds. Prints req/s and CPU-seconds per request (user+sys of the
# generator process, from /usr/bin/time) and the medians' ratios.
#
#   scripts/bench-load-vs-wrk.sh [DURATION] [ROUNDS]     (default 10s 3)
set -euo pipefail
cd "$(dirname "$0")/.."
DUR=${1:-10s}
ROUNDS=${2:-3}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
CONNS=${CONNS:-50}

command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing (apt-get install -y time)" >&2; exit 1; }
tmp=$(mktemp -d)
go build -o "$tmp/restbench" ./cmd/restbench
go build -o "$tmp/hello" ./internal/load/testdata/hello

GOMAXPROCS=1 taskset -c "$SERVER_CPU" "$tmp/hello" -addr 127.0.0.1:0 >"$tmp/addr" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do [ -s "$tmp/addr" ] && break; sleep 0.1; done
url="http://$(cat "$tmp/addr")/"
echo "server: Go net/http hello, GOMAXPROCS=1, CPU $SERVER_CPU, $url"
echo "generators: CPU $CLIENT_CPU, -c $CONNS -d $DUR, $ROUNDS rounds; $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo
printf "| round | tool | requests | req/s | CPU s | µs CPU/request | server µs CPU/request |\n|---|---|---|---|---|---|---|\n"

# cpu_of FILE: user+sys seconds that /usr/bin/time -f "%U %S" wrote last.
cpu_of() { tail -1 "$1" | awk '{print $1 + $2}'; }
# server_ticks: user+sys clock ticks of the server so far.
server_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
hz=$(getconf CLK_TCK)

declare -a rb_rps rb_cpr wrk_rps wrk_cpr
for r in $(seq "$ROUNDS"); do
	s0=$(server_ticks)
	/usr/bin/time -o "$tmp/t" -f "%U %S" taskset -c "$CLIENT_CPU" \
		"$tmp/restbench" load -q -c "$CONNS" -d "$DUR" --json "$tmp/rb.json" "$url" >/dev/null
	read -r n rps < <(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['requests'], d['rps'])" "$tmp/rb.json")
	cpu=$(cpu_of "$tmp/t")
	cpr=$(awk -v c="$cpu" -v n="$n" 'BEGIN{printf "%.2f", c*1e6/n}')
	rb_rps+=("$rps"); rb_cpr+=("$cpr")
	spr=$(awk -v t="$(( $(server_ticks) - s0 ))" -v hz="$hz" -v n="$n" 'BEGIN{printf "%.2f", t/hz*1e6/n}')
	printf "| %d | restbench | %d | %.0f | %.2f | %s | %s |\n" "$r" "$n" "$rps" "$cpu" "$cpr" "$spr"

	s0=$(server_ticks)
	/usr/bin/time -o "$tmp/t" -f "%U %S" taskset -c "$CLIENT_CPU" \
		wrk -t1 -c "$CONNS" -d "$DUR" "$url" >"$tmp/wrk.out"
	n=$(awk '/requests in/ {print $1}' "$tmp/wrk.out")
	rps=$(awk '/Requests\/sec/ {print $2}' "$tmp/wrk.out")
	cpu=$(cpu_of "$tmp/t")
	cpr=$(awk -v c="$cpu" -v n="$n" 'BEGIN{printf "%.2f", c*1e6/n}')
	wrk_rps+=("$rps"); wrk_cpr+=("$cpr")
	spr=$(awk -v t="$(( $(server_ticks) - s0 ))" -v hz="$hz" -v n="$n" 'BEGIN{printf "%.2f", t/hz*1e6/n}')
	printf "| %d | wrk | %d | %.0f | %.2f | %s | %s |\n" "$r" "$n" "$rps" "$cpu" "$cpr" "$spr"
done

median() { printf "%s\n" "$@" | sort -g | awk '{a[NR]=$1} END{print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
mr=$(median "${rb_rps[@]}"); mw=$(median "${wrk_rps[@]}")
cr=$(median "${rb_cpr[@]}"); cw=$(median "${wrk_cpr[@]}")
echo
awk -v a="$mr" -v b="$mw" -v c="$cr" -v d="$cw" 'BEGIN{
	printf "median req/s: restbench %.0f, wrk %.0f -> %.2fx wrk\n", a, b, a/b
	printf "median CPU per request: restbench %.2f us, wrk %.2f us -> %.2fx wrk\n", c, d, c/d }'
