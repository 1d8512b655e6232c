import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { describeGroup, isAlive, parseProcStat, readCmdline, readProcStat } from "./proc.js";

describe("/proc readers", () => {
  it("parses stat lines whose command name holds spaces and parentheses", () => {
    const line =
      "4242 (my (odd) name) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 3 0 987654 1000 200 18446744073709551615";
    expect(parseProcStat(line)).toEqual({ pid: 4242, state: "S", ppid: 1, pgrp: 4242, startTime: "987654" });
  });

  it("reads this process and reports a missing pid as not alive", async () => {
    const me = await readProcStat(process.pid);
    expect(me?.pid).toBe(process.pid);
    expect(me?.startTime).toMatch(/^\d+$/);
    expect((await readCmdline(process.pid))?.[0]).toBeTruthy();
    expect(await isAlive(process.pid)).toBe(true);
    expect(await isAlive(2 ** 22 + 12345)).toBe(false);
  });
});

describe("describeGroup", () => {
  it("names each live process of a group with its pid and state, and nothing once it is gone", async () => {
    // A shell leading its own group, with a sleep under it.
    const child = spawn("/bin/sh", ["-c", "sleep 30 & wait"], { detached: true, stdio: "ignore" });
    const pgid = child.pid!;
    try {
      let text = "";
      for (let i = 0; i < 50 && !text.includes("sleep"); i++) {
        text = await describeGroup(pgid);
        if (!text.includes("sleep")) await new Promise((r) => setTimeout(r, 20));
      }
      expect(text).toMatch(new RegExp(`^sh ${pgid} [RS]`));
      expect(text).toMatch(/, sleep \d+ [RS]/);
    } finally {
      process.kill(-pgid, "SIGKILL");
    }
    await new Promise((r) => child.once("exit", r));
    expect(await describeGroup(pgid)).toBe("");
  });
});
