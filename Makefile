# Targets are named after what they protect. Each one installs the dependencies
# first when node_modules is missing, so a single command works on a fresh clone.

export REDOCLY_TELEMETRY := off
export REDOCLY_SUPPRESS_UPDATE_NOTICE := true

NODE_BIN := node_modules/.bin
MOCK_PORT ?= 4010
EMULATOR_PORT ?= 8102
# The example app's port under `make demo` (the emulator's is EMULATOR_PORT).
DEMO_PORT ?= 5173

.PHONY: install generate check-generated format check-format lint typecheck test test-browser build check-package docs mock emulator demo example size bench clean

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

install: node_modules/.package-lock.json

generate: install
	node scripts/generate.mjs

check-generated: install
	node scripts/check-generated.mjs

# Prettier over the hand-written code (.prettierignore leaves out generated/ and the document).
format: install
	$(NODE_BIN)/prettier --write .

check-format: install
	$(NODE_BIN)/prettier --check --log-level warn .

lint: install
	node scripts/lint.mjs

typecheck: install
	$(NODE_BIN)/tsc -p .

# The vitest suite also runs the lint and check-generated gates (tests/generated/drift.test.ts).
test: install typecheck check-format
	$(NODE_BIN)/vitest run

# `npm run build` (tsdown); `npm pack` and `npm publish` run it too, through `prepack`.
build: install
	npm run build --silent

# The packed package as published: publint (strict) and Are the Types Wrong in node10 (a tsconfig's
# "moduleResolution": "Node"), node16 from ESM and bundler; `require` from CommonJS is left out, as
# stackkit is ESM-only. `make test` runs both on the tarball as well (tests/package/tarball.test.ts).
check-package: install
	npm run check-package --silent

# The API reference (TypeDoc) of every entry, from the sources' TSDoc, into docs/api/index.html.
# Warnings (a broken {@link}, an unknown tag) fail it; `make test` builds it too (tests/docs).
docs: install
	$(NODE_BIN)/typedoc

# Prism's mock of the document (contract tests): every call gets the document's example answer.
mock: install
	node scripts/mock.mjs --port $(MOCK_PORT)

# The stateful emulator of the API (the `stackkit-emulator` bin, run from source) on 127.0.0.1:$(EMULATOR_PORT);
# prints its URLs and development keys, runs until Ctrl-C. More options: make emulator ARGS="--data state.json".
emulator: install
	node scripts/emulator.mjs --port $(EMULATOR_PORT) $(ARGS)

# The example React app on 127.0.0.1, against the emulator (fresh state) or, with STACK_API_URL, STACK_PROJECT_ID and
# STACK_PUBLISHABLE_CLIENT_KEY (environment, or a .env file: see .env.example), a real or self-hosted project.
# Prints the URLs to open, runs until Ctrl-C. The app listens on DEMO_PORT, the emulator on EMULATOR_PORT
# (make demo DEMO_PORT=3000 EMULATOR_PORT=9102); a port already in use gives way to a free one, and the URLs printed say which.
demo: install
	node scripts/demo.mjs --port $(DEMO_PORT) --api-port $(EMULATOR_PORT)

# Only the example app's build (examples/react-app/dist), pointed at the emulator's default address and demo project.
example: install
	node scripts/serve-example.mjs --build-only

# Only the browser smoke test (Debian's Chromium; `make test` runs it too).
test-browser: install
	$(NODE_BIN)/vitest run tests/browser

# The package as users get it (`npm pack`, which builds dist/) bundled into small apps, against the size budgets:
# first load ≤ 40 KB gzip in ≤ 4 files, one file ≤ 60 KB, stackkit/react ≤ +5 KB, stackQueryOptions without the
# operation table; with what each module and dependency weighs in the first load and the one file. Exit 1 when a
# figure is over; not part of `make test`.
size: install
	node scripts/size.mjs

# The emulator's speed and footprint against its budgets (start, ready, requests per second, memory; 100,000 users made
# through the API in memory and with a data file), and the SDK's per-call overhead. ARGS="--quick" for a shorter run.
bench: install
	node --expose-gc scripts/bench.mjs $(ARGS)

clean:
	rm -rf dist docs/api examples/react-app/dist tests/browser/artifacts
