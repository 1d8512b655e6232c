#!/usr/bin/env node
// The closing summary of scripts/test-all.sh, from the tiers' vitest JSON reports:
//   node scripts/test-report.mjs <reports dir> <repo root>
// Prints a FAILED line per failure, each tier's wall time, the 15 slowest files and the total.
// With TEST_DURATIONS_UPDATE=1 it also rewrites server/test-durations.json (seconds per server test
// file), which server/vitest.sequencer.ts reads to start the longest files first.
import fs from "node:fs";
import path from "node:path";

const [reports, root] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
const slow = [];
const serverDurations = {};
for (const f of fs.readdirSync(reports)) {
  if (!f.endsWith(".json")) continue;
  const tier = path.basename(f, ".json");
  const r = JSON.parse(fs.readFileSync(path.join(reports, f), "utf8"));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += (r.numPendingTests || 0) + (r.numTodoTests || 0);
  if (!r.success && r.numFailedTests === 0) failed += 1;
  for (const file of r.testResults || []) {
    const rel = `${tier}: ${path.relative(root, file.name)}`;
    if (file.endTime && file.startTime) {
      slow.push([file.endTime - file.startTime, rel]);
      if (tier === "server") {
        serverDurations[path.relative(path.join(root, "server"), file.name)] =
          Math.round((file.endTime - file.startTime) / 100) / 10;
      }
    }
    // Name every failure again here, so the last lines of a long run say what failed.
    if (file.status === "failed" && !(file.assertionResults || []).some((a) => a.status === "failed")) {
      // No failed test and no file error: a describe block's hook (beforeAll/afterAll) failed.
      const why = (file.message || "").split("\n")[0].slice(0, 300) || "a suite hook failed (see the tier's log)";
      console.log(`FAILED ${rel}: ${why}`);
    }
    for (const a of file.assertionResults || []) {
      if (a.status !== "failed") continue;
      let msg = ((a.failureMessages || [])[0] || "").split("\n")[0];
      // vitest reports a timeout with the stack of the call site, whose first line says nothing.
      if (msg === "Error: STACK_TRACE_ERROR")
        msg = `timed out (vitest timeout) after ${Math.round(a.duration || 0)} ms`;
      console.log(`FAILED ${rel} > ${a.fullName}: ${msg.slice(0, 300)}`);
    }
  }
}
// What a failed browser test saw (e2e/support/failure-diagnostics.ts), shortened to fit the tail.
const diag = path.join(reports, "diag.txt");
if (fs.existsSync(diag))
  for (const line of fs.readFileSync(diag, "utf8").trim().split("\n").slice(0, 6))
    console.log(`  ${line.slice(0, 600)}`);
// Where the time goes: the wall time of each tier and the slowest files (docs/testing.md keeps the table).
const tiers = path.join(reports, "tiers.txt");
const load = fs.existsSync(path.join(reports, "load.txt"))
  ? fs
      .readFileSync(path.join(reports, "load.txt"), "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split(" ").map(Number))
  : [];
if (fs.existsSync(tiers)) {
  console.log("tier wall times (CPU = user+sys of all it ran; load = 1-min load average, sampled every 5 s):");
  for (const line of fs.readFileSync(tiers, "utf8").trim().split("\n")) {
    const [name, start, end, cpu] = line.split(" ");
    const secs = Number(end) - Number(start);
    const during = load.filter(([t]) => t >= Number(start) && t <= Number(end)).map(([, l]) => l);
    const mean = during.length ? (during.reduce((a, b) => a + b, 0) / during.length).toFixed(1) : "?";
    const max = during.length ? Math.max(...during).toFixed(1) : "?";
    console.log(
      `  ${name.padEnd(8)} ${Math.floor(secs / 60)}m${String(secs % 60).padStart(2, "0")}s  ` +
        `CPU ${Math.floor(cpu / 60)}m${String(cpu % 60).padStart(2, "0")}s  load mean ${mean} max ${max}`,
    );
  }
}
console.log("slowest test files (wall time in their worker):");
for (const [ms, rel] of slow.sort((a, b) => b[0] - a[0]).slice(0, 15)) {
  console.log(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${rel}`);
}
if (process.env.TEST_DURATIONS_UPDATE === "1" && Object.keys(serverDurations).length > 0) {
  const sorted = Object.fromEntries(Object.entries(serverDurations).sort((a, b) => b[1] - a[1]));
  fs.writeFileSync(path.join(root, "server", "test-durations.json"), `${JSON.stringify(sorted, null, 2)}\n`);
  console.log("wrote server/test-durations.json");
}
console.log(`total: ${passed} passed, ${failed} failed, ${skipped} skipped`);
