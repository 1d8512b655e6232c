import { execFile } from "node:child_process";
import { access, constants, stat } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";

/** The Java major version current Besu releases need (Besu docs, system requirements). */
export const BESU_MIN_JAVA = 21;

export const BESU_INSTALL_HINT =
  "install Besu from https://github.com/hyperledger/besu/releases (unpack it and put its bin/ on PATH, " +
  "or set CHAINLAUNCH_BESU_BIN to the besu launcher) with a Java 21+ runtime";

export interface ResolvedBesu {
  path: string;
  source: "configured" | "path";
  /** Java major version found (null when `java -version` could not tell). */
  javaMajor: number | null;
}

/** Why Besu can't be started here. `message` is shown as the node's errorMessage. */
export class BesuBinaryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BesuBinaryError";
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

/** Parses `java -version` output ("openjdk version \"17.0.15\"", "java version \"1.8.0_392\"") into its major version. */
export function parseJavaMajor(output: string): number | null {
  const m = /version "(\d+)(?:\.(\d+))?/.exec(output);
  if (!m) return null;
  const first = Number(m[1]);
  return first === 1 && m[2] ? Number(m[2]) : first;
}

function javaVersion(javaPath: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(javaPath, ["-version"], { timeout: 10_000 }, (err, stdout, stderr) =>
      resolve(err ? null : `${stdout}\n${stderr}`),
    );
  });
}

/**
 * Finds the `besu` launcher: a configured path (CHAINLAUNCH_BESU_BIN), then PATH, else a
 * {@link BesuBinaryError} saying how to install it. When found, checks the Java runtime the
 * launcher will use (JAVA_HOME, else `java` on PATH) is 21 or newer.
 */
export function createBesuBinaryResolver(opts: { configured?: string | undefined; env?: NodeJS.ProcessEnv } = {}) {
  const env = opts.env ?? process.env;
  async function findOnPath(name: string): Promise<string | null> {
    for (const dir of (env.PATH ?? "").split(delimiter)) {
      if (!dir || !isAbsolute(dir)) continue;
      const p = join(dir, name);
      if (await isExecutable(p)) return p;
    }
    return null;
  }
  return {
    async resolve(): Promise<ResolvedBesu> {
      let path: string | null = null;
      let source: ResolvedBesu["source"] = "path";
      if (opts.configured) {
        if (!(await isExecutable(opts.configured))) {
          throw new BesuBinaryError(
            `besu binary not found: CHAINLAUNCH_BESU_BIN=${opts.configured} is not an executable file; ${BESU_INSTALL_HINT}`,
          );
        }
        path = opts.configured;
        source = "configured";
      } else {
        path = await findOnPath("besu");
      }
      if (!path)
        throw new BesuBinaryError(`besu binary not found on PATH or in CHAINLAUNCH_BESU_BIN; ${BESU_INSTALL_HINT}`);
      const java = env.JAVA_HOME ? join(env.JAVA_HOME, "bin", "java") : await findOnPath("java");
      if (!java || !(await isExecutable(java))) {
        throw new BesuBinaryError(
          `besu found at ${path} but no Java runtime (java on PATH or JAVA_HOME); ${BESU_INSTALL_HINT}`,
        );
      }
      const out = await javaVersion(java);
      const javaMajor = out ? parseJavaMajor(out) : null;
      if (javaMajor !== null && javaMajor < BESU_MIN_JAVA) {
        throw new BesuBinaryError(
          `besu found at ${path} but ${java} is Java ${javaMajor}; Besu needs Java ${BESU_MIN_JAVA}+ (set JAVA_HOME to a newer JDK)`,
        );
      }
      return { path, source, javaMajor };
    },
  };
}

export type BesuBinaryResolver = ReturnType<typeof createBesuBinaryResolver>;
