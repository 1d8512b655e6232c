import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type Docker from "dockerode";
import { inject } from "vitest";
import { buildImage, ensureProgramImage } from "../runtime/docker/images.js";

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const SCRIPT = resolve(here, "../../../scripts/docker-daemon.sh");

/** A Docker engine of the test run's own: its socket and scratch folder. */
export interface TestDocker {
  host: string;
  dir: string;
  stop(): void;
}

/**
 * Starts a dockerd for the run (global setup) with the flags that leave the host's network alone
 * (scripts/docker-daemon.sh), every path in a scratch folder. Throws with the reason when there is
 * no dockerd or it does not start (not root, say).
 */
export async function startTestDocker(extraArgs: string[] = []): Promise<TestDocker> {
  // In memory when /dev/shm is there: image builds write hundreds of MB, and on the shared disk
  // they stalled other tests' processes.
  const dir = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "cl-test-docker-"));
  try {
    const { stdout } = await run("bash", [SCRIPT, "start", dir], {
      timeout: 60_000,
      env: { ...process.env, DOCKERD_EXTRA_ARGS: extraArgs.join(" ") },
    });
    return {
      host: stdout.trim(),
      dir,
      stop() {
        spawnSync("bash", [SCRIPT, "stop", dir], { stdio: "ignore", timeout: 60_000 });
        rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      },
    };
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    rmSync(dir, { recursive: true, force: true });
    throw new Error((e.stderr || e.message).trim().split("\n").slice(-3).join(" "));
  }
}

/**
 * The run's Docker engine for a test file: its `unix://` host, or undefined after printing why the
 * Docker tests of `what` skip.
 */
export function testDockerHost(what: string): string | undefined {
  const host = inject("dockerHost");
  if (!host) console.warn(`${what}: skipped: ${inject("dockerSkipReason")}`);
  return host || undefined;
}

/**
 * Builds `tag` on the engine as an image that sleeps whatever its container's arguments: FROM
 * scratch with the host's `sh` and `sleep` and their libraries. A stand-in for an image that can't
 * be had here (no registry), such as Besu's, to take a node in Docker through the console.
 */
export async function buildStandInImage(docker: Docker, tag: string): Promise<void> {
  const base = await ensureProgramImage(docker, {
    tag: `cl-test/stand-in-base:${process.pid}`,
    programs: ["sh", "sleep"].map((p) => ({ src: `/bin/${p}`, dest: `/bin/${p}` })),
  });
  const ctx = mkdtempSync(join(tmpdir(), "cl-stand-in-"));
  try {
    // sh -c takes the container's arguments as $0, $1…, and ignores them.
    writeFileSync(join(ctx, "Dockerfile"), `FROM ${base}\nENTRYPOINT ["/bin/sh", "-c", "exec sleep 3600"]\n`);
    await buildImage(docker, ctx, tag);
  } finally {
    rmSync(ctx, { recursive: true, force: true });
  }
}
