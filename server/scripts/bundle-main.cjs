#!/usr/bin/env node
// bundle/main.js: what `make start` runs. It compiles bundle/server.cjs (the whole server, one CommonJS
// file) with the V8 code cache that the build wrote beside it (server.cjs.cache), so a start skips
// parsing and compiling ~14 MB of JavaScript (Node 20 has no module compile cache; `vm.Script` takes a
// cache). The cache is only used for the exact file it was made from: its header names the file's size
// and modification time, and V8 itself refuses a cache from another Node version or other V8 flags.
// Without a usable cache the server starts as before, only slower.
// CHAINLAUNCH_CODE_CACHE=write (the build) writes the cache when the process exits.
"use strict";
const { performance } = require("node:perf_hooks");
// CHAINLAUNCH_STARTUP_TRACE=1: the first two phases of the start-up trace (server/src/startup-trace.ts).
const trace =
  process.env.CHAINLAUNCH_STARTUP_TRACE === "1"
    ? (globalThis[Symbol.for("chainlaunch.startup-trace")] = {})
    : undefined;
if (trace) trace.node = performance.now();
const { readFileSync, renameSync, statSync, writeFileSync } = require("node:fs");
const { createRequire, wrap } = require("node:module");
const { join } = require("node:path");
const vm = require("node:vm");

const file = join(__dirname, "server.cjs");
const cacheFile = `${file}.cache`;
const stat = statSync(file);
// The header a cache must carry to be used with this file.
const stamp = Buffer.from(`chainlaunch-code-cache ${stat.size} ${Math.round(stat.mtimeMs)}\n`);

function readCache() {
  try {
    const data = readFileSync(cacheFile);
    return data.subarray(0, stamp.length).equals(stamp) ? data.subarray(stamp.length) : undefined;
  } catch {
    return undefined;
  }
}

// The build writes ASCII only, so latin1 reads it right, as a one-byte string and faster than UTF-8.
// The shebang line is no JavaScript inside the CommonJS wrapper.
const source = readFileSync(file, "latin1").replace(/^#!.*/, "");
const script = new vm.Script(wrap(source), { filename: file, cachedData: readCache() });

if (process.env.CHAINLAUNCH_CODE_CACHE === "write") {
  // At exit the cache holds the functions the run compiled too (the build runs `openapi`, which builds
  // the whole app), not only the top level. Written under a new name first: never half a cache.
  process.on("exit", () => {
    const tmp = `${cacheFile}.${process.pid}`;
    writeFileSync(tmp, Buffer.concat([stamp, script.createCachedData()]));
    renameSync(tmp, cacheFile);
  });
}

if (process.env.CHAINLAUNCH_CODE_CACHE === "report") {
  const state = script.cachedDataRejected === undefined ? "none" : script.cachedDataRejected ? "rejected" : "used";
  process.stderr.write(`chainlaunch: code cache ${state}\n`);
}

if (trace) trace.code = performance.now();
const mod = { exports: {}, filename: file, id: file, loaded: false };
script.runInThisContext()(mod.exports, createRequire(file), mod, file, __dirname);
