import { spawn } from "node:child_process";
import { access, constants, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { delimiter, dirname, isAbsolute, join } from "node:path";
import { errorMessage } from "../../http/errors.js";
import { runFile } from "../../runtime/index.js";

/** The Java major version current Besu releases need (Besu docs, system requirements). */
export const BESU_MIN_JAVA = 21;

export const BESU_INSTALL_HINT =
  "install Besu from https://github.com/hyperledger/besu/releases (unpack it and put its bin/ on PATH, " +
  "or set CHAINLAUNCH_BESU_BIN to the besu launcher) with a Java 21+ runtime";

/** The Besu release downloaded when none is installed (a released version per Besu's Maven listing). */
export const DEFAULT_BESU_VERSION = "25.6.0";

/** Fetches and unpacks Besu `version` so that `<destDir>/bin/besu` exists. */
export type BesuDownloader = (opts: { version: string; destDir: string }) => Promise<void>;

/** The cache of downloaded Besu releases: `<cache>/<version>/bin/besu`. */
export function defaultBesuCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CHAINLAUNCH_BESU_CACHE ?? join(homedir(), ".cache", "chainlaunch", "besu");
}

function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}: ${err.trim()}`))));
  });
}

/**
 * Downloads the official Besu release tarball from GitHub releases and unpacks it into `destDir`
 * (written beside it, then renamed, so a failed download leaves nothing half-unpacked).
 */
export const downloadBesuRelease: BesuDownloader = async ({ version, destDir }) => {
  await fetchAndUnpack(
    `https://github.com/hyperledger/besu/releases/download/${version}/besu-${version}.tar.gz`,
    destDir,
    "besu-",
  );
};

/** Unpacks `archive` (a .tar.gz fetched from `url`) into `destDir`, via a temp folder and a rename. */
async function fetchAndUnpack(url: string, destDir: string, topPrefix: string): Promise<void> {
  const res = await fetch(url, { signal: AbortSignal.timeout(300_000) });
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
  await mkdir(dirname(destDir), { recursive: true });
  const work = await mkdtemp(join(dirname(destDir), ".download-"));
  try {
    const tarball = join(work, "archive.tar.gz");
    await writeFile(tarball, Buffer.from(await res.arrayBuffer()));
    await run("tar", ["-xzf", tarball, "-C", work]);
    const top = (await readdir(work)).find((n) => n.startsWith(topPrefix));
    if (!top) throw new Error(`${url} did not contain a ${topPrefix}* folder`);
    await rename(join(work, top), destDir);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Fetches a Java 21 runtime (Eclipse Temurin JRE, through the Adoptium API) into `destDir`. */
export const downloadJavaRuntime = async ({ destDir }: { destDir: string }): Promise<void> => {
  const arch = process.arch === "arm64" ? "aarch64" : "x64";
  await fetchAndUnpack(
    `https://api.adoptium.net/v3/binary/latest/${BESU_MIN_JAVA}/ga/linux/${arch}/jre/hotspot/normal/eclipse`,
    destDir,
    "jdk-",
  );
};

export interface ResolvedBesu {
  path: string;
  /** Set when the console supplies the Java runtime (a downloaded one); the node gets it as JAVA_HOME. */
  javaHome?: string;
  source: "configured" | "path" | "cache" | "download";
  /** Java major version found (null when `java -version` could not tell). */
  javaMajor: number | null;
}

/** Why Besu can't be started here. `message` is shown as the node's errorMessage. */
/** A Besu release number (25.6.0, 24.12.2-RC1): digits and dots, an optional tag, never a path. */
export const BESU_VERSION = /^\d+\.\d+\.\d+(?:-[A-Za-z0-9]+)?$/;

export class BesuBinaryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BesuBinaryError";
  }
}

/** Whether `path` is a regular file this process may execute. */
export async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** Parses `java -version` output ("openjdk version \"17.0.15\"", "java version \"1.8.0_392\"") into its major version. */
export function parseJavaMajor(output: string): number | null {
  const m = /version "(\d+)(?:\.(\d+))?/.exec(output);
  if (!m) return null;
  const first = Number(m[1]);
  return first === 1 && m[2] ? Number(m[2]) : first;
}

/** The first executable `name` in the absolute directories of `env.PATH`, or null. */
export async function findOnPath(env: NodeJS.ProcessEnv, name: string): Promise<string | null> {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const p = join(dir, name);
    if (await isExecutable(p)) return p;
  }
  return null;
}

/** `java -version`'s output (it writes to stderr), or null when it did not run. */
export function javaVersion(javaPath: string): Promise<string | null> {
  return runFile(javaPath, ["-version"], { timeoutMs: 10_000 }).then(
    ({ stdout, stderr }) => `${stdout}\n${stderr}`,
    () => null,
  );
}

/**
 * Finds the `besu` launcher: a configured path, then PATH, then the cache of downloaded releases,
 * then (when `downloader` is set) a download of the official release into that cache; otherwise a
 * clear error saying how to install it. Then checks that the Java runtime the launcher will use
 * (JAVA_HOME, else `java` on PATH) is 21 or newer.
 */
export function createBesuBinaryResolver(
  opts: {
    configured?: string | undefined;
    env?: NodeJS.ProcessEnv;
    cacheDir?: string;
    /** `null` (or omitted) never downloads. */
    downloader?: BesuDownloader | null;
    /** Fetches a Java 21+ runtime into a folder when none is installed; `null` (or omitted) never downloads. */
    javaDownloader?: ((opts: { destDir: string }) => Promise<void>) | null;
  } = {},
) {
  const env = opts.env ?? process.env;
  const cacheDir = opts.cacheDir ?? defaultBesuCacheDir(env);
  return {
    async resolve(version: string = DEFAULT_BESU_VERSION): Promise<ResolvedBesu> {
      // The version names a folder of the cache and a release to download: only a release number.
      if (!BESU_VERSION.test(version)) {
        throw new BesuBinaryError(`besu version "${version}" is not a release number like ${DEFAULT_BESU_VERSION}`);
      }
      let path: string | null = null;
      let source: ResolvedBesu["source"] = "path";
      const cached = join(cacheDir, version, "bin", "besu");
      if (opts.configured) {
        if (!(await isExecutable(opts.configured))) {
          throw new BesuBinaryError(
            `besu binary not found: CHAINLAUNCH_BESU_BIN=${opts.configured} is not an executable file; ${BESU_INSTALL_HINT}`,
          );
        }
        path = opts.configured;
        source = "configured";
      } else {
        path = await findOnPath(env, "besu");
        if (!path && (await isExecutable(cached))) {
          path = cached;
          source = "cache";
        }
        if (!path && opts.downloader) {
          try {
            await opts.downloader({ version, destDir: join(cacheDir, version) });
          } catch (err) {
            throw new BesuBinaryError(
              `besu binary not found on PATH or in CHAINLAUNCH_BESU_BIN, and downloading Besu ${version} failed ` +
                `(${errorMessage(err)}); ${BESU_INSTALL_HINT}`,
            );
          }
          if (await isExecutable(cached)) {
            path = cached;
            source = "download";
          }
        }
      }
      if (!path)
        throw new BesuBinaryError(`besu binary not found on PATH or in CHAINLAUNCH_BESU_BIN; ${BESU_INSTALL_HINT}`);
      let java = env.JAVA_HOME ? join(env.JAVA_HOME, "bin", "java") : await findOnPath(env, "java");
      let javaHome: string | undefined;
      if (!java || !(await isExecutable(java))) {
        // No Java installed: use (or fetch) a runtime in the cache and hand it to the node as JAVA_HOME.
        const home = join(cacheDir, `java-${BESU_MIN_JAVA}`);
        if (!(await isExecutable(join(home, "bin", "java"))) && opts.javaDownloader) {
          await opts.javaDownloader({ destDir: home }).catch((err: unknown) => {
            throw new BesuBinaryError(
              `besu found at ${path} but no Java runtime, and downloading Java ${BESU_MIN_JAVA} failed ` +
                `(${errorMessage(err)}); ${BESU_INSTALL_HINT}`,
            );
          });
        }
        if (!(await isExecutable(join(home, "bin", "java")))) {
          throw new BesuBinaryError(
            `besu found at ${path} but no Java runtime (java on PATH or JAVA_HOME); ${BESU_INSTALL_HINT}`,
          );
        }
        java = join(home, "bin", "java");
        javaHome = home;
      }
      const out = await javaVersion(java);
      const javaMajor = out ? parseJavaMajor(out) : null;
      if (javaMajor !== null && javaMajor < BESU_MIN_JAVA) {
        throw new BesuBinaryError(
          `besu found at ${path} but ${java} is Java ${javaMajor}; Besu needs Java ${BESU_MIN_JAVA}+ (set JAVA_HOME to a newer JDK)`,
        );
      }
      return { path, source, javaMajor, ...(javaHome ? { javaHome } : {}) };
    },
  };
}

export type BesuBinaryResolver = ReturnType<typeof createBesuBinaryResolver>;
