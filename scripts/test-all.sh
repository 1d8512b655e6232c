#!/usr/bin/env bash
# Runs every test tier and prints one closing line: "total: N passed, N failed, N skipped".
#   tier 1: server unit + medium tests (real SQLite and a throwaway PostgreSQL)
#   tier 2: web unit tests
#   tier 3: end-to-end tests (real server, real Chromium)
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
reports="$(mktemp -d)"
trap 'rm -rf "$reports"' EXIT
status=0
run_tier() {
  local name="$1" dir="$2" t0
  echo "=== $name ==="
  t0=$(date +%s)
  if ! (cd "$root/$dir" && npx vitest run --reporter=default --reporter=json --outputFile="$reports/$name.json"); then
    status=1
  fi
  echo "$name $(($(date +%s) - t0))" >>"$reports/tiers.txt"
}
run_tier server server
run_tier web web
# `make test` has just built the server and the web app; the e2e harness need not build again.
E2E_SKIP_BUILD="${E2E_SKIP_BUILD:-1}" run_tier e2e e2e
node "$root/scripts/test-report.mjs" "$reports" "$root"
exit $status
