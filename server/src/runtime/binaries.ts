import { execFile } from "node:child_process";
import { createWriteStream } from "node:fs";
import { access, chmod, constants, mkdir, mkdtemp, readdir, rename, rm, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { RuntimeError } from "./errors.js";

/** The Fabric programs ChainLaunch runs or calls. */
export const FABRIC_BINARIES = ["peer", "orderer", "osnadmin", "configtxlator", "configtxgen"] as const;
export type FabricBinary = (typeof FABRIC_BINARIES)[number];

/** The version new nodes get when none is asked for. */
export const DEFAULT_FABRIC_VERSION = "3.1.5";
/** Versions `scripts/fabric-build.sh` knows how to build (others can still be configured or downloaded). */
export const BUILDABLE_FABRIC_VERSIONS = ["3.1.5", "3.1.4", "3.1.0", "3.0.0", "2.5.16", "2.5.15", "2.5.14"] as const;

const VERSION_RE = /^\d+\.\d+\.\d+$/;

/** Where a resolved set of binaries came from. */
export type FabricBinarySource = "configured" | "cache" | "download";

export interface ResolvedFabricBinaries {
  version: string;
  /** Directory holding the binaries. */
  dir: string;
  source: FabricBinarySource;
  /** Absolute path of each requested binary. */
  paths: Partial<Record<FabricBinary, string>>;
}

/** Puts the release binaries for `version` into `<destDir>/bin`. Throws when it can't. */
export type FabricDownloader = (opts: { version: string; destDir: string }) => Promise<void>;

/** Reads the version a binary reports (`peer version` → "3.1.5"), or null when it can't tell. */
export type FabricVersionProbe = (binaryPath: string) => Promise<string | null>;

export interface FabricBinaryResolverOptions {
  /**
   * A configured directory (env `CHAINLAUNCH_FABRIC_BIN_DIR`). `{version}` in it is replaced by
   * the requested version; without the placeholder the directory is used only when its `peer`
   * or `orderer` reports the requested version.
   */
  configuredDir?: string | undefined;
  /** Root of the per-version cache; see {@link defaultFabricCacheDir}. */
  cacheDir?: string;
  /** Fetches a release into the cache; `null` disables downloads. Defaults to {@link downloadFabricRelease}. */
  downloader?: FabricDownloader | null;
  versionProbe?: FabricVersionProbe;
}

export interface FabricBinaryResolver {
  /**
   * Finds the binaries for `version`: the configured dir, then the cache, then a download of the
   * official release into the cache.
   * @throws RuntimeError FABRIC_BINARY_NOT_FOUND with the places searched and how to install.
   */
  resolve(version: string, binaries?: readonly FabricBinary[]): Promise<ResolvedFabricBinaries>;
  /** Like resolve() without the download step; null when nothing local fits. */
  findLocal(version: string, binaries?: readonly FabricBinary[]): Promise<ResolvedFabricBinaries | null>;
  /** The cache directory for a version (`<cache>/<version>/bin`). */
  cacheBinDir(version: string): string;
}

/** `${CHAINLAUNCH_FABRIC_CACHE:-$HOME/.cache/chainlaunch/fabric}`, the same rule as scripts/fabric-build.sh. */
export function defaultFabricCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CHAINLAUNCH_FABRIC_CACHE || join(env.HOME || homedir(), ".cache", "chainlaunch", "fabric");
}

/** Checks a version string before it becomes part of a path or URL. */
export function assertFabricVersion(version: string): void {
  if (!VERSION_RE.test(version)) {
    throw new RuntimeError("FABRIC_VERSION_UNSUPPORTED", `"${version}" is not a Fabric version (expected e.g. 3.1.5)`, {
      version,
    });
  }
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Runs a program to completion (argv only, no shell) and collects its output; on failure the
 * error carries `stdout` and `stderr` too.
 */
export function runFile(
  file: string,
  args: string[],
  opts: { timeoutMs: number; env?: Record<string, string>; cwd?: string },
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { timeout: opts.timeoutMs, maxBuffer: 1024 * 1024, env: opts.env, cwd: opts.cwd },
      (err, stdout, stderr) => {
        if (err) reject(Object.assign(err, { stdout, stderr }));
        else resolve({ stdout, stderr });
      },
    );
  });
}

/** Runs `<binary> version` and reads its "Version: x.y.z" line. */
export const execVersionProbe: FabricVersionProbe = async (binaryPath) => {
  try {
    const { stdout } = await runFile(binaryPath, ["version"], { timeoutMs: 10_000 });
    return /^\s*Version:\s*v?(\S+)\s*$/m.exec(stdout)?.[1] ?? null;
  } catch {
    return null;
  }
};

/** The release asset name for this machine, as Fabric publishes it. */
export function fabricReleaseUrl(
  version: string,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): string {
  const os = platform === "darwin" ? "darwin" : platform === "win32" ? "windows" : "linux";
  const cpu = arch === "x64" ? "amd64" : arch;
  return `https://github.com/hyperledger/fabric/releases/download/v${version}/hyperledger-fabric-${os}-${cpu}-${version}.tar.gz`;
}

/**
 * Downloads the official release tarball and unpacks its `bin/` into `<destDir>/bin`. The archive
 * is written as *.tmp, unpacked with `tar` (argv, stderr collected, exit code checked) into a
 * scratch dir, and the binaries are renamed into place only when all went well.
 */
export async function downloadFabricRelease(
  opts: { version: string; destDir: string },
  deps: { fetchImpl?: typeof fetch; timeoutMs?: number; url?: string } = {},
): Promise<void> {
  assertFabricVersion(opts.version);
  const url = deps.url ?? fabricReleaseUrl(opts.version);
  await mkdir(opts.destDir, { recursive: true });
  const scratch = await mkdtemp(join(opts.destDir, ".download-"));
  try {
    const archive = join(scratch, "release.tar.gz.tmp");
    const res = await (deps.fetchImpl ?? fetch)(url, { signal: AbortSignal.timeout(deps.timeoutMs ?? 300_000) });
    if (!res.ok || !res.body) throw new Error(`GET ${url} answered ${res.status}`);
    await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(archive));
    const unpacked = join(scratch, "unpacked");
    await mkdir(unpacked);
    try {
      await runFile("tar", ["-xzf", archive, "-C", unpacked, "bin"], { timeoutMs: 120_000 });
    } catch (err) {
      const stderr = (err as { stderr?: string }).stderr?.trim();
      throw new Error(`tar could not unpack ${url}${stderr ? `: ${stderr}` : ""}`);
    }
    const binDir = join(opts.destDir, "bin");
    await mkdir(binDir, { recursive: true });
    for (const name of await readdir(join(unpacked, "bin"))) {
      await chmod(join(unpacked, "bin", name), 0o755);
      await rename(join(unpacked, "bin", name), join(binDir, name));
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Builds the resolver; see {@link FabricBinaryResolver.resolve} for the search order. */
export function createFabricBinaryResolver(opts: FabricBinaryResolverOptions = {}): FabricBinaryResolver {
  const cacheRoot = opts.cacheDir ?? defaultFabricCacheDir();
  const downloader = opts.downloader === undefined ? downloadFabricRelease : opts.downloader;
  const probe = opts.versionProbe ?? execVersionProbe;
  const probed = new Map<string, string | null>();
  const downloads = new Map<string, Promise<void>>();

  const cacheBinDir = (version: string): string => join(cacheRoot, version, "bin");

  async function collect(
    dir: string,
    binaries: readonly FabricBinary[],
  ): Promise<Partial<Record<FabricBinary, string>> | null> {
    const paths: Partial<Record<FabricBinary, string>> = {};
    for (const b of binaries) {
      const p = join(dir, b);
      if (!(await isExecutable(p))) return null;
      paths[b] = p;
    }
    return paths;
  }

  async function reportedVersion(dir: string): Promise<string | null> {
    for (const b of ["peer", "orderer"] as const) {
      const p = join(dir, b);
      if (!(await isExecutable(p))) continue;
      const key = `${p}:${(await stat(p)).mtimeMs}`;
      if (!probed.has(key)) probed.set(key, await probe(p));
      const v = probed.get(key);
      if (v) return v;
    }
    return null;
  }

  async function fromConfigured(
    version: string,
    binaries: readonly FabricBinary[],
  ): Promise<ResolvedFabricBinaries | null> {
    if (!opts.configuredDir) return null;
    const templated = opts.configuredDir.includes("{version}");
    const dir = opts.configuredDir.replaceAll("{version}", version);
    const paths = await collect(dir, binaries);
    if (!paths) return null;
    if (!templated && (await reportedVersion(dir)) !== version) return null;
    return { version, dir, source: "configured", paths };
  }

  async function fromCache(
    version: string,
    binaries: readonly FabricBinary[],
    source: FabricBinarySource,
  ): Promise<ResolvedFabricBinaries | null> {
    const dir = cacheBinDir(version);
    const paths = await collect(dir, binaries);
    return paths ? { version, dir, source, paths } : null;
  }

  async function findLocal(
    version: string,
    binaries: readonly FabricBinary[] = FABRIC_BINARIES,
  ): Promise<ResolvedFabricBinaries | null> {
    assertFabricVersion(version);
    return (await fromConfigured(version, binaries)) ?? (await fromCache(version, binaries, "cache"));
  }

  async function resolve(
    version: string,
    binaries: readonly FabricBinary[] = FABRIC_BINARIES,
  ): Promise<ResolvedFabricBinaries> {
    const local = await findLocal(version, binaries);
    if (local) return local;

    let downloadError: string | undefined;
    if (downloader) {
      let pending = downloads.get(version);
      if (!pending) {
        pending = downloader({ version, destDir: join(cacheRoot, version) });
        downloads.set(version, pending);
        void pending.finally(() => downloads.delete(version)).catch(() => undefined);
      }
      try {
        await pending;
        const got = await fromCache(version, binaries, "download");
        if (got) return got;
        downloadError = "the download finished but did not provide every binary";
      } catch (err) {
        downloadError = err instanceof Error ? err.message : String(err);
      }
    }

    const searched = [
      ...(opts.configuredDir ? [`${opts.configuredDir} (CHAINLAUNCH_FABRIC_BIN_DIR)`] : []),
      cacheBinDir(version),
    ];
    throw new RuntimeError(
      "FABRIC_BINARY_NOT_FOUND",
      `no Fabric ${version} binaries (${binaries.join(", ")}) in ${searched.join(" or ")}` +
        (downloadError ? `; downloading the release failed: ${downloadError}` : "") +
        `. Install them with: scripts/fabric-build.sh ${version}` +
        ` (or unpack the official release's bin/ into ${cacheBinDir(version)}, or set CHAINLAUNCH_FABRIC_BIN_DIR)`,
      { version, searched, ...(downloadError ? { downloadError } : {}) },
    );
  }

  return { resolve, findLocal, cacheBinDir };
}
