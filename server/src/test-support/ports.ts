import { chmodSync, linkSync, mkdirSync, readFileSync, readdirSync, unlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The one source of ports for tests: nodes, consoles and services alike.
 *
 * - Ports come from 10000-32767, below Linux's ephemeral range (32768-60999), so an outgoing
 *   connection of any process can never be given one between the test choosing it and binding it.
 * - Each port is reserved by a lock file holding the owner's pid (`$TMPDIR/chainlaunch-test-ports`),
 *   so test files running in parallel workers (and two runs on one machine) never get the same one.
 *   A lock whose process is gone is taken over; a process's locks are removed when it exits.
 * - Each port is bound once on 0.0.0.0 before it is handed out, so a port some leftover process
 *   still holds is skipped.
 *
 * No test keeps a fixed range of its own (docs/testing.md, "Ports").
 */
/** Below 10000 live the product's defaults (7050, 7051, 8100, 9443, chaincode servers from 9100): never handed out. */
export const TEST_PORT_POOL = { from: 10_000, to: 32_767 } as const;

const LOCK_DIR = join(tmpdir(), "chainlaunch-test-ports");
const held = new Set<number>();
let cleanupInstalled = false;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function lockPath(port: number): string {
  return join(LOCK_DIR, String(port));
}

/**
 * This process's pid file. A lock is a hard link to it, made in one step, so a lock file always
 * holds its owner's pid (a process killed while writing one can't leave an empty lock).
 */
function ownerFile(): string {
  return join(LOCK_DIR, `.owner-${process.pid}`);
}

/** Takes the lock of `port` for this process; false when another live process holds it. */
function lock(port: number): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      linkSync(ownerFile(), lockPath(port));
      held.add(port);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      let owner = 0;
      try {
        owner = Number(readFileSync(lockPath(port), "utf8"));
      } catch {
        continue; // released meanwhile: try again
      }
      if (!owner || alive(owner)) return false;
      // The owner is gone. (Two processes taking over the same stale lock at the same moment could
      // both succeed; the bind check after the lock, and the sweep at the start of each run, make
      // that vanishingly rare.)
      try {
        unlinkSync(lockPath(port));
      } catch {
        // another process took the stale lock over first
      }
    }
  }
  return false;
}

function unlock(port: number): void {
  if (!held.delete(port)) return;
  try {
    unlinkSync(lockPath(port));
  } catch {
    // already gone
  }
}

function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  mkdirSync(LOCK_DIR, { recursive: true });
  try {
    chmodSync(LOCK_DIR, 0o1777); // shared by every user's test runs, like /tmp
  } catch {
    // made by another user
  }
  writeFileSync(ownerFile(), String(process.pid), { mode: 0o644 });
  process.once("exit", () => {
    for (const port of [...held]) unlock(port);
    try {
      unlinkSync(ownerFile());
    } catch {
      // already gone
    }
  });
}

/** Whether nothing listens on `port` now (bound on every interface, then closed). */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once("error", () => resolve(false));
    srv.listen(port, "0.0.0.0", () => srv.close(() => resolve(true)));
  });
}

/**
 * Reserves `count` consecutive ports and returns the first. They stay this process's until it
 * exits or `releasePorts` is called. Throws when the pool has no such run left.
 */
export async function reservePorts(count = 1): Promise<number> {
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`reservePorts: count must be a positive integer, got ${count}`);
  installCleanup();
  const size = TEST_PORT_POOL.to - TEST_PORT_POOL.from + 1;
  // A random place to start, so parallel processes rarely race for the same ports.
  const start = TEST_PORT_POOL.from + Math.floor(Math.random() * size);
  let tried = 0;
  let first = start;
  while (tried < size) {
    if (first + count - 1 > TEST_PORT_POOL.to) {
      tried += TEST_PORT_POOL.to - first + 1;
      first = TEST_PORT_POOL.from;
      continue;
    }
    const taken: number[] = [];
    let next = 0;
    for (let port = first; port < first + count; port++) {
      if (lock(port) && (await bindable(port))) {
        taken.push(port);
        continue;
      }
      // A port held by a live process is skipped; one we locked but could not bind (a leftover
      // process listens on it) stays locked until we exit, so no one tries it again meanwhile.
      next = port + 1;
      break;
    }
    if (taken.length === count) return first;
    for (const port of taken) unlock(port);
    tried += next - first;
    first = next;
  }
  throw new Error(`no ${count} consecutive free test ports left in ${TEST_PORT_POOL.from}-${TEST_PORT_POOL.to}`);
}

/** One free port (see reservePorts). */
export function freePort(): Promise<number> {
  return reservePorts(1);
}

/** Gives reserved ports back before the process exits (a test that starts and stops many servers). */
export function releasePorts(first: number, count = 1): void {
  for (let port = first; port < first + count; port++) unlock(port);
}

/** The lock files of processes that are gone (for a run's global setup to sweep). */
export function sweepStalePortLocks(): number {
  let removed = 0;
  let names: string[] = [];
  try {
    names = readdirSync(LOCK_DIR);
  } catch {
    return 0;
  }
  for (const name of names) {
    try {
      const file = join(LOCK_DIR, name);
      const owner = Number(readFileSync(file, "utf8"));
      // A lock is a link to its owner's pid file, so one without a pid is no one's.
      if (!owner || !alive(owner)) {
        unlinkSync(file);
        removed++;
      }
    } catch {
      // raced with its owner
    }
  }
  return removed;
}
