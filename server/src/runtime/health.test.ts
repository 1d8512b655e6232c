import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { freePort, releasePorts } from "../test-support/ports.js";
import { processListensOn, tcpProbe } from "./health.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("processListensOn", () => {
  it.skipIf(process.platform !== "linux")(
    "is false until the process itself listens on the port, and false for a process that doesn't own the socket",
    async () => {
      const port = await freePort();
      // Listens after 300 ms, so the probe sees the port closed first.
      const child = spawn(
        process.execPath,
        [
          "-e",
          `setTimeout(() => require("net").createServer().listen(${port}, "127.0.0.1"), 300); setTimeout(() => {}, 30000)`,
        ],
        { detached: true, stdio: "ignore" },
      );
      try {
        const pid = child.pid!;
        expect(await processListensOn(pid, port)).toBe(false);
        let seen = false;
        for (let i = 0; i < 100 && !seen; i++) {
          seen = (await processListensOn(pid, port)) === true;
          if (!seen) await sleep(50);
        }
        expect(seen).toBe(true);
        // Someone listens on the port, but not this process (the probe must not take any listener for ours).
        expect(await processListensOn(process.pid, port)).toBe(false);
        expect(await tcpProbe("127.0.0.1", port)({ pid, signal: new AbortController().signal })).toBe(true);
        expect(await processListensOn(2 ** 22 + 12345, port)).toBe(false);
      } finally {
        child.kill("SIGKILL");
        releasePorts(port);
      }
    },
  );

  it.skipIf(process.platform !== "linux")(
    "is true when a member of the leader's process group listens (a server below its launcher)",
    async () => {
      const port = await freePort();
      const script = `require("net").createServer().listen(${port}, "127.0.0.1"); setTimeout(() => {}, 30000)`;
      // A shell leading its own group, with the listening node below it (the shell doesn't exec it).
      const child = spawn("/bin/sh", ["-c", `"${process.execPath}" -e '${script}' & wait`], {
        detached: true,
        stdio: "ignore",
      });
      try {
        let seen = false;
        for (let i = 0; i < 100 && !seen; i++) {
          seen = (await processListensOn(child.pid!, port)) === true;
          if (!seen) await sleep(50);
        }
        expect(seen).toBe(true);
      } finally {
        process.kill(-child.pid!, "SIGKILL");
        releasePorts(port);
      }
    },
  );
});
