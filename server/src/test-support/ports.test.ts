import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { freePort, releasePorts, reservePorts, TEST_PORT_POOL } from "./ports.js";

const SERVER_DIR = resolve(import.meta.dirname, "../..");
const lockFile = (port: number): string => join(tmpdir(), "chainlaunch-test-ports", String(port));
const inPool = (port: number): boolean => port >= TEST_PORT_POOL.from && port <= TEST_PORT_POOL.to;

/** Makes the next reservePorts start its search at `port` (it starts at a random place of the pool). */
function startAt(port: number): void {
  const size = TEST_PORT_POOL.to - TEST_PORT_POOL.from + 1;
  vi.spyOn(Math, "random").mockReturnValue((port - TEST_PORT_POOL.from + 0.5) / size);
}

/**
 * A process that, once told "go", reserves 20 blocks of 5 ports all starting their search at the
 * same place of the pool (the worst case for a race), prints them and holds them until its stdin ends.
 */
function reserver(): { child: ChildProcess; ready: Promise<void>; ports: Promise<number[]> } {
  const script = `
    const { reservePorts } = await import(${JSON.stringify(join(SERVER_DIR, "src/test-support/ports.ts"))});
    Math.random = () => 0.5;
    process.stdout.write("ready\\n");
    process.stdin.once("data", async () => {
      const got = [];
      for (let i = 0; i < 20; i++) {
        const first = await reservePorts(5);
        for (let p = first; p < first + 5; p++) got.push(p);
      }
      process.stdout.write(JSON.stringify(got) + "\\n");
    });
    process.stdin.once("end", () => process.exit(0));
  `;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: SERVER_DIR,
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  let onReady: () => void = () => undefined;
  let onPorts: (p: number[]) => void = () => undefined;
  const ready = new Promise<void>((r) => (onReady = r));
  const ports = new Promise<number[]>((r, reject) => {
    onPorts = r;
    child.once("exit", (code) => reject(new Error(`reserver exited with ${code} before printing its ports: ${out}`)));
  });
  child.stdout?.on("data", (d: Buffer) => {
    out += d.toString();
    if (out.includes("ready\n")) onReady();
    const line = out.split("\n").find((l) => l.startsWith("["));
    if (line) onPorts(JSON.parse(line) as number[]);
  });
  return { child, ready, ports };
}

const servers: Server[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

describe("the test port allocator", () => {
  it("never gives two processes reserving at the same time the same port", { timeout: 60_000 }, async () => {
    const a = reserver();
    const b = reserver();
    try {
      await Promise.all([a.ready, b.ready]);
      a.child.stdin?.write("go\n");
      b.child.stdin?.write("go\n");
      const [pa, pb] = await Promise.all([a.ports, b.ports]);
      expect(pa).toHaveLength(100);
      expect(pb).toHaveLength(100);
      expect(new Set([...pa, ...pb]).size).toBe(200);
      for (const port of [...pa, ...pb]) expect(inPool(port), String(port)).toBe(true);
    } finally {
      a.child.stdin?.end();
      b.child.stdin?.end();
    }
  });

  it("skips a port something listens on", async () => {
    const port = await freePort();
    const busy = createServer();
    servers.push(busy);
    await new Promise<void>((r) => busy.listen(port, "127.0.0.1", r));
    releasePorts(port); // no lock any more, only the listener
    startAt(port);
    const got = await reservePorts(1);
    expect(got).not.toBe(port);
    expect(inPool(got)).toBe(true);
  });

  it("takes over the lock of a process that is gone", async () => {
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    const port = await freePort();
    releasePorts(port);
    writeFileSync(lockFile(port), String(dead), { flag: "wx" });
    startAt(port);
    expect(await reservePorts(1)).toBe(port);
    expect(readFileSync(lockFile(port), "utf8")).toBe(String(process.pid));
  });

  it("keeps a live process's lock and hands out consecutive ports inside the pool", async () => {
    const first = await reservePorts(3);
    expect(inPool(first) && inPool(first + 2)).toBe(true);
    for (let p = first; p < first + 3; p++) expect(readFileSync(lockFile(p), "utf8")).toBe(String(process.pid));
    startAt(first);
    const next = await reservePorts(1);
    expect(next < first || next > first + 2).toBe(true);
    releasePorts(first, 3);
    expect(() => readFileSync(lockFile(first))).toThrow(/ENOENT/);
  });

  it("refuses a count that is not a positive integer", async () => {
    await expect(reservePorts(0)).rejects.toThrow(/positive integer/);
    await expect(reservePorts(1.5)).rejects.toThrow(/positive integer/);
  });
});
