#!/usr/bin/env bash
# Runs the slow tiers N times in a row (default 3) to shake out flaky tests: the server files that
# start Fabric nodes, federate consoles or run backups, and the browser tier, laid out as
# `make test` lays them out (scripts/test-all.sh). Prints each run's summary and, at the end, every
# failure of every run (or that there were none). Assumes `make test` has installed and built.
#   scripts/test-stress.sh [N]
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-3}"
export CHAINLAUNCH_E2E_FABRIC_VERSION="${CHAINLAUNCH_E2E_FABRIC_VERSION:-3.1.0}"
export TEST_SERVER_FILTER="${TEST_SERVER_FILTER:-e2e.test.ts federation backups}"
export TEST_SKIP_WEB=1
failures="$(mktemp)"
trap 'rm -f "$failures"' EXIT
status=0
for i in $(seq 1 "$runs"); do
  echo "=== stress run $i of $runs: $(date -u +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg) ==="
  log="$(mktemp)"
  "$root/scripts/test-all.sh" >"$log" 2>&1 || status=1
  sed -n '/^FAILED /p; /^tier wall times/,$p' "$log"
  grep '^FAILED ' "$log" | sed "s/^/run $i: /" >>"$failures"
  rm -f "$log"
done
echo "=== stress: $runs runs ==="
if [ -s "$failures" ]; then cat "$failures"; else echo "no failures"; fi
exit $status
