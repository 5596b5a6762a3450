# Bloom Lab. `make run` builds the lab and serves it; `make test` runs every test.

GO      ?= go
WASMDIR := $(shell $(GO) env GOROOT)/lib/wasm
SOURCES := $(shell find core audit app cmd -name '*.go' -not -name '*_test.go') go.mod go.sum
PORT    ?= 8000
SITE    ?= dist
PREFIX  ?=

.PHONY: all build wasm run site test vet unit wasm-test audit-node fuzz browser bench audit-libraries audit-slow golden adapters lighthouse wasm-size clean

all: build wasm

build: bin/bloomlab

bin/bloomlab: $(SOURCES)
	$(GO) build -o $@ ./cmd/bloomlab

# The lab compiled to WebAssembly, stripped; rebuilt only when a source changes.
wasm: web/app.wasm

web/app.wasm: $(SOURCES)
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o $@ ./cmd/bloomlab

run: build wasm
	bin/bloomlab serve --port $(PORT)

site: build wasm
	bin/bloomlab site -o $(SITE) $(if $(PREFIX),--prefix $(PREFIX))

test: vet unit wasm-test audit-node fuzz-short adapters

vet:
	$(GO) vet ./...
	cd compare && $(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./core/... ./audit/... ./app/... ./cmd/...

# Native tests with the race detector; the tests that run whole audits (the
# zoo, the audit command, the audit through the protocol), which skip under
# the detector or in -short, natively; then the browser tests in headless
# Chromium on their own, so the page does not share the two cores with the
# race-instrumented statistical tests. Each run gets
# 30 minutes, past go test's default 10: under the detector core/experiment
# and cmd/bloomlab took four minutes each on a busy two-core machine, and
# the limit is a net for a hang, not a verdict on a slow machine.
unit: wasm
	$(GO) test -race -short -count=1 -timeout 30m ./...
	$(GO) test -count=1 -timeout 30m ./audit/ ./audit/program/ ./cmd/internal/auditcli/
	$(GO) test -count=1 -timeout 30m -run '^TestBrowser' ./cmd/bloomlab
	cd compare && $(GO) test -count=1 -timeout 30m ./...

# The core and the audit under Node: same bits, same digests.
wasm-test:
	PATH="$$PATH:$(WASMDIR)" GOOS=js GOARCH=wasm $(GO) test -count=1 -timeout 30m ./core/... ./audit/...

# The audit command under Node must print the native audit's digest.
audit-node: build
	GOOS=js GOARCH=wasm $(GO) build -o bin/bloomaudit.wasm ./cmd/bloomaudit
	@native=$$(bin/bloomlab audit --json | sed -n 's/^  "digest": "\(.*\)",*$$/\1/p'); \
	node=$$(node $(WASMDIR)/wasm_exec_node.js bin/bloomaudit.wasm --json | sed -n 's/^  "digest": "\(.*\)",*$$/\1/p'); \
	echo "audit digest: native $$native, node $$node"; \
	test -n "$$native" && test "$$native" = "$$node"

# Every fuzzer, ten thousand inputs each in make test and two minutes each
# with make fuzz (FUZZTIME=10m make fuzz for longer). Each is PACKAGE:FUZZER.
# make test counts inputs rather than seconds: on a loaded machine a timed
# run can end while a worker is mid-input and report a deadline, not a bug.
FUZZERS  := ./core:FuzzLoad ./core/keys:FuzzReadKeys ./core/plan:FuzzParseBits ./core/plan:FuzzSolve ./app/settings:FuzzLinks ./app/lessons/lessonfile:FuzzParse
FUZZTIME ?= 2m

fuzz:
	@for f in $(FUZZERS); do \
		echo "fuzz $$f for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$${f#*:}\$$" -fuzztime $(FUZZTIME) "$${f%%:*}" || exit 1; \
	done

fuzz-short:
	@$(MAKE) --no-print-directory fuzz FUZZTIME=10000x

bench:
	cd compare && $(GO) test -run '^$$' -bench . -count 6 .

# Each library of compare/ through the audit: passed, failed and skipped per group.
audit-libraries:
	cd compare && $(GO) run ./cmd/auditlibraries

# Every file that pins the list of checks, rewritten from this run: the
# audit's digests and zoo tables, each library's verdicts, then the README's
# tables and counts read from those verdicts. A new check changes its own
# file and what this rewrites; read the diff, for a verdict that moved is a
# finding. It runs every adapter and fails on one it cannot start; the
# slow libraries' statistics it runs only for checks not yet pinned, as make
# test does not run them (SLOW=1 make golden reruns them, for minutes).
golden:
	$(GO) test -count=1 -timeout 30m -run '^(TestDigestGolden|TestZooTable|TestOutsideZoo)$$' ./audit -update
	cd compare && $(GO) test -count=1 -timeout 30m -run '^(TestLibraryVerdicts|TestProgramVerdicts)$$' . -update $(if $(SLOW),-slow)
	cd compare && $(GO) test -count=1 -run '^(TestReadmeFigures|TestVerdictsCoverEveryCheck)$$' . -update

# The adapters of other languages speak the protocol, each on a scripted
# session, where what they need is installed (.ci/run installs it); the
# Python and C kits' on theirs, with python3 and gcc, always there.
adapters:
	python3 -B compare/adapters/python/selftest.py
	bash compare/adapters/c/kit_selftest.sh
	@if [ -d compare/adapters/js/node_modules ]; then cd compare/adapters/js && node check.js; \
	else echo "adapters: skipping the JavaScript ones: cd compare/adapters/js && npm ci"; fi
	@if [ -f /usr/include/bloom.h ]; then bash compare/adapters/c/selftest.sh; \
	else echo "adapters: skipping libbloom's: apt-get install -y libbloom-dev"; fi
	@if [ -f /usr/share/java/guava.jar ] && command -v javac >/dev/null; then \
	bash compare/adapters/session.sh compare/adapters/java/GuavaAdapter.java compare/adapters/java/guava.session; \
	else echo "adapters: skipping Guava's: apt-get install -y default-jdk-headless libguava-java"; fi
	@if perl -MBloom::Filter -e 1 2>/dev/null; then \
	bash compare/adapters/session.sh compare/adapters/perl/bloom-filter.pl compare/adapters/perl/bloom-filter.session; \
	else echo "adapters: skipping Bloom::Filter's: apt-get install -y libbloom-filter-perl"; fi

# The statistics group of the libraries too slow for it in make test
# (bloom-filters, about 14 µs an operation; Perl's Bloom::Filter, about 27 µs
# an insert; python/example, pure Python, about 28 s for the group), against
# the same pinned verdicts.
audit-slow:
	cd compare && $(GO) test -count=1 -timeout 30m -run '^TestProgramVerdicts$$' -slow .

# Every page through Lighthouse's mobile preset, three runs each (RUNS=5 for
# more), medians printed; Lighthouse 12 from npm, as .lighthouse's lockfile
# pins it. Not part of make test: it measures, it does not judge.
lighthouse: build wasm
	cd .lighthouse && npm ci --no-audit --no-fund
	bash .lighthouse/run.sh

# Where the WebAssembly's bytes go, by Go package: a build with its names
# kept (the release build strips them), read by cmd/wasmsize. It measures.
wasm-size:
	GOOS=js GOARCH=wasm $(GO) build -trimpath -o bin/app-named.wasm ./cmd/bloomlab
	$(GO) run ./cmd/wasmsize bin/app-named.wasm

clean:
	rm -rf bin $(SITE) web/app.wasm
