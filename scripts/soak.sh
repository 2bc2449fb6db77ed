#!/usr/bin/env bash
# Soak: one `restbench load` of MINUTES (default 30) at FRACTION (0.7) of
# the server's capacity (`restbench capacity` finds it) against each
# implementation in turn, the server alone on CPU 0 (THREADS=1), the
# generator on CPU 1. Every 10 s it samples the generator's and the server's
# RSS (the server's whole session: a cluster's workers count); at the end it
# prints a per-minute table (Markdown, for docs/benchmarks.md) of both RSS,
# the achieved rate, the error rate and the latency, and a drift line:
#   rss-grows   an RSS grew in most minutes after the first, by > 1 MB and > 5 %
#   p99-climbs  the last third's p99 is > 1.5x the first third's
# (minute 1, the warm-up, is left out of both when there are more than 3)
#   errors      some minute failed more than 0.1 % of its requests
#   behind-schedule  some minute achieved under 95 % of the rate: the server
#               did not hold it, and the generator queued the rest
# p50 and p99 of a minute are the medians of its seconds' p50 and p99 (the
# result's timeline); the run's .hlog holds every second's whole histogram.
# Usage:
#   make restbench servers && scripts/soak.sh [IMPL...]     # default go-nethttp
#   MINUTES=2 scripts/soak.sh go-nethttp node-http
#   RATE=10000 MINUTES=10 scripts/soak.sh go-nethttp        # a fixed rate, no capacity search
# Other settings: CONNS (50), TARGET (/hello), PORT (18691), OUT (a new /tmp folder).
set -euo pipefail
cd "$(dirname "$0")/.."
MINUTES=${MINUTES:-30}
FRACTION=${FRACTION:-0.7}
CONNS=${CONNS:-50}
TARGET=${TARGET:-/hello}
PORT=${PORT:-18691}
OUT=${OUT:-$(mktemp -d /tmp/soak.XXXXXX)}
impls=("$@")
[ ${#impls[@]} -gt 0 ] || impls=(go-nethttp)
mkdir -p "$OUT"
url="http://127.0.0.1:$PORT$TARGET"

spid=
stop_server() {
	if [ -n "$spid" ]; then
		kill -TERM -- "-$spid" 2>/dev/null || true
		wait "$spid" 2>/dev/null || true # killed by TERM: not the soak's failure
	fi
	spid=
}
trap stop_server EXIT

# rss_kb PID...: the resident memory of the processes, in kB (0 when gone).
rss_kb() { ps -o rss= -p "$(echo "$@" | tr ' ' ,)" 2>/dev/null | awk '{s += $1} END {print s + 0}'; }

for impl in "${impls[@]}"; do
	start=$(bin/restbench impls --json | jq -r --arg id "$impl" '.implementations[] | select(.id == $id) | .start | @sh')
	if [ -z "$start" ]; then
		echo "soak: unknown implementation $impl (restbench impls lists them)" >&2
		exit 2
	fi
	dir=$OUT/$impl
	mkdir -p "$dir"
	PORT=$PORT THREADS=1 setsid taskset -c 0 bash -c "exec $start" >"$dir/server.log" 2>&1 &
	spid=$!
	for _ in $(seq 200); do curl -sf "http://127.0.0.1:$PORT/status" >/dev/null && break; sleep 0.1; done
	curl -sf "http://127.0.0.1:$PORT/status" >/dev/null || { echo "soak: $impl did not answer /status; see $dir/server.log" >&2; exit 1; }

	rate=${RATE:-}
	if [ -z "$rate" ]; then
		bin/restbench capacity -c "$CONNS" --cpus 1 -d 2s --warmup 500ms --json "$dir/capacity.json" "$url" >/dev/null
		rate=$(jq -r --argjson f "$FRACTION" '.capacity_rps * $f | floor' "$dir/capacity.json")
		echo "== $impl: capacity $(jq -r '.capacity_rps | floor' "$dir/capacity.json") req/s; soaking at $rate req/s for $MINUTES min" >&2
	else
		echo "== $impl: soaking at $rate req/s for $MINUTES min" >&2
	fi

	bin/restbench load -q -R "$rate" -c "$CONNS" --max-connections $((CONNS * 4)) --cpus 1 -d "${MINUTES}m" \
		--json "$dir/load.json" --hlog "$dir/load.hlog" "$url" >"$dir/load.txt" &
	lpid=$!
	t0=$(date +%s)
	: >"$dir/rss.tsv"
	while kill -0 "$lpid" 2>/dev/null; do
		srv=$(ps -o pid= --sid "$spid" | tr -s ' \n' ' ')
		printf '%d\t%d\t%d\n' $(($(date +%s) - t0)) "$(rss_kb "$lpid")" "$(rss_kb $srv)" >>"$dir/rss.tsv"
		sleep 10
	done
	wait "$lpid" || echo "soak: the load against $impl failed; see $dir/load.txt" >&2
	stop_server

	python3 - "$impl" "$dir" "$rate" <<'PY'
import json, statistics, sys
impl, d, rate = sys.argv[1], sys.argv[2], sys.argv[3]
tl = json.load(open(f"{d}/load.json")).get("timeline", [])
rss = [tuple(map(int, l.split())) for l in open(f"{d}/rss.tsv") if l.strip()]
minutes = max(len(tl) // 60, 1)
rows = []
for m in range(minutes):
    secs = tl[m * 60:(m + 1) * 60]
    req = sum(s["requests"] for s in secs)
    err = sum(s.get("errors", 0) for s in secs)
    lat = [s for s in secs if s.get("p99")]
    # The RSS at the minute's end: the last sample taken within it.
    at = [r for r in rss if r[0] <= (m + 1) * 60] or rss[:1]
    rows.append(dict(m=m + 1, gen=at[-1][1] / 1024, srv=at[-1][2] / 1024, rps=req / max(len(secs), 1),
                     err=100 * err / req if req else 0.0,
                     p50=statistics.median(s.get("p50", 0) for s in lat) if lat else None,
                     p99=statistics.median(s["p99"] for s in lat) if lat else None))
ms = lambda v: "none" if v is None else f"{v:.2f}"
print(f"\n{impl} at {rate} req/s ({d}):\n")
print("| minute | generator RSS (MB) | server RSS (MB) | req/s | errors | p50 (ms) | p99 (ms) |")
print("|---:|---:|---:|---:|---:|---:|---:|")
for r in rows:
    print(f"| {r['m']} | {r['gen']:.1f} | {r['srv']:.1f} | {r['rps']:,.0f} | {r['err']:.2f} % | {ms(r['p50'])} | {ms(r['p99'])} |")

# Minute 1 holds the warm-up; a soak of 3 minutes or less has too few
# minutes to leave it out.
steady = rows[1:] if len(rows) > 3 else rows
def grows(key):
    s = [r[key] for r in steady]
    if len(s) < 2:
        return False
    ups = sum(b > a for a, b in zip(s, s[1:]))
    return s[-1] - s[0] > max(1.0, 0.05 * s[0]) and ups >= 0.6 * (len(s) - 1)
drift = [f"rss-grows ({k})" for k in ("gen", "srv") if grows(k)]
p99 = [r["p99"] for r in steady if r["p99"] is not None]
if len(p99) >= 2:
    third = max(len(p99) // 3, 1)
    if statistics.median(p99[-third:]) > 1.5 * statistics.median(p99[:third]):
        drift.append("p99-climbs")
if any(r["err"] > 0.1 for r in rows):
    drift.append("errors")
# A server that cannot hold the rate queues arrivals in the generator: its
# latency from the intended send then grows with the backlog whether or not
# the p99 "climbs" between the thirds (node-http's 101 s sat in the middle).
behind = [r["m"] for r in rows if r["rps"] < 0.95 * float(rate)]
if behind:
    drift.append(f"behind-schedule (minutes {', '.join(map(str, behind))}: under 95 % of {float(rate):,.0f} req/s)")
gen = [r["gen"] for r in rows]
if len(gen) > 1:
    print(f"\ngenerator RSS after minute 1: {gen[0]:.1f} -> {gen[-1]:.1f} MB ({(gen[-1] - gen[0]) * 1024:+.0f} kB)")
print("drift:", ", ".join(drift) if drift else "none")
PY
done
