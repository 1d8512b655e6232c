import { execFile, spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { releasePorts, reservePorts } from "./ports.js";

const run = promisify(execFile);

/** The Docker registry (distribution) the tests build from the Go module proxy. */
export const REGISTRY_MODULE = "github.com/distribution/distribution/v3/cmd/registry";
export const REGISTRY_VERSION = "v3.1.2";

/** `~/.cache/chainlaunch/registry/<version>/registry`, where the built binary is kept between runs. */
export function cachedRegistryPath(version = REGISTRY_VERSION, home = process.env.HOME || homedir()): string {
  return join(home, ".cache", "chainlaunch", "registry", version, "registry");
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `go` on PATH, else Go's usual install folder. */
async function findGo(): Promise<string | undefined> {
  for (const go of ["go", "/usr/local/go/bin/go"]) {
    try {
      await run(go, ["version"]);
      return go;
    } catch {
      // next
    }
  }
  return undefined;
}

/**
 * The registry binary: the cached one, else built once with `go install <module>@<version>` (CGO
 * off) into the cache (a few minutes the first time). Undefined after printing why the tests of
 * `what` skip (no Go, or the build failed).
 */
export async function registryBinary(what: string, version = REGISTRY_VERSION): Promise<string | undefined> {
  const target = cachedRegistryPath(version);
  if (executable(target)) return target;
  const go = await findGo();
  if (!go) {
    console.warn(`${what}: skipped: no \`go\` to build the Docker registry (${REGISTRY_MODULE}@${version})`);
    return undefined;
  }
  mkdirSync(join(target, ".."), { recursive: true });
  // Built beside its place and renamed there, so a parallel run never sees half a binary.
  const scratch = mkdtempSync(join(target, "..", ".build-"));
  try {
    await run(go, ["install", `${REGISTRY_MODULE}@${version}`], {
      env: { ...process.env, GOBIN: scratch, CGO_ENABLED: "0", GOTOOLCHAIN: "local", GOFLAGS: "-buildvcs=false" },
      timeout: 900_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    renameSync(join(scratch, "registry"), target);
    return target;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    const why = (e.stderr || e.message).trim().split("\n").slice(-3).join(" ");
    console.warn(`${what}: skipped: building the Docker registry ${REGISTRY_MODULE}@${version} failed: ${why}`);
    return undefined;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A registry on 127.0.0.1 (plain HTTP, which Docker allows for 127.0.0.0/8), storage in a temp folder. */
export interface TestRegistry {
  /** `127.0.0.1:<port>`, the prefix of the images it holds. */
  address: string;
  stop(): Promise<void>;
}

/** Starts `registry serve` with a config file and filesystem storage in a temp folder of its own. */
export async function startTestRegistry(binary: string): Promise<TestRegistry> {
  const port = await reservePorts(1);
  const address = `127.0.0.1:${port}`;
  const dir = mkdtempSync(join(tmpdir(), "cl-test-registry-"));
  const config = join(dir, "config.yml");
  writeFileSync(
    config,
    [
      "version: 0.1",
      "log:",
      "  level: warn",
      "storage:",
      "  filesystem:",
      `    rootdirectory: ${join(dir, "data")}`,
      "  delete:",
      "    enabled: true",
      "http:",
      `  addr: ${address}`,
      "",
    ].join("\n"),
  );
  const output: string[] = [];
  const child: ChildProcess = spawn(binary, ["serve", config], {
    stdio: ["ignore", "pipe", "pipe"],
    // No tracing exporter to dial (v3 sets up OpenTelemetry).
    env: { PATH: process.env.PATH ?? "", HOME: dir, OTEL_TRACES_EXPORTER: "none" },
  });
  for (const s of [child.stdout, child.stderr]) s?.on("data", (b: Buffer) => output.push(b.toString()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise<boolean>((r) => child.once("exit", () => r(true)));
      child.kill("SIGTERM");
      const exited = await Promise.race([gone, new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]);
      if (!exited) child.kill("SIGKILL");
      // Its port goes back only once it is gone; otherwise it stays locked until this process exits.
      if (exited) releasePorts(port);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ok = await fetch(`http://${address}/v2/`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { address, stop };
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the registry did not answer on ${address}: ${output.join("").trim().slice(-500)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
