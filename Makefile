# Targets are named after what they protect. Each one installs the dependencies
# first when node_modules is missing, so a single command works on a fresh clone.

export REDOCLY_TELEMETRY := off
export REDOCLY_SUPPRESS_UPDATE_NOTICE := true

NODE_BIN := node_modules/.bin
MOCK_PORT ?= 4010

.PHONY: install generate check-generated lint typecheck test test-browser build mock demo example size clean

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

install: node_modules/.package-lock.json

generate: install
	node scripts/generate.mjs

check-generated: install
	node scripts/check-generated.mjs

lint: install
	node scripts/lint.mjs

typecheck: install
	$(NODE_BIN)/tsc -p .

# The vitest suite also runs the lint and check-generated gates (tests/generated/drift.test.ts).
test: install typecheck
	$(NODE_BIN)/vitest run

build: install
	$(NODE_BIN)/tsdown

mock: install
	node scripts/mock.mjs --port $(MOCK_PORT)

# The example React app against the mock of the API, on 127.0.0.1; prints the URL, runs until Ctrl-C.
demo: install
	node scripts/demo.mjs --mock-port $(MOCK_PORT)

# Only the example app's build (examples/react-app/dist), pointed at the mock's default address.
example: install
	node scripts/serve-example.mjs --build-only

# Only the browser smoke test (Debian's Chromium; `make test` runs it too).
test-browser: install
	$(NODE_BIN)/vitest run tests/browser

size: install
	node scripts/size.mjs

clean:
	rm -rf dist examples/react-app/dist tests/browser/artifacts
