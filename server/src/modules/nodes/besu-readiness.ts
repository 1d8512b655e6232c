import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage } from "../../http/errors.js";
import { runFile } from "../../runtime/index.js";
import {
  BESU_INSTALL_HINT,
  BESU_MIN_JAVA,
  DEFAULT_BESU_VERSION,
  defaultBesuCacheDir,
  findOnPath,
  isExecutable,
  javaVersion,
  parseJavaMajor,
  type BesuDownloader,
} from "./besu-binary.js";

/** One tool's state, as upstream's service.BesuReadinessInfo / JavaReadinessInfo have it. */
export interface ToolInfo {
  installed: boolean;
  path?: string;
  version?: string;
  error?: string;
}

/** upstream's service.BesuReadinessResponse. */
export interface BesuReadiness {
  ready: boolean;
  platform: string;
  arch: string;
  besu: ToolInfo;
  java: ToolInfo;
  errors: string[];
  warnings: string[];
}

/** upstream's service.BesuVersionVerificationResponse. */
export interface BesuVerification {
  success: boolean;
  version: string;
  actualVersion?: string;
  binaryPath?: string;
  downloaded: boolean;
  error?: string;
}

/** Go's GOOS and GOARCH names for this machine, as upstream reports them. */
export function goPlatform(platform: string = process.platform, arch: string = process.arch) {
  const os = platform === "win32" ? "windows" : platform;
  const goArch = ({ x64: "amd64", ia32: "386", arm64: "arm64", arm: "arm" } as Record<string, string>)[arch] ?? arch;
  return { platform: os, arch: goArch };
}

/** The version `besu --version` prints (`besu/v25.6.0/linux-x86_64/openjdk-java-21` gives 25.6.0), else its first line. */
export function parseBesuVersion(output: string): string | undefined {
  const first = output
    .split("\n")
    .find((l) => l.trim())
    ?.trim();
  return /besu\/v?([^/\s]+)/.exec(output)?.[1] ?? first;
}

/**
 * What upstream's GET /nodes/readiness/besu and POST /nodes/verify/besu answer: whether `besu` and a
 * Java 21+ runtime are here, found the way nodes find them (CHAINLAUNCH_BESU_BIN, PATH, the cache of
 * downloaded releases; JAVA_HOME, PATH, the cached runtime), and what they say their versions are.
 * Only `verify` downloads, and only when downloads are on.
 */
export function createBesuReadiness(
  opts: {
    configured?: string | undefined;
    env?: NodeJS.ProcessEnv;
    cacheDir?: string;
    downloader?: BesuDownloader | null;
  } = {},
) {
  const env = opts.env ?? process.env;
  const cacheDir = opts.cacheDir ?? defaultBesuCacheDir(env);
  const cached = (version: string) => join(cacheDir, version, "bin", "besu");

  /** Where nodes would find besu without downloading, preferring `version` among cached releases. */
  async function locateBesu(version?: string): Promise<string | undefined> {
    if (opts.configured) return (await isExecutable(opts.configured)) ? opts.configured : undefined;
    const onPath = await findOnPath(env, "besu");
    if (onPath) return onPath;
    const versions = version
      ? [version]
      : [
          DEFAULT_BESU_VERSION,
          ...(await readdir(cacheDir).catch(() => [] as string[]))
            .filter((d) => /^\d+\.\d+\.\d+$/.test(d))
            .sort((a, b) => b.localeCompare(a, "en", { numeric: true })),
        ];
    for (const v of versions) if (await isExecutable(cached(v))) return cached(v);
    return undefined;
  }

  /** The java besu would run on, and the JAVA_HOME to give it (none for java found on PATH). */
  async function locateJava(): Promise<{ path: string; home?: string } | undefined> {
    const own = env.JAVA_HOME
      ? { path: join(env.JAVA_HOME, "bin", "java"), home: env.JAVA_HOME }
      : { path: (await findOnPath(env, "java")) ?? "" };
    const fetched = join(cacheDir, `java-${BESU_MIN_JAVA}`);
    for (const c of [own, { path: join(fetched, "bin", "java"), home: fetched }])
      if (c.path && (await isExecutable(c.path))) return c;
    return undefined;
  }

  async function besuVersion(path: string, javaHome?: string): Promise<{ version?: string; error?: string }> {
    try {
      const runEnv = { PATH: env.PATH ?? "/usr/bin:/bin", ...(javaHome ? { JAVA_HOME: javaHome } : {}) };
      const { stdout, stderr } = await runFile(path, ["--version"], { timeoutMs: 60_000, env: runEnv });
      const version = parseBesuVersion(`${stdout}\n${stderr}`);
      return version ? { version } : { error: `${path} --version printed nothing` };
    } catch (err) {
      return { error: `${path} --version failed: ${errorMessage(err).split("\n")[0]}` };
    }
  }

  const notFound = () =>
    `besu binary not found (CHAINLAUNCH_BESU_BIN, PATH, or the cache in ${cacheDir}); ${BESU_INSTALL_HINT}`;

  return {
    async check(): Promise<BesuReadiness> {
      const errors: string[] = [];
      const warnings: string[] = [];
      const java: ToolInfo = { installed: false };
      const found = await locateJava();
      const javaPath = found?.path;
      if (!javaPath) {
        java.error = `no Java runtime (JAVA_HOME, java on PATH); Besu needs Java ${BESU_MIN_JAVA}+`;
        errors.push(java.error);
        if (opts.downloader) warnings.push(`a Java ${BESU_MIN_JAVA} runtime is downloaded when a Besu node starts`);
      } else {
        Object.assign(java, { installed: true, path: javaPath });
        const out = await javaVersion(javaPath);
        const version = out ? /version "([^"]+)"/.exec(out)?.[1] : undefined;
        if (version) java.version = version;
        const major = out ? parseJavaMajor(out) : null;
        if (major === null) java.error = `${javaPath} -version did not say its version`;
        else if (major < BESU_MIN_JAVA)
          java.error = `${javaPath} is Java ${major}; Besu needs Java ${BESU_MIN_JAVA}+ (set JAVA_HOME to a newer JDK)`;
        if (java.error) errors.push(java.error);
      }
      const besu: ToolInfo = { installed: false };
      const besuPath = await locateBesu();
      if (!besuPath) {
        besu.error = notFound();
        errors.push(besu.error);
        if (opts.downloader)
          warnings.push(`Besu ${DEFAULT_BESU_VERSION} is downloaded from Besu's GitHub releases when a node starts`);
      } else {
        Object.assign(besu, { installed: true, path: besuPath });
        const v = await besuVersion(besuPath, found?.home);
        if (v.version) besu.version = v.version;
        if (v.error) {
          besu.error = v.error;
          errors.push(v.error);
        }
      }
      return { ready: errors.length === 0, ...goPlatform(), besu, java, errors, warnings };
    },

    /** Finds besu for `version` (downloading it when downloads are on) and runs `besu --version`. */
    async verify(version: string = DEFAULT_BESU_VERSION): Promise<BesuVerification> {
      let path = await locateBesu(version);
      let downloaded = false;
      if (!path && opts.downloader) {
        try {
          await opts.downloader({ version, destDir: join(cacheDir, version) });
        } catch (err) {
          return {
            success: false,
            version,
            downloaded,
            error: `downloading Besu ${version} failed: ${errorMessage(err)}`,
          };
        }
        if (await isExecutable(cached(version))) [path, downloaded] = [cached(version), true];
      }
      if (!path) return { success: false, version, downloaded, error: notFound() };
      const v = await besuVersion(path, (await locateJava())?.home);
      return {
        success: !v.error,
        version,
        binaryPath: path,
        downloaded,
        ...(v.version ? { actualVersion: v.version } : {}),
        ...(v.error ? { error: v.error } : {}),
      };
    },
  };
}

export type BesuReadinessService = ReturnType<typeof createBesuReadiness>;
