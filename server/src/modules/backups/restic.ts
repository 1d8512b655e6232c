import { spawn } from "node:child_process";
import { isAbsolute, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { AppError, InputError, ToolMissingError, UpstreamError } from "../../http/errors.js";
import { backoffSchedule } from "../../runtime/backoff.js";
import { findExecutable } from "../../runtime/index.js";

/** What restic needs to open one repository. Secrets travel only in `env`, never in argv. */
export interface ResticRepo {
  /** `s3:<endpoint>/<bucket>/<path>` or an absolute directory. */
  repository: string;
  env: Record<string, string>;
  /** Extended options (`-o key=value`). */
  options: string[];
  /** For messages and notifications: the bucket and endpoint (S3) or the directory. */
  describe: { type: "S3" | "LOCAL"; bucket: string; endpoint: string };
}

export interface TargetAccess {
  type: "S3" | "LOCAL";
  endpoint: string | null;
  region: string | null;
  bucketName: string | null;
  bucketPath: string;
  accessKeyId: string | null;
  secretKey: string | null;
  resticPassword: string;
  forcePathStyle: boolean;
}

/** Finds the restic binary: CHAINLAUNCH_RESTIC_BIN, else `restic` on PATH (503 RESTIC_MISSING when neither). */
export function resolveRestic(env: NodeJS.ProcessEnv = process.env): string {
  const found = findExecutable(
    "restic",
    { envVar: "CHAINLAUNCH_RESTIC_BIN", value: env.CHAINLAUNCH_RESTIC_BIN },
    env.PATH,
  );
  if ("problem" in found) throw new ToolMissingError("restic", "CHAINLAUNCH_RESTIC_BIN", found.problem);
  return found.path;
}

const DEFAULT_REGION = "us-east-1";

/** The endpoint as restic's s3 backend wants it: scheme kept (http or https), no trailing slash. */
function s3Endpoint(t: TargetAccess): string {
  const e = (t.endpoint ?? "").trim().replace(/\/+$/, "");
  if (e) return /^https?:\/\//.test(e) ? e : `https://${e}`;
  return `https://s3.${t.region || DEFAULT_REGION}.amazonaws.com`;
}

/** Builds restic's view of a target. */
export function resticRepo(t: TargetAccess): ResticRepo {
  const env: Record<string, string> = { RESTIC_PASSWORD: t.resticPassword };
  if (t.type === "LOCAL") {
    return {
      repository: t.bucketPath,
      env,
      options: [],
      describe: { type: "LOCAL", bucket: "", endpoint: t.bucketPath },
    };
  }
  const endpoint = s3Endpoint(t);
  const path = t.bucketPath.replace(/^\/+|\/+$/g, "");
  env.AWS_ACCESS_KEY_ID = t.accessKeyId ?? "";
  env.AWS_SECRET_ACCESS_KEY = t.secretKey ?? "";
  env.AWS_DEFAULT_REGION = t.region || DEFAULT_REGION;
  const options = [`s3.region=${t.region || DEFAULT_REGION}`];
  if (t.forcePathStyle) options.push("s3.bucket-lookup=path");
  return {
    repository: `s3:${endpoint}/${t.bucketName ?? ""}${path ? `/${path}` : ""}`,
    env,
    options,
    describe: { type: "S3", bucket: t.bucketName ?? "", endpoint },
  };
}

/** Checks the fields a target type needs; names the first missing or malformed one. */
export function validateTargetAccess(t: TargetAccess): void {
  if (t.type === "LOCAL") {
    if (!isAbsolute(t.bucketPath)) throw new InputError("bucketPath: a LOCAL target needs an absolute directory path");
    return;
  }
  if (!t.bucketName) throw new InputError("bucketName: required for an S3 target");
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(t.bucketName)) {
    throw new InputError("bucketName: must be 3-63 lowercase letters, digits, dots or hyphens");
  }
  if (!t.accessKeyId) throw new InputError("accessKeyId: required for an S3 target");
  if (!t.secretKey) throw new InputError("secretKey: required for an S3 target");
  if (t.endpoint) {
    try {
      const u = new URL(/^https?:\/\//.test(t.endpoint) ? t.endpoint : `https://${t.endpoint}`);
      if (u.pathname !== "/" && u.pathname !== "") throw new Error("path");
    } catch {
      throw new InputError("endpoint: must be a URL such as https://s3.example.com or http://127.0.0.1:9000");
    }
  }
  if (t.region && !/^[a-z0-9-]{2,32}$/.test(t.region)) throw new InputError("region: must look like us-east-1");
}

export interface ResticResult {
  stdout: string;
  stderr: string;
}

/** restic failed; `kind` says what the operator should fix. */
export class ResticError extends Error {
  constructor(
    message: string,
    public readonly kind: "unreachable" | "credentials" | "password" | "no-repository" | "locked" | "other",
    public readonly stderr: string,
  ) {
    super(message);
  }
}

/** Reads restic's stderr into one of the failure kinds (restic has no machine-readable errors in 0.14). */
export function classifyResticError(stderr: string): ResticError["kind"] {
  const s = stderr.toLowerCase();
  if (/wrong password|no key found/.test(s)) return "password";
  if (
    /connection refused|no such host|i\/o timeout|network is unreachable|dial tcp|tls handshake|timed out|context deadline exceeded|unexpected eof|connection reset/.test(
      s,
    )
  ) {
    return "unreachable";
  }
  if (
    /access denied|signaturedoesnotmatch|signature we calculated does not match|invalidaccesskeyid|access key id you provided does not exist|forbidden|invalid.*credentials/.test(
      s,
    )
  ) {
    return "credentials";
  }
  if (/unable to open config file|is there a repository at the following location|does not exist/.test(s)) {
    return "no-repository";
  }
  if (/repository is already locked|unable to create lock/.test(s)) return "locked";
  return "other";
}

/** The last "Fatal:" line (or the last line) of restic's stderr, without secrets (restic prints none). */
export function resticMessage(stderr: string): string {
  const lines = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const fatal = [...lines].reverse().find((l) => l.startsWith("Fatal:"));
  return (fatal ?? lines.at(-1) ?? "restic failed").replace(/^Fatal:\s*/, "");
}

export interface RunOptions {
  cwd?: string;
  timeoutMs?: number;
  /** Each JSON line restic prints on stdout (with --json). */
  onJson?: (msg: Record<string, unknown>) => void;
  signal?: AbortSignal;
}

/**
 * Runs `restic <args>` against a repository. Resolves with its output, or rejects with a ResticError
 * whose kind tells an unreachable endpoint, bad credentials and a wrong repository password apart.
 */
export function runRestic(repo: ResticRepo, args: string[], opts: RunOptions = {}): Promise<ResticResult> {
  const bin = resolveRestic();
  const argv = ["-r", repo.repository, ...repo.options.flatMap((o) => ["-o", o]), ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(bin, argv, {
      cwd: opts.cwd,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? "/tmp",
        // Locks older than this are from a process that died; restic 0.14 only removes them on `unlock`.
        RESTIC_CACHE_DIR: process.env.RESTIC_CACHE_DIR ?? join(process.env.HOME ?? "/tmp", ".cache", "restic"),
        ...repo.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let partial = "";
    let timedOut = false;
    const timer =
      opts.timeoutMs !== undefined
        ? setTimeout(() => {
            timedOut = true;
            child.kill("SIGTERM");
            setTimeout(() => child.kill("SIGKILL"), 2000).unref();
          }, opts.timeoutMs)
        : undefined;
    let aborted = false;
    const onAbort = (): void => {
      aborted = true;
      child.kill("SIGTERM");
    };
    if (opts.signal?.aborted) onAbort();
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      if (!opts.onJson) {
        stdout += chunk;
        return;
      }
      partial += chunk;
      let i: number;
      while ((i = partial.indexOf("\n")) >= 0) {
        const line = partial.slice(0, i);
        partial = partial.slice(i + 1);
        stdout += line + "\n";
        if (!line.startsWith("{")) continue;
        try {
          opts.onJson(JSON.parse(line) as Record<string, unknown>);
        } catch {
          // not JSON after all
        }
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      if (stderr.length > 64_000) stderr = stderr.slice(-32_000);
    });
    child.on("error", (err) => {
      if (timer) clearTimeout(timer);
      reject(new ResticError(`restic could not run: ${err.message}`, "other", ""));
    });
    child.on("close", (code) => {
      if (timer) clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      if (partial) stdout += partial;
      if (code === 0) return resolve({ stdout, stderr });
      if (aborted) return reject(new ResticError("interrupted: the console is shutting down", "other", stderr));
      if (timedOut) {
        return reject(
          new ResticError(
            `no answer from ${repo.describe.endpoint} within ${Math.round((opts.timeoutMs ?? 0) / 1000)} s`,
            "unreachable",
            stderr,
          ),
        );
      }
      reject(new ResticError(resticMessage(stderr), classifyResticError(stderr), stderr));
    });
  });
}

/**
 * Opens the repository (`restic cat config`), initialising it when there is none yet. The errors
 * name the field to fix: an unreachable endpoint is a 502, bad credentials or a wrong repository
 * password a 400.
 */
export async function openOrInit(repo: ResticRepo, timeoutMs = 30_000): Promise<"opened" | "initialised"> {
  try {
    await runRestic(repo, ["cat", "config"], { timeoutMs });
    return "opened";
  } catch (err) {
    if (!(err instanceof ResticError) || err.kind !== "no-repository") throw toHttpError(err, repo);
  }
  try {
    await runRestic(repo, ["init"], { timeoutMs });
    return "initialised";
  } catch (err) {
    throw toHttpError(err, repo);
  }
}

/** Maps a restic failure to the API's error vocabulary, naming the field to fix. */
export function toHttpError(err: unknown, repo: ResticRepo): Error {
  if (err instanceof ToolMissingError) return err;
  if (!(err instanceof ResticError)) return err as Error;
  const where = repo.describe.type === "S3" ? `${repo.describe.endpoint}/${repo.describe.bucket}` : repo.repository;
  switch (err.kind) {
    case "unreachable":
      return new UpstreamError(`endpoint: ${where} is unreachable: ${err.message}`, { kind: err.kind });
    case "credentials":
      return new InputError(`secretKey: the S3 credentials were refused by ${where}: ${err.message}`);
    case "password":
      return new InputError(`resticPassword: the repository at ${where} exists and this password does not open it`);
    case "no-repository":
      return new InputError(`bucketPath: no restic repository at ${where}: ${err.message}`);
    case "locked":
      return new AppError(`the repository at ${where} is locked by another restic process`, 409, "CONFLICT");
    default:
      return new UpstreamError(`restic failed on ${where}: ${err.message}`);
  }
}

/**
 * Runs an exclusive restic command (forget, prune, check), waiting for the repository's lock the
 * way restic 0.16's `--retry-lock` does (Debian 12 ships 0.14): a stale lock (its process died) is
 * removed with `restic unlock`, a live one (a listing by the UI, another console, a restore drill)
 * is waited out with a backoff for up to `lockWaitMs`; after that the lock error stands.
 */
export async function withRepoLock<T>(
  r: ResticRepo,
  fn: () => Promise<T>,
  opts: { lockWaitMs?: number; unlockTimeoutMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.lockWaitMs ?? 120_000);
  const delay = backoffSchedule({ firstMs: 500, capMs: 5000 });
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof ResticError) || err.kind !== "locked" || Date.now() > deadline) throw err;
      await runRestic(r, ["unlock"], { timeoutMs: opts.unlockTimeoutMs ?? 30_000 }).catch(() => undefined);
      await sleep(delay());
    }
  }
}
