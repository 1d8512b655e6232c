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
node -e '
const fs = require("fs"), path = require("path");
let passed = 0, failed = 0, skipped = 0;
const slow = [];
for (const f of fs.readdirSync(process.argv[1])) {
  if (!f.endsWith(".json")) continue;
  const r = JSON.parse(fs.readFileSync(path.join(process.argv[1], f), "utf8"));
  passed += r.numPassedTests; failed += r.numFailedTests;
  skipped += (r.numPendingTests || 0) + (r.numTodoTests || 0);
  if (!r.success && r.numFailedTests === 0) failed += 1;
  // Name every failure again here, so the last lines of a long run say what failed.
  for (const file of r.testResults || []) {
    const rel = path.basename(f, ".json") + ": " + path.relative(process.argv[2], file.name);
    if (file.endTime && file.startTime) slow.push([file.endTime - file.startTime, rel]);
    if (file.status === "failed" && !(file.assertionResults || []).some((a) => a.status === "failed")) {
      console.log(`FAILED ${rel}: ${(file.message || "").split("\n")[0].slice(0, 300)}`);
    }
    for (const a of file.assertionResults || []) {
      if (a.status !== "failed") continue;
      let msg = ((a.failureMessages || [])[0] || "").split("\n")[0];
      // vitest reports a timeout with the stack of the call site, whose first line says nothing.
      if (msg === "Error: STACK_TRACE_ERROR") msg = `timed out (vitest timeout) after ${Math.round(a.duration || 0)} ms`;
      console.log(`FAILED ${rel} > ${a.fullName}: ${msg.slice(0, 300)}`);
    }
  }
}
// Where the time goes: the wall time of each tier and the slowest files (docs/testing.md keeps the table).
const tiers = path.join(process.argv[1], "tiers.txt");
if (fs.existsSync(tiers)) {
  console.log("tier wall times:");
  for (const line of fs.readFileSync(tiers, "utf8").trim().split("\n")) {
    const [name, secs] = line.split(" ");
    console.log(`  ${name.padEnd(8)} ${Math.floor(secs / 60)}m${String(secs % 60).padStart(2, "0")}s`);
  }
}
console.log("slowest test files (wall time in their worker):");
for (const [ms, rel] of slow.sort((a, b) => b[0] - a[0]).slice(0, 15)) {
  console.log(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${rel}`);
}
console.log(`total: ${passed} passed, ${failed} failed, ${skipped} skipped`);
' "$reports" "$root"
exit $status
