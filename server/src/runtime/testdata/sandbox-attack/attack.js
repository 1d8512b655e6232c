"use strict";
// Runs inside the sandbox (as a build step and as a chaincode server) and tries what user code must
// never do: read the console's master key, database and other workloads' keys, list its data dir,
// write outside its own folder and signal the console. Each attempt is recorded in results-<phase>.json
// in its own folder; "ok: true" for an attack means the boundary failed.
const fs = require("fs");
const path = require("path");

function attempt(fn) {
  try {
    const value = fn();
    return { ok: true, value: value === undefined ? null : String(value).slice(0, 80) };
  } catch (err) {
    return { ok: false, error: err.code || err.message };
  }
}

module.exports = function attack(phase) {
  // What an attacker would guess or learn; the test writes it beside the code.
  const aim = JSON.parse(fs.readFileSync(path.join(__dirname, "aim.json"), "utf8"));
  const data = aim.dataDir;
  const consolePid = aim.consolePid;
  const escape = aim.escapeFile;
  const results = {
    phase,
    uid: process.getuid(),
    envKeys: Object.keys(process.env).sort(),
    readMasterKey: attempt(() => fs.readFileSync(path.join(data, "master.key"), "utf8")),
    openDatabase: attempt(() => {
      const fd = fs.openSync(path.join(data, "chainlaunch.db"), "r");
      const b = Buffer.alloc(16);
      fs.readSync(fd, b, 0, 16, 0);
      return b.toString("latin1");
    }),
    readOtherKey: attempt(() => fs.readFileSync(aim.otherKey, "utf8")),
    listDataDir: attempt(() => fs.readdirSync(data).join(",")),
    writeDataDir: attempt(() => fs.writeFileSync(path.join(data, "pwned"), "x")),
    writeEscapeFile: attempt(() => fs.writeFileSync(escape, "x")),
    signalConsole: attempt(() => process.kill(consolePid, "SIGCONT")),
    seeConsoleInProc: attempt(() => fs.readFileSync(`/proc/${consolePid}/cmdline`, "utf8")),
    writeOwnFolder: attempt(() => {
      fs.writeFileSync(path.join(process.cwd(), `own-${phase}.txt`), phase);
      return fs.readFileSync(path.join(process.cwd(), `own-${phase}.txt`), "utf8");
    }),
  };
  fs.writeFileSync(path.join(process.cwd(), `results-${phase}.json`), JSON.stringify(results, null, 2));
};

if (require.main === module) module.exports(process.argv[2] || "build");
