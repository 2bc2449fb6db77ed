#!/usr/bin/env bash
# What the monitor costs the server it watches: one run of a suite measured
# in interleaved blocks by two builds of restbench, OLD (default 14e0433,
# whose monitor asked the server's GET /runtime every 250 ms of the load)
# and the working tree's (one reading after the load, monitor.ReadRuntime),
# then each build's req/s over all its trials (A/A twins included) and the
# median. Nothing else differs between the builds' trials but what came
# after OLD (see git log OLD..), so check that first.
# Usage: scripts/bench-monitor-cost.sh [SUITE] [ONLY] [BLOCKS] [TRIALS]   (after make; as root for a suite's quota)
#   e.g. scripts/bench-monitor-cost.sh suites/dotchev-echo.yaml "single-thread/node-http" 2 4
#        scripts/bench-monitor-cost.sh suites/fastify-fasthttp.yaml "node-fastify c=100" 3 2
#   OLD=<rev>   the build to compare with
set -e
cd "$(dirname "$0")/.."
suite=${1:-suites/dotchev-echo.yaml}
only=${2:-single-thread/node-http}
blocks=${3:-2}
trials=${4:-4}
old=${OLD:-14e0433}
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/old" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
git worktree add --detach "$tmp/old" "$old" >/dev/null 2>&1
(cd "$tmp/old" && go build -o "$tmp/restbench-old" ./cmd/restbench)
go build -o "$tmp/restbench-new" ./cmd/restbench
for b in $(seq "$blocks"); do
  for side in old new; do
    "$tmp/restbench-$side" run -q --out "$tmp/$side$b" --only "$only" --trials "$trials" "$suite" > /dev/null 2>&1 ||
      echo "block $b, $side: restbench run failed (see $tmp/$side$b)"
  done
done
for side in old new; do
  python3 - "$tmp" "$side" <<'EOF'
import glob, json, sys
tmp, side = sys.argv[1], sys.argv[2]
v = []
for f in sorted(glob.glob(f"{tmp}/{side}[0-9]*/*/latest/*.json")):
    t = json.load(open(f))
    if t.get("status") == "ok" and t.get("load"):
        v.append(round(t["load"]["rps"]))
v.sort()
print(f"{side}: {len(v)} trials, req/s median {v[len(v)//2] if v else '-'} (min {v[0] if v else '-'}, max {v[-1] if v else '-'})")
EOF
done
