import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { cp, lstat, mkdir, mkdtemp, readdir, readFile, realpath, rename, rm, stat, utimes } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

const execFileP = promisify(execFile);

/**
 * The installed dependencies (`node_modules`) of earlier Node chaincode builds, one folder per
 * {@link dependencyKey}: `<store>/<key>/node_modules` (and the `package-lock.json` npm left).
 *
 * Who may write here is the point. The store lives in the sandbox's cache folder but is never one of
 * the caches a sandboxed step binds (`buildCaches`), so only the console writes it, and only with
 * what a fresh `npm install --ignore-scripts` made in a folder no user code has seen (see
 * `buildChaincode`): never what a build script or a chaincode server could have touched. Entries
 * are real copies (a hardlink would let a chaincode writing its own copy change the store's), made
 * in a temporary folder and renamed into place, so a crashed copy leaves no half entry and two
 * builds with the same key keep one (the loser drops its copy).
 */
export interface NodeModulesStore {
  dir: string;
  /** Entries kept, most recently used first; older ones are removed after a build. */
  keep: number;
}

/** Keys kept by default: ~20 × 50 MB for a fabric-shim chaincode with TypeScript. */
export const NODE_MODULES_STORE_KEEP = 20;

/** The store of a sandbox cache folder (beside, never inside, the caches sandboxed steps write). */
export const nodeModulesStore = (cacheDir: string, keep = NODE_MODULES_STORE_KEEP): NodeModulesStore => ({
  dir: join(cacheDir, "node-modules-store"),
  keep,
});

/** package.json fields that decide what `npm install` puts in node_modules. */
const DEPENDENCY_FIELDS = [
  "dependencies",
  "devDependencies",
  "optionalDependencies",
  "peerDependencies",
  "overrides",
  "bundleDependencies",
  "bundledDependencies",
] as const;

/** Project files npm install reads besides package.json; their bytes are part of the key. */
const INPUT_FILES = ["package-lock.json", "npm-shrinkwrap.json", ".npmrc"] as const;

/** A spec naming files of this host (`file:`, `link:`, a path): their content is not in the key. */
const isLocalSpec = (spec: string): boolean => /^(file:|link:|\.{1,2}(\/|$)|\/|~\/)/.test(spec.trim());
/** A spec npm fetches anew each time unless a lock pins it (git, GitHub shorthand, a URL). */
const isMovingSpec = (spec: string): boolean =>
  /^(git\+|git:|github:|gitlab:|bitbucket:|gist:|https?:)/.test(spec.trim()) || /^[^@./][^:]*\/[^/]+$/.test(spec);

function specs(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (value && typeof value === "object") for (const v of Object.values(value)) specs(v, out);
  return out;
}

/** What a key was computed from: the files to give `npm install` (byte for byte what was hashed). */
export interface DependencyInputs {
  key: string;
  /** File name → bytes: package.json and whichever of {@link INPUT_FILES} the project has. */
  files: Map<string, Buffer>;
  hasLock: boolean;
}

/**
 * The store key of a Node project, or undefined when its dependencies can't be reused safely: sha256
 * over package.json's dependency fields, the lock file (package-lock.json or npm-shrinkwrap.json) and
 * `.npmrc` bytes, whether dev dependencies are installed, node's major version, npm's version, the
 * platform, and the build's `npm_config_*` variables. Undefined for workspaces and local (`file:`)
 * dependencies (files outside the key), git or URL dependencies without a lock (npm would fetch them
 * again), or project files that are not regular files.
 *
 * Without a lock the key is package.json: a range then keeps resolving to what the first build
 * installed, as `npm install --prefer-offline` with the shared cache would mostly do too.
 */
export async function dependencyKey(
  srcDir: string,
  opts: { dev: boolean; npmVersion: string; env: Record<string, string> },
): Promise<DependencyInputs | undefined> {
  const files = new Map<string, Buffer>();
  for (const name of ["package.json", ...INPUT_FILES]) {
    const st = await lstat(join(srcDir, name)).catch(() => undefined);
    if (!st) continue;
    if (!st.isFile()) return undefined;
    files.set(name, await readFile(join(srcDir, name)));
  }
  const raw = files.get("package.json");
  if (!raw) return undefined;
  let pkg: Record<string, unknown>;
  try {
    pkg = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (!pkg || typeof pkg !== "object" || pkg.workspaces !== undefined) return undefined;
  const hasLock = files.has("package-lock.json") || files.has("npm-shrinkwrap.json");
  const all = DEPENDENCY_FIELDS.flatMap((f) => specs(pkg[f]));
  if (all.some(isLocalSpec)) return undefined;
  if (!hasLock && all.some(isMovingSpec)) return undefined;
  const sha = (b: Buffer | undefined): string | null => (b ? createHash("sha256").update(b).digest("hex") : null);
  const npmEnv = Object.entries(opts.env)
    .filter(([k]) => /^npm_config_/i.test(k) && !/^npm_config_(cache|update_notifier)$/i.test(k))
    .sort(([a], [b]) => a.localeCompare(b));
  const material = {
    v: 1,
    node: process.versions.node.split(".")[0],
    npm: opts.npmVersion,
    platform: `${process.platform}-${process.arch}`,
    dev: opts.dev,
    fields: DEPENDENCY_FIELDS.map((f) => [f, pkg[f] ?? null]),
    files: INPUT_FILES.map((f) => [f, sha(files.get(f))]),
    env: npmEnv,
  };
  const key = createHash("sha256").update(JSON.stringify(material)).digest("hex");
  return { key, files, hasLock };
}

const npmVersions = new Map<string, string>();
/** npm's version from its own package.json (no process spawned); "unknown" when not found. */
export async function npmVersion(npm: string): Promise<string> {
  const known = npmVersions.get(npm);
  if (known) return known;
  const v = await realpath(npm)
    .then(
      async (p) =>
        JSON.parse(await readFile(join(dirname(dirname(p)), "package.json"), "utf8")) as { version?: string },
    )
    .then((j) => j.version ?? "unknown")
    .catch(() => "unknown");
  npmVersions.set(npm, v);
  return v;
}

/**
 * Copies a folder tree, symlinks as they are (`.bin` links stay relative), owned by the console's
 * user and never hardlinked (coreutils 9 clones by reflink where the filesystem can: copy-on-write,
 * still a separate file). GNU `cp -R -P` took a median 3.1 s against fs.cp's 5.1 s (verbatimSymlinks)
 * on the TypeScript boilerplate's node_modules (3,000 files, 52 MB; 2 cores at load 8); fs.cp is the
 * fallback where `cp` is missing or not GNU.
 */
export async function copyTree(from: string, to: string): Promise<void> {
  try {
    await execFileP("cp", ["-R", "-P", "--preserve=mode", from, to], { timeout: 600_000 });
  } catch (err) {
    const gnu =
      (err as NodeJS.ErrnoException).code !== "ENOENT" && !/(unrecognized|illegal|invalid) option/.test(String(err));
    if (gnu) throw err;
    await rm(to, { recursive: true, force: true });
    await cp(from, to, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
  }
}

const entryDir = (store: NodeModulesStore, key: string): string => join(store.dir, key);

/** A fresh temporary folder beside `dir` (same filesystem, so a rename finishes the move). */
const tempBeside = (dir: string, prefix: string): Promise<string> => mkdtemp(join(dirname(dir), prefix));

/**
 * Puts the stored node_modules of `inputs.key` into `srcDir` (which has none): copied to a temporary
 * folder beside it, then renamed in, so the source never holds half a copy; the entry's
 * package-lock.json too when the source has no lock (`inputs.hasLock`, as dependencyKey read it).
 * Marks the entry used.
 * @returns false when the key is not stored or the copy failed (nothing is left behind then)
 */
export async function restoreNodeModules(
  store: NodeModulesStore,
  inputs: Pick<DependencyInputs, "key" | "hasLock">,
  srcDir: string,
): Promise<boolean> {
  const entry = entryDir(store, inputs.key);
  if (!(await stat(join(entry, "node_modules")).catch(() => undefined))?.isDirectory()) return false;
  const now = new Date();
  await utimes(entry, now, now).catch(() => undefined);
  const tmp = await tempBeside(srcDir, ".node-modules-").catch(() => undefined);
  if (!tmp) return false;
  try {
    await copyTree(join(entry, "node_modules"), join(tmp, "node_modules"));
    // rename never follows a link: a planted `node_modules` or lock link makes it fail, not write through.
    await rename(join(tmp, "node_modules"), join(srcDir, "node_modules"));
    if (!inputs.hasLock && (await stat(join(entry, "package-lock.json")).catch(() => undefined))) {
      await copyTree(join(entry, "package-lock.json"), join(tmp, "package-lock.json"));
      await rename(join(tmp, "package-lock.json"), join(srcDir, "package-lock.json")).catch(() => undefined);
    }
    return true;
  } catch {
    return false;
  } finally {
    await rm(tmp, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * Stores `<from>/node_modules` (and `<from>/package-lock.json`) under `key`: copied into a temporary
 * folder of the store, then renamed to the entry. When another build stored the key meanwhile, that
 * entry stays and this copy is dropped.
 * @returns true when the key is stored (by this call or another)
 */
export async function saveNodeModules(store: NodeModulesStore, key: string, from: string): Promise<boolean> {
  // Only the console reads it (a private registry's packages may be in it).
  await mkdir(store.dir, { recursive: true, mode: 0o700 });
  const tmp = join(store.dir, `.tmp-${key.slice(0, 16)}-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    await mkdir(tmp, { mode: 0o755 });
    await copyTree(join(from, "node_modules"), join(tmp, "node_modules"));
    if (await stat(join(from, "package-lock.json")).catch(() => undefined)) {
      await copyTree(join(from, "package-lock.json"), join(tmp, "package-lock.json"));
    }
    await rename(tmp, entryDir(store, key)).catch(async (err: NodeJS.ErrnoException) => {
      // Another build of the same dependencies won the rename: its entry is as good as this one.
      if (err.code !== "ENOTEMPTY" && err.code !== "EEXIST") throw err;
      await rm(tmp, { recursive: true, force: true });
    });
    const now = new Date();
    await utimes(entryDir(store, key), now, now).catch(() => undefined);
    return true;
  } catch {
    await rm(tmp, { recursive: true, force: true }).catch(() => undefined);
    return false;
  }
}

/**
 * Keeps the `store.keep` most recently used entries (by the mtime restore and save set) and removes
 * the rest, and temporary folders over an hour old (a crashed console's). Errors are ignored: a
 * build never fails because of the store.
 */
export async function pruneNodeModulesStore(store: NodeModulesStore): Promise<void> {
  const names = await readdir(store.dir).catch(() => [] as string[]);
  const entries: { path: string; mtime: number }[] = [];
  const stale = Date.now() - 3_600_000;
  for (const name of names) {
    const path = join(store.dir, name);
    const st = await stat(path).catch(() => undefined);
    if (!st) continue;
    if (name.startsWith(".tmp-")) {
      if (st.mtimeMs < stale) await rm(path, { recursive: true, force: true }).catch(() => undefined);
    } else if (/^[0-9a-f]{64}$/.test(name)) {
      entries.push({ path, mtime: st.mtimeMs });
    }
  }
  entries.sort((a, b) => b.mtime - a.mtime);
  for (const e of entries.slice(store.keep)) await rm(e.path, { recursive: true, force: true }).catch(() => undefined);
}
