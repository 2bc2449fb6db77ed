# restbench: `make bench` builds everything and runs the default suites with
# a report; `make test` runs every test. See README.md.
GO      ?= go
SCALE   ?= standard
GO_IMPLS := nethttp chi gorilla gin fasthttp

.PHONY: setup restbench servers node test bench clean

setup: restbench servers node

restbench:
	$(GO) build -o bin/restbench ./cmd/restbench

servers:
	@for s in $(GO_IMPLS); do echo "go build bin/servers/go-$$s"; $(GO) build -o bin/servers/go-$$s ./servers/go/$$s || exit 1; done

node: servers/node/node_modules/.package-lock.json

servers/node/node_modules/.package-lock.json: servers/node/package.json servers/node/package-lock.json
	npm ci --prefix servers/node --no-audit --no-fund

test: setup
	$(GO) test ./...
	cd servers/node && node --test
	bin/restbench verify

bench: setup
	@echo "restbench run: not yet"

clean:
	rm -rf bin servers/node/node_modules
