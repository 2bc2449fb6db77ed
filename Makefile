# restbench: `make bench` builds everything and runs the default suites with
# a report; `make test` runs every test. See README.md.
GO      ?= go
SCALE   ?= standard
RESULTS ?= results
SUITES  ?= $(wildcard suites/*.yaml)
GO_IMPLS := nethttp chi gorilla gin fasthttp

.PHONY: setup restbench servers node test test-go fuzz-short test-node verify test-suites bench report clean

setup: restbench servers node

restbench:
	$(GO) build -o bin/restbench ./cmd/restbench

servers:
	@for s in $(GO_IMPLS); do echo "go build bin/servers/go-$$s"; $(GO) build -o bin/servers/go-$$s ./servers/go/$$s || exit 1; done

node: servers/node/node_modules/.package-lock.json

servers/node/node_modules/.package-lock.json: servers/node/package.json servers/node/package-lock.json
	npm ci --prefix servers/node --no-audit --no-fund

# make test: unit and integration tests, the Node servers' own tests,
# contract conformance of every implementation, and every suite at quick
# scale followed by its report.
test: setup test-go fuzz-short test-node verify test-suites

test-go:
	$(GO) vet ./...
	$(GO) test ./...

# A short pass of every fuzz target (scripts/fuzz.sh lists them): 10 s each,
# about two minutes in all with the builds. The long pass: scripts/fuzz.sh.
FUZZ_SHORT ?= 10s
fuzz-short:
	FUZZTIME=$(FUZZ_SHORT) FUZZMINIMIZE=2s scripts/fuzz.sh

test-node:
	cd servers/node && node --test

# The contract is checked on the suites' defaults, node@24 and go@1.27 (on
# Node 24 a 200 MB /filter peaks at 86-96 MB of the 100 MB bound:
# servers/node/README.md).
# Other runtimes: `make verify VERIFY_RUNTIMES=node@20,node@26,bun,deno`.
VERIFY_RUNTIMES ?= node@24,go@1.27
verify:
	bin/restbench verify --runtime $(VERIFY_RUNTIMES)

# A suite with failed trials goes on and is reported; make fails at the end.
test-suites:
	rm -rf $(RESULTS)/quick
	@rc=0; for s in $(SUITES); do echo "== restbench run $$s --scale quick"; bin/restbench run $$s --scale quick --out $(RESULTS)/quick || rc=1; done; \
	bin/restbench report $(RESULTS)/quick || rc=1; exit $$rc

# Results of a machine with more cores (see docs/report.md, "Runs this
# machine cannot run"): every results folder under it, one --with each in
# name order (a suite may have several: cells measured on different days),
# used by the report when the folder holds any.
MULTICORE ?= docs/multicore
WITH := $(foreach d,$(sort $(patsubst %/suite.json,%,$(wildcard $(MULTICORE)/*/*/suite.json))),--with $(d))

# make bench: all suites at $(SCALE) (standard: within 30 minutes on a 2-core
# machine), then the report of the newest results of every suite. RUNFLAGS
# go to every restbench run: RUNFLAGS="--server-cpu 0.5" is the stand-in for
# a machine whose server is half as fast.
RUNFLAGS ?=
bench: setup
	@rc=0; for s in $(SUITES); do echo "== restbench run $$s --scale $(SCALE) $(RUNFLAGS)"; bin/restbench run $$s --scale $(SCALE) --out $(RESULTS) $(RUNFLAGS) || rc=1; done; \
	bin/restbench report $(RESULTS) $(WITH) || rc=1; exit $$rc

report: restbench
	bin/restbench report $(RESULTS) $(WITH)

clean:
	rm -rf bin servers/node/node_modules
