#!/usr/bin/env bash
# Cross-check of `restbench load` against wrk (issue 8): the same server,
# pinned to SERVER_CPU with THREADS=1, both generators pinned to CLIENT_CPU
# with one thread, taking turns. Per implementation and connection count,
# ROUNDS rounds of one restbench run and one wrk run, the order swapped every
# round so that neither always follows the other; drift of the machine then
# hits both sides of a pair alike. Prints each pair's ratios
# (restbench / wrk) of req/s and mean latency, then their median, range and a
# 95 % bootstrap interval of the median (seeded, 10,000 resamples).
#
#   scripts/bench-wrk-pairs.sh [DURATION] [ROUNDS]        (default 5s 3)
#   IMPLS="go-nethttp node-express" CONNS="10 100 1000" PATHNAME=/hello
#   BODY=fixtures/echo-body.json PATHNAME=/echo   (POST that file instead of GET;
#   the dotchev cross-check: IMPLS="node-http go-nethttp" CONNS=10, GOMAXPROCS=1)
#
# Both sides measure the same thing: every response completed in the run,
# latency from the write of the request. wrk gets --timeout 30s, restbench's
# default: wrk leaves latencies above its timeout (default 2 s) out of its
# histogram, which at c=1000 would drop the slowest requests from its mean.
# Before each connection count, a 2 s wrk run warms the server (JIT, pools).
set -euo pipefail
cd "$(dirname "$0")/.."
DUR=${1:-5s}
ROUNDS=${2:-3}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
IMPLS=${IMPLS:-go-nethttp node-express}
CONNS=${CONNS:-10 100 1000}
PATHNAME=${PATHNAME:-/hello}
PORT=${PORT:-18080}
BODY=${BODY:-}

command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 1; }
[ -x bin/restbench ] && [ -x bin/servers/go-nethttp ] || { echo "run make setup first (bin/restbench, bin/servers)" >&2; exit 1; }
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
# Node servers run on the pinned default runtime, as the runner starts them,
# not on whatever node is on PATH.
node_bin=$(bin/restbench runtimes --install node@24 | awk '$1 == "node@24" {print $NF}')
[ -x "$node_bin" ] || { echo "node@24 is not installed: bin/restbench runtimes --install node@24" >&2; exit 1; }
export PATH="$(dirname "$node_bin"):$PATH"
tmp=$(mktemp -d)
server=
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

# The same request for both tools: GET, or POST of $BODY as in the engine's
# wrk script (internal/engine/wrk.go).
rb_req=() wrk_req=() method=GET
if [ -n "$BODY" ]; then
	[ -f "$BODY" ] || { echo "BODY=$BODY: no such file" >&2; exit 1; }
	method=POST
	rb_req=(-m POST -b "@$BODY" -H "Content-Type: application/json")
	printf 'wrk.method = "POST"\nlocal f = assert(io.open(\"%s\", "rb"))\nwrk.body = f:read("*a")\nf:close()\nwrk.headers["Content-Type"] = "application/json"\n' "$(realpath "$BODY")" >"$tmp/request.lua"
	wrk_req=(-s "$tmp/request.lua")
fi

# start_cmd ID: the implementation's start command from the manifest.
start_cmd() {
	awk -v id="$1" '$0 ~ "- id: "id"$" {found=1} found && /start:/ {
		sub(/.*start: *\[/, ""); sub(/\].*/, ""); gsub(/, */, " "); print; exit }' servers/implementations.yaml
}

# wrk_ms TEXT: wrk's mean latency ("1.23ms", "850.00us", "1.02s") in ms.
wrk_ms() {
	awk '{v=$1; if (v ~ /us$/) {sub(/us$/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /s$/) {sub(/s$/,"",v); v*=1000}; print v}' <<<"$1"
}

median() { printf "%s\n" "$@" | sort -g | awk '{a[NR]=$1} END{print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
range() { printf "%s\n" "$@" | sort -g | awk 'NR==1{lo=$1} {hi=$1} END{printf "%.2f–%.2f", lo, hi}'; }
ci() { python3 -c 'import random,statistics as s,sys
x=[float(v) for v in sys.argv[1:]]; r=random.Random(1)
m=sorted(s.median(r.choices(x,k=len(x))) for _ in range(10000))
print("%.2f–%.2f" % (m[250], m[9749]))' "$@"; }

echo "server CPU $SERVER_CPU (THREADS=1), generators CPU $CLIENT_CPU (one thread each), $DUR per run, $ROUNDS rounds, $method $PATHNAME${BODY:+ ($BODY)}"
echo "$(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
summary="| impl | c | req/s restbench / wrk: median (range; 95 % interval) | mean latency restbench / wrk: median (range; 95 % interval) |\n|---|---:|---|---|\n"
for impl in $IMPLS; do
	cmd=$(start_cmd "$impl")
	[ -n "$cmd" ] || { echo "$impl is not in servers/implementations.yaml" >&2; exit 1; }
	# shellcheck disable=SC2086 # the manifest's command is a word list
	HOST=127.0.0.1 PORT=$PORT THREADS=1 taskset -c "$SERVER_CPU" $cmd >"$tmp/server.log" 2>&1 &
	server=$!
	url="http://127.0.0.1:$PORT$PATHNAME"
	for _ in $(seq 100); do curl -sf -o /dev/null "${url%$PATHNAME}/status" && break; sleep 0.1; done
	curl -sf -o /dev/null "${url%$PATHNAME}/status" || { echo "$impl did not start:" >&2; cat "$tmp/server.log" >&2; exit 1; }
	for c in $CONNS; do
		taskset -c "$CLIENT_CPU" wrk -t1 -c "$c" -d 2s "${wrk_req[@]}" "$url" >/dev/null
		echo
		echo "**$impl, c=$c**"
		echo
		# The last two columns are Little's law, req/s x mean / c: each tool's
		# own check that its two figures agree (1.00 when they do).
		printf "| round | restbench req/s | wrk req/s | ratio | restbench mean ms | wrk mean ms | ratio | restbench Little | wrk Little |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
		rr=() rl=()
		for r in $(seq "$ROUNDS"); do
			order="rb wrk"
			[ $((r % 2)) -eq 0 ] && order="wrk rb"
			for tool in $order; do
				if [ "$tool" = rb ]; then
					taskset -c "$CLIENT_CPU" bin/restbench load -q -t 1 -c "$c" -d "$DUR" "${rb_req[@]}" --json "$tmp/rb.json" "$url" >/dev/null
					read -r rb_rps rb_ms < <(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['rps'], d['latency_ms']['mean'])" "$tmp/rb.json")
				else
					taskset -c "$CLIENT_CPU" wrk -t1 -c "$c" -d "$DUR" --timeout 30s "${wrk_req[@]}" "$url" >"$tmp/wrk.out"
					wrk_rps=$(awk '/Requests\/sec/ {print $2}' "$tmp/wrk.out")
					wrk_mean=$(wrk_ms "$(awk '$1 == "Latency" {print $2; exit}' "$tmp/wrk.out")")
				fi
			done
			q=$(awk -v a="$rb_rps" -v b="$wrk_rps" 'BEGIN{printf "%.3f", a/b}')
			m=$(awk -v a="$rb_ms" -v b="$wrk_mean" 'BEGIN{printf "%.3f", a/b}')
			rr+=("$q") rl+=("$m")
			printf "| %d | %.0f | %.0f | %.2f | %.3f | %.3f | %.2f | %.2f | %.2f |\n" "$r" "$rb_rps" "$wrk_rps" "$q" "$rb_ms" "$wrk_mean" "$m" \
				"$(awk -v a="$rb_rps" -v b="$rb_ms" -v c="$c" 'BEGIN{print a*b/1000/c}')" "$(awk -v a="$wrk_rps" -v b="$wrk_mean" -v c="$c" 'BEGIN{print a*b/1000/c}')"
		done
		summary+=$(printf "| %s | %d | %.2f (%s; %s) | %.2f (%s; %s) |" "$impl" "$c" "$(median "${rr[@]}")" "$(range "${rr[@]}")" "$(ci "${rr[@]}")" \
			"$(median "${rl[@]}")" "$(range "${rl[@]}")" "$(ci "${rl[@]}")")"\n"
	done
	kill "$server"
	wait "$server" 2>/dev/null || true
	server=
done
echo
echo "Paired ratios restbench / wrk (target: req/s within ±5 %, mean latency within ±15 %):"
echo
printf "%b" "$summary"
