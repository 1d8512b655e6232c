import { execFile, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { constants } from "node:fs";
import {
  access,
  appendFile,
  cp,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { readLastLines } from "./log-files.js";
import {
  dependencyKey,
  nodeModulesStore,
  npmVersion,
  pruneNodeModulesStore,
  restoreNodeModules,
  saveNodeModules,
  type NodeModulesStore,
} from "./node-modules-store.js";
import { nodePrefix, type Sandbox, type SandboxPolicy } from "./sandbox.js";

const execFileP = promisify(execFile);

/** Languages the console builds and runs itself (Java comes later behind the same interface). */
export type ChaincodeSourceType = "node" | "go" | "executable";

/** Building the chaincode failed; `log` holds the end of the build output. */
export class ChaincodeBuildError extends Error {
  constructor(
    message: string,
    public readonly log: string,
  ) {
    super(message);
    this.name = "ChaincodeBuildError";
  }
}

/** How to start the built chaincode server (the caller adds address/id flags for node and the env). */
export interface ChaincodeCommand {
  command: string;
  args: string[];
  cwd: string;
}

const exists = (p: string): Promise<boolean> =>
  access(p).then(
    () => true,
    () => false,
  );
const isExecutable = (p: string): Promise<boolean> =>
  access(p, constants.X_OK).then(
    () => true,
    () => false,
  );

/** package.json → node, go.mod → go, a folder holding one executable file → executable. */
export async function detectSourceType(dir: string): Promise<ChaincodeSourceType | undefined> {
  if (await exists(join(dir, "package.json"))) return "node";
  if (await exists(join(dir, "go.mod"))) return "go";
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files = entries.filter((e) => e.isFile());
  if (entries.length === 1 && files.length === 1 && (await isExecutable(join(dir, files[0]!.name)))) {
    return "executable";
  }
  return undefined;
}

/** Finds a tool on PATH (plus well-known places); undefined when missing. */
export async function which(tool: string, extra: string[] = []): Promise<string | undefined> {
  const dirs = [...(process.env.PATH ?? "").split(":").filter(Boolean), ...extra];
  for (const d of dirs) {
    const p = join(d, tool);
    if (await isExecutable(p)) return p;
  }
  return undefined;
}

/**
 * Unpacks a chaincode archive into `destDir`: gzip tar / tar through the system `tar`, zip through
 * `unzip`. Entries that are absolute, climb out with `..`, or are links or devices are refused
 * before anything is written. A single top-level folder is stripped.
 */
export async function extractArchive(bytes: Buffer, destDir: string): Promise<void> {
  await mkdir(destDir, { recursive: true });
  const tmp = join(dirname(destDir), `.upload-${randomUUID()}`);
  const isZip = bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  const isGzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
  const isTar = bytes.length > 262 && bytes.subarray(257, 262).toString("latin1") === "ustar";
  try {
    await writeFile(tmp, bytes, { mode: 0o600 });
    if (isZip) {
      const unzip = await which("unzip");
      if (!unzip) throw new Error("a zip archive needs the `unzip` program, which is not installed; send a tar.gz");
      const { stdout } = await execFileP(unzip, ["-Z1", tmp], { maxBuffer: 64 * 1024 * 1024 });
      assertSafeNames(stdout.split("\n").filter(Boolean));
      await execFileP(unzip, ["-q", "-o", tmp, "-d", destDir]);
    } else if (isGzip || isTar) {
      const tar = await which("tar");
      if (!tar) throw new Error("the `tar` program is not installed");
      const flag = isGzip ? "-tvzf" : "-tvf";
      const { stdout } = await execFileP(tar, [flag, tmp], { maxBuffer: 64 * 1024 * 1024 });
      const lines = stdout.split("\n").filter(Boolean);
      for (const l of lines) {
        if (!/^[-d]/.test(l)) throw new Error(`the archive holds a link or special file: ${l.trim()}`);
      }
      const names = (await execFileP(tar, [isGzip ? "-tzf" : "-tf", tmp], { maxBuffer: 64 * 1024 * 1024 })).stdout
        .split("\n")
        .filter(Boolean);
      assertSafeNames(names);
      await execFileP(tar, [isGzip ? "-xzf" : "-xf", tmp, "-C", destDir, "--no-same-owner", "--no-same-permissions"]);
    } else {
      throw new Error("the upload is not a tar.gz, tar or zip archive");
    }
    // One top-level folder (what `tar czf x.tgz project/` gives): use its content.
    const top = await readdir(destDir, { withFileTypes: true });
    if (top.length === 1 && top[0]!.isDirectory()) {
      const inner = join(destDir, top[0]!.name);
      for (const e of await readdir(inner)) await rename(join(inner, e), join(destDir, e));
      await rm(inner, { recursive: true, force: true });
    }
  } finally {
    await rm(tmp, { force: true });
  }
}

function assertSafeNames(names: string[]): void {
  for (const n of names) {
    if (n.startsWith("/") || n.split("/").includes("..")) throw new Error(`unsafe path in the archive: ${n}`);
  }
}

/** Copies a source folder (or one executable) from this host, without node_modules and .git. */
export async function copySourceDir(src: string, dest: string): Promise<void> {
  const st = await stat(src);
  if (st.isFile()) {
    await mkdir(dirname(dest), { recursive: true });
    await cp(src, dest);
    return;
  }
  await cp(src, dest, {
    recursive: true,
    filter: (p) => !/(^|\/)(node_modules|\.git)(\/|$)/.test(p.slice(src.length)),
  });
}

/**
 * Runs one build step inside the sandbox, appending its output to the log; throws ChaincodeBuildError
 * with the log's end on failure.
 */
async function step(
  what: string,
  command: string,
  args: string[],
  opts: {
    cwd: string;
    env: Record<string, string>;
    logFile: string;
    timeoutMs: number;
    sandbox: Sandbox;
    policy: SandboxPolicy;
    /** Told each step's name as it starts (a screen shows "npm install" while it runs). */
    onStep?: ((what: string) => void) | undefined;
  },
): Promise<void> {
  opts.onStep?.(what);
  await appendFile(opts.logFile, `\n$ ${[command, ...args].join(" ")}\n`);
  const boxed = await opts.sandbox
    .wrap({ command, args, env: opts.env, cwd: opts.cwd }, { ...opts.policy, dieWithParent: true })
    .catch((err: unknown) => {
      throw new ChaincodeBuildError(`${what} was not run: ${(err as Error).message}`, "");
    });
  const code = await new Promise<number | string>((resolve) => {
    const child = spawn(boxed.command, boxed.args, {
      cwd: boxed.cwd,
      env: boxed.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs);
    const write = (b: Buffer): void => void appendFile(opts.logFile, b).catch(() => undefined);
    child.stdout.on("data", write);
    child.stderr.on("data", write);
    child.on("error", (e) => {
      clearTimeout(timer);
      resolve(e.message);
    });
    child.on("close", (c, signal) => {
      clearTimeout(timer);
      resolve(c ?? `signal ${signal}`);
    });
  });
  if (code !== 0) {
    // Let the pipes' last writes land before reading the log back.
    await new Promise((r) => setTimeout(r, 50));
    const log = (await readLastLines(opts.logFile, 100).catch(() => [] as string[])).join("\n");
    throw new ChaincodeBuildError(`${what} failed (${typeof code === "number" ? `exit ${code}` : code})`, log);
  }
}

/** Variables a build may need from the console's environment (proxies, registries); nothing else passes. */
const BUILD_PASS = [
  "PATH",
  "LANG",
  "TZ",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "GOPROXY",
  "GOSUMDB",
  "GOPRIVATE",
  "GONOPROXY",
  "GONOSUMDB",
  "GOINSECURE",
  "npm_config_registry",
  "NPM_CONFIG_REGISTRY",
];

/**
 * The environment of a build step: a few of the console's variables (never its secrets, such as
 * CHAINLAUNCH_MASTER_KEY or DATABASE_URL), npm's and Go's caches in the sandbox's cache folder.
 */
export function buildEnv(cacheDir: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of BUILD_PASS) {
    const v = process.env[k];
    if (v !== undefined) env[k] = v;
  }
  env.PATH = [dirname(process.execPath), "/usr/local/go/bin", env.PATH ?? "/usr/local/bin:/usr/bin:/bin"].join(":");
  return {
    ...env,
    npm_config_cache: join(cacheDir, "npm"),
    npm_config_update_notifier: "false",
    GOMODCACHE: join(cacheDir, "go-mod"),
    GOCACHE: join(cacheDir, "go-build"),
    GOPATH: "/tmp/go",
    GOTOOLCHAIN: "local",
    ...extra,
  };
}

/**
 * The cache folders a build binds writable. Never the node_modules store (`node-modules-store`): only
 * the console writes that.
 */
export const buildCaches = (cacheDir: string): string[] => ["npm", "go-mod", "go-build"].map((d) => join(cacheDir, d));

type StepOptions = Parameters<typeof step>[3];

/**
 * `npm install` through the node_modules store, for a source without node_modules: the stored copy
 * when an earlier build had the same dependencies, else npm install in a fresh folder beside the
 * source that only that step sees (so no build script or running chaincode server can touch what is
 * stored), stored, then moved into the source.
 * @returns false when the store can't serve this source (the caller installs in place)
 * @throws ChaincodeBuildError when npm install itself fails
 */
async function installThroughStore(
  store: NodeModulesStore,
  npm: string,
  args: string[],
  dev: boolean,
  opts: StepOptions,
): Promise<boolean> {
  const srcDir = opts.cwd;
  const inputs = await npmVersion(npm)
    .then((v) => dependencyKey(srcDir, { dev, npmVersion: v, env: opts.env }))
    .catch(() => undefined);
  if (!inputs) return false;
  const key = `${inputs.key.slice(0, 12)}…`;
  const t0 = Date.now();
  if (await restoreNodeModules(store, inputs, srcDir)) {
    await appendFile(
      opts.logFile,
      `\n--- npm install: reused the installed dependencies of an earlier build (key ${key}, copied in ${Date.now() - t0} ms) ---\n`,
    );
    return true;
  }
  const scratch = await mkdtemp(join(dirname(srcDir), ".npm-install-")).catch(() => undefined);
  if (!scratch) return false;
  try {
    // The bytes the key was computed from, so the entry matches its key.
    for (const [name, bytes] of inputs.files) await writeFile(join(scratch, name), bytes, { flag: "wx" });
    try {
      await step("npm install", npm, args, { ...opts, cwd: scratch, policy: { ...opts.policy, writable: [scratch] } });
    } catch (err) {
      // An .npmrc may name files of the project (a cafile): let npm try again where they are.
      if (inputs.files.has(".npmrc")) return false;
      throw err;
    }
    if (!(await lstat(join(scratch, "node_modules")).catch(() => undefined))) {
      // No dependencies: nothing to keep or move.
      await rename(join(scratch, "package-lock.json"), join(srcDir, "package-lock.json")).catch(() => undefined);
      return true;
    }
    const saved = await saveNodeModules(store, inputs.key, scratch);
    await appendFile(
      opts.logFile,
      saved
        ? `--- npm install: kept the installed dependencies for later builds (key ${key}) ---\n`
        : `--- npm install: could not keep the installed dependencies for later builds (key ${key}) ---\n`,
    );
    if (saved) await pruneNodeModulesStore(store);
    // rename never follows a link: something planted at these names makes it fail, never write elsewhere.
    await rename(join(scratch, "node_modules"), join(srcDir, "node_modules"));
    await rename(join(scratch, "package-lock.json"), join(srcDir, "package-lock.json")).catch(() => undefined);
    return true;
  } catch (err) {
    if (err instanceof ChaincodeBuildError) throw err;
    return false;
  } finally {
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * Prepares a chaincode source to run as a chaincode-as-a-service server, logging every step, each
 * inside `p.sandbox`:
 * - node: `npm install --ignore-scripts` (production dependencies; all of them plus `npm run build` when the
 *   package has a build script), then fabric-shim's `fabric-chaincode-node server` (the caller adds
 *   `--chaincode-address` and `--chaincode-id`);
 * - go: `go build` (needs the Go toolchain) to `<src>/../bin/chaincode`;
 * - executable: the file itself.
 * @throws ChaincodeBuildError naming the failed step (or what is missing) with the build log
 */
export async function buildChaincode(p: {
  type: ChaincodeSourceType;
  srcDir: string;
  logFile: string;
  /** Every step runs in it: the source folder (and the Go output folder) writable, the toolchain read-only. */
  sandbox: Sandbox;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Finds `go` and `npm` (default: PATH and their usual install folders). */
  findTool?: (tool: "go" | "npm") => Promise<string | undefined>;
  /** The source was built already (by an earlier call): only say how to run it. */
  built?: boolean;
  /**
   * Installed dependencies of earlier builds (default: `<sandbox cacheDir>/node-modules-store`, 20
   * keys); false to always run npm install. Must not be among the caches sandboxed steps write.
   */
  nodeModulesStore?: NodeModulesStore | false;
  /** Told each step's name as it starts (npm install, npm run build, go build). */
  onStep?: (what: string) => void;
}): Promise<ChaincodeCommand> {
  if (p.built && p.type === "go") {
    const out = join(p.srcDir, "..", "bin", "chaincode");
    if (await isExecutable(out)) return { command: out, args: [], cwd: p.srcDir };
  }
  if (p.built && p.type === "node") {
    const bin = join(p.srcDir, "node_modules", ".bin", "fabric-chaincode-node");
    if (await exists(bin)) return { command: process.execPath, args: [bin, "server"], cwd: p.srcDir };
  }
  const find =
    p.findTool ??
    ((tool: "go" | "npm") =>
      tool === "go"
        ? which("go", ["/usr/local/go/bin", "/usr/lib/go/bin"])
        : which("npm", [dirname(process.execPath)]));
  await mkdir(dirname(p.logFile), { recursive: true });
  await appendFile(p.logFile, `--- build ${p.type} ${new Date().toISOString()} ---\n`);
  const env = buildEnv(p.sandbox.cacheDir, p.env);
  const policy: SandboxPolicy = {
    writable: [p.srcDir],
    readOnly: [nodePrefix()],
    caches: buildCaches(p.sandbox.cacheDir),
  };
  const opts = {
    cwd: p.srcDir,
    env,
    logFile: p.logFile,
    timeoutMs: p.timeoutMs ?? 600_000,
    sandbox: p.sandbox,
    policy,
    onStep: p.onStep,
  };
  if (p.type === "executable") {
    const st = await stat(p.srcDir).catch(() => undefined);
    const file = st?.isDirectory() ? join(p.srcDir, (await readdir(p.srcDir))[0] ?? "") : p.srcDir;
    if (!(await isExecutable(file))) {
      throw new ChaincodeBuildError(`${file} is not an executable file`, "");
    }
    return { command: file, args: [], cwd: dirname(file) };
  }
  if (p.type === "go") {
    const go = await find("go");
    if (!go) {
      throw new ChaincodeBuildError(
        "Go toolchain not found: install Go 1.22+ (the `go` command on PATH) or upload a prebuilt executable",
        "",
      );
    }
    const out = join(dirname(p.srcDir), "bin", "chaincode");
    await mkdir(dirname(out), { recursive: true });
    const goroot = dirname(dirname(await realpath(go)));
    await step("go build", go, ["build", "-o", out, "."], {
      ...opts,
      env: { ...env, GOFLAGS: "-mod=mod -buildvcs=false", CGO_ENABLED: "0" },
      policy: { ...policy, writable: [p.srcDir, dirname(out)], readOnly: [nodePrefix(), goroot] },
    });
    return { command: out, args: [], cwd: p.srcDir };
  }
  // node
  const npm = await find("npm");
  if (!npm)
    throw new ChaincodeBuildError("npm not found beside node; it is needed to install the chaincode's packages", "");
  const pkg = JSON.parse(await readFile(join(p.srcDir, "package.json"), "utf8").catch(() => "{}")) as {
    scripts?: Record<string, string>;
  };
  const hasBuild = Boolean(pkg.scripts?.build);
  // Install scripts never run (a preinstall is arbitrary code); packages that need them are not supported.
  const install = [
    "install",
    ...(hasBuild ? [] : ["--omit=dev"]),
    "--ignore-scripts",
    "--no-audit",
    "--no-fund",
    "--prefer-offline",
  ];
  const nodeModules = join(p.srcDir, "node_modules");
  const store = p.nodeModulesStore ?? nodeModulesStore(p.sandbox.cacheDir);
  // Only a source without node_modules goes through the store: one it brought could be anything.
  const fresh = !(await lstat(nodeModules).catch(() => undefined));
  const installed = fresh && store ? await installThroughStore(store, npm, install, hasBuild, opts) : false;
  if (!installed && (!(await exists(nodeModules)) || hasBuild)) await step("npm install", npm, install, opts);
  if (hasBuild) await step("npm run build", npm, ["run", "build"], opts);
  const bin = join(p.srcDir, "node_modules", ".bin", "fabric-chaincode-node");
  if (!(await exists(bin))) {
    throw new ChaincodeBuildError(
      "node_modules/.bin/fabric-chaincode-node not found: package.json must depend on fabric-shim (and fabric-contract-api)",
      "",
    );
  }
  return { command: process.execPath, args: [bin, "server"], cwd: p.srcDir };
}

/** TLS files of a chaincode server (PEM files on disk). */
export interface ChaincodeTlsFiles {
  keyFile: string;
  certFile: string;
  /** CA of the peers' client certificates, when the server requires client auth. */
  clientCaFile?: string;
}

/**
 * The environment every chaincode server gets: fabric-samples' conventions (CHAINCODE_ID,
 * CHAINCODE_SERVER_ADDRESS, CHAINCODE_TLS_*), which Go and other servers read, and fabric-shim's
 * CORE_-prefixed options (its CLI reads CORE_CHAINCODE_* through yargs' env prefix).
 */
export function chaincodeServerEnv(p: {
  ccid: string;
  address: string;
  tls?: ChaincodeTlsFiles;
}): Record<string, string> {
  const env: Record<string, string> = {
    CHAINCODE_ID: p.ccid,
    CHAINCODE_SERVER_ADDRESS: p.address,
    CORE_CHAINCODE_ID: p.ccid,
    CORE_CHAINCODE_ADDRESS: p.address,
    CHAINCODE_TLS_DISABLED: p.tls ? "false" : "true",
  };
  if (p.tls) {
    env.CHAINCODE_TLS_KEY = p.tls.keyFile;
    env.CHAINCODE_TLS_CERT = p.tls.certFile;
    env.CORE_CHAINCODE_TLS_KEY_FILE = p.tls.keyFile;
    env.CORE_CHAINCODE_TLS_CERT_FILE = p.tls.certFile;
    if (p.tls.clientCaFile) {
      env.CHAINCODE_CLIENT_CA_CERT = p.tls.clientCaFile;
      env.CORE_CHAINCODE_TLS_CLIENT_CACERT_FILE = p.tls.clientCaFile;
    }
  }
  return env;
}

/**
 * The source of a definition as one buffer to send to another console: an executable as its bytes,
 * a folder as a gzip tar of its content without node_modules and .git (the receiver installs and
 * builds it again; `extractArchive` takes it back).
 */
export async function packSource(path: string, executable: boolean): Promise<Buffer> {
  if (executable) return readFile(path);
  const tar = await which("tar");
  if (!tar) throw new Error("the `tar` program is not installed");
  const out = join(dirname(path), `.pack-${process.pid}-${Date.now()}.tgz`);
  try {
    await execFileP(tar, ["-czf", out, "--exclude=./node_modules", "--exclude=./.git", "-C", path, "."]);
    return await readFile(out);
  } finally {
    await rm(out, { force: true });
  }
}
