# The commands the README names. Every target installs what it needs first.
SHELL := /bin/bash
.DEFAULT_GOAL := help

.PHONY: help deps build start test check lint typecheck format gen-api

help:
	@echo "make start   install what is missing, build, and serve the console on http://localhost:8100"
	@echo "            (VAULT=1 also installs OpenBao for managed Vault key providers)"
	@echo "make test    install what the tests need and run every tier"
	@echo "make check   format, lint, typecheck, unit tests and generated-file drift"

# make start VAULT=1 also installs the OpenBao server that managed Vault key providers run.
VAULT ?=

deps:
	@scripts/system-deps.sh start
	@if [ -n "$(VAULT)" ]; then scripts/system-deps.sh vault; fi
	@scripts/node-deps.sh

build: deps
	npm run build -w server
	npm run build -w web

start: build
	node server/bundle/main.js serve

lint:
	npx eslint --max-warnings 0 .

# The benches are no workspace: bench/tsconfig.json checks them with the server's sources they import.
typecheck:
	npm run typecheck --workspaces --if-present
	npx tsc -p bench/tsconfig.json

format:
	npx prettier --write .

gen-api:
	scripts/gen-api.sh

check: deps
	npx prettier --check .
	$(MAKE) lint typecheck
	scripts/gen-api.sh --check
	cd server && npx tsx src/main.ts permissions-doc | diff -u ../docs/permissions.md - >/dev/null || (echo "docs/permissions.md is stale: npm run docs:permissions -w server" && exit 1)
	cd server && npx vitest run
	cd web && npx vitest run

# Fabric version the tests run against. The Go module proxy reachable here serves v3.1.0 but refuses the
# pinned v3.1.5 and v2.5.16 pseudo-versions (403 "not available"); see docs/fabric-binaries.md.
TEST_FABRIC_VERSION ?= 3.1.0
export CHAINLAUNCH_E2E_FABRIC_VERSION := $(TEST_FABRIC_VERSION)

# The Fabric build (minutes on a fresh machine, a version check when cached), then the Docker registry
# the Docker tests pull from, run beside the app's build, lint and typecheck; the test tiers wait for them.
test:
	@scripts/system-deps.sh test
	@scripts/node-deps.sh
	@log=$$(mktemp); { scripts/fabric-build.sh $(TEST_FABRIC_VERSION) && scripts/registry-build.sh; } >"$$log" 2>&1 & fabric=$$!; \
	$(MAKE) build && $(MAKE) -j2 --output-sync=target lint typecheck && scripts/gen-api.sh --check; checks=$$?; \
	wait $$fabric; built=$$?; cat "$$log"; rm -f "$$log"; \
	if [ $$built -ne 0 ]; then echo "scripts/fabric-build.sh $(TEST_FABRIC_VERSION) failed"; exit 1; fi; \
	if [ $$checks -ne 0 ]; then exit 1; fi
	scripts/test-all.sh
