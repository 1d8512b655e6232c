#!/usr/bin/env bash
# Runs every test tier and prints one closing line: "total: N passed, N failed, N skipped".
#   server: unit + medium tests (real SQLite and a throwaway PostgreSQL, real Fabric nodes)
#   web:    web unit tests
#   e2e:    end-to-end tests (real server, real Chromium)
# Before it, each tier's wall time, CPU time (user+sys of everything it ran) and load average, and
# the slowest files (scripts/test-report.mjs).
#
# TEST_TIERS=sequential runs the tiers one after the other; the default runs web then e2e beside the
# server tier, whose workers spend much of their time waiting on nodes, databases and timers
# (docs/testing.md, "Timings"). The e2e tier's log is printed when it ends.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
reports="$(mktemp -d)"
sampler=""
trap '[ -n "$sampler" ] && kill "$sampler" 2>/dev/null; rm -rf "$reports"' EXIT

# The 1-minute load average every 5 s, for the report's per-tier mean and max.
(while :; do echo "$(date +%s) $(cut -d' ' -f1 /proc/loadavg)" >>"$reports/load.txt"; sleep 5; done) &
sampler=$!

# run_tier NAME DIR: runs vitest in DIR; records "NAME start end cpu-seconds exit-code" in tiers.txt.
# TEST_SERVER_FILTER (vitest file filters, space-separated) narrows the server tier, TEST_SKIP_WEB=1
# leaves out the web tier: scripts/test-stress.sh runs only the slow tiers that way.
run_tier() {
  local name="$1" dir="$2" t0 rc cpu filter=()
  [ "$name" = server ] && read -r -a filter <<<"${TEST_SERVER_FILTER:-}"
  if [ "$name" = web ] && [ "${TEST_SKIP_WEB:-}" = 1 ]; then return 0; fi
  t0=$(date +%s)
  (cd "$root/$dir" && npx vitest run "${filter[@]}" --reporter=default --reporter=json --outputFile="$reports/$name.json")
  rc=$?
  # `times`: this shell's children (vitest and all it waited for), user then system, on line 2.
  times >"$reports/$name.times" # (in a pipe it would run in a subshell with no children)
  cpu=$(sed -n 2p "$reports/$name.times" | awk '{
    split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }')
  echo "$name $t0 $(date +%s) $cpu $rc" >>"$reports/tiers.txt"
  return $rc
}

status=0
# `make test` has just built the server and the web app; the e2e harness need not build again.
export E2E_SKIP_BUILD="${E2E_SKIP_BUILD:-1}"
# A failed browser test writes one line of diagnostics here (e2e/support/failure-diagnostics.ts).
export CHAINLAUNCH_TEST_DIAG="$reports/diag.txt"
if [ "${TEST_TIERS:-parallel}" = sequential ]; then
  for t in server web e2e; do
    echo "=== $t ==="
    (run_tier "$t" "$t") || status=1
  done
else
  echo "=== web, then e2e (beside the server tier; its log follows the server's) ==="
  { echo "=== web ==="; (run_tier web web); echo "=== e2e ==="; (run_tier e2e e2e); } >"$reports/side.log" 2>&1 &
  side=$!
  echo "=== server ==="
  (run_tier server server) || status=1
  wait "$side"
  cat "$reports/side.log"
  grep -q " [1-9][0-9]*$" <(grep -v "^server " "$reports/tiers.txt") && status=1
fi
node "$root/scripts/test-report.mjs" "$reports" "$root"
exit $status
