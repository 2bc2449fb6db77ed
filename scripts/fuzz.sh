#!/usr/bin/env bash
# Runs every Go fuzz target for FUZZTIME each (default 5m), one after another
# on one worker (-parallel 1), so a shared machine keeps its other cores.
# `make test` runs a short pass (make fuzz-short: 10 s each); the long one is
# this script's default. A crash is written to the package's
# testdata/fuzz/<Target>/ and then runs as a regular test case in `go test`;
# keep it there once fixed. FUZZMINIMIZE bounds the time spent shrinking a
# new input (go's default, 60s, would take a short pass whole).
#   scripts/fuzz.sh                  # all targets, 5 minutes each
#   FUZZTIME=30s scripts/fuzz.sh FuzzSum
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-5m}
FUZZMINIMIZE=${FUZZMINIMIZE:-60s}
# Every parser a user or a server feeds restbench.
targets=(
	"./servers/go/service FuzzEcho"
	"./servers/go/service FuzzSum"
	"./servers/go/service FuzzFilter"
	"./servers/go/service FuzzParseTime"
	"./internal/load FuzzResponse"
	"./internal/load FuzzMix"
	"./internal/suite FuzzSuite"
	"./internal/threshold FuzzParse"
	"./internal/report FuzzResults"
	"./cmd/restbench FuzzProbe"
)
rc=0
for t in "${targets[@]}"; do
	read -r pkg name <<<"$t"
	if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
	start=$(date +%s)
	echo "== $name ($pkg) for $FUZZTIME"
	if ! go test "$pkg" -run '^$' -fuzz "^$name\$" -fuzztime "$FUZZTIME" -fuzzminimizetime "$FUZZMINIMIZE" -parallel 1; then
		echo "== $name FAILED: the crasher is in $pkg/testdata/fuzz/$name/" >&2
		rc=1
	fi
	echo "== $name ran $(( $(date +%s) - start )) s"
done
exit $rc
