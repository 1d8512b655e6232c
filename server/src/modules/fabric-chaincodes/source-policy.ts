import { mkdtemp, readdir, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve, sep } from "node:path";
import { InputError } from "../../http/errors.js";
import { detectSourceType, extractArchive, type ChaincodeSourceType } from "../../runtime/chaincode-source.js";

/**
 * The scripts `npm install` runs by itself (npm's install lifecycle, `dependencies` since npm 8 and
 * the deprecated `prepublish`). Each runs a shell command on the host as the console's user, before
 * any chaincode runs, so a package.json that has one is refused. Builds also pass --ignore-scripts.
 */
export const NPM_INSTALL_SCRIPTS = [
  "preinstall",
  "install",
  "postinstall",
  "prepublish",
  "preprepare",
  "prepare",
  "postprepare",
  "dependencies",
] as const;

const WHY = "npm runs it by itself on install, so it would run a command on the host; remove it";

/**
 * Checks the text of a package.json (`file` is its path, for the message): 400 naming
 * `<file>: scripts.<name>` for an install-lifecycle script, or `<file>: gypfile` (npm builds native
 * code with node-gyp on install). Text that is not JSON is let through: npm can't read it either.
 */
export function assertNoInstallScripts(text: string, file = "package.json"): void {
  let pkg: unknown;
  try {
    // npm strips a byte-order mark before parsing; so do we, or a BOM would hide the scripts.
    pkg = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return;
  }
  if (!pkg || typeof pkg !== "object") return;
  const { scripts, gypfile } = pkg as { scripts?: unknown; gypfile?: unknown };
  if (scripts && typeof scripts === "object") {
    const found = NPM_INSTALL_SCRIPTS.find((s) => Object.hasOwn(scripts, s));
    if (found) throw new InputError(`${file}: scripts.${found}: ${WHY}`, { field: `scripts.${found}`, file });
  }
  if (gypfile === true)
    throw new InputError(`${file}: gypfile: npm builds native code with node-gyp on install; remove it`, {
      field: "gypfile",
      file,
    });
}

/** `binding.gyp` makes npm run node-gyp on install even without a script. */
export function assertNotNativeBuild(file: string): void {
  if (basename(file) === "binding.gyp")
    throw new InputError(
      `${file}: npm builds a binding.gyp with node-gyp on install, which runs commands on the host`,
      {
        field: "path",
        file,
      },
    );
}

/**
 * Checks every package.json (and binding.gyp) under `dir`, outside node_modules and .git: npm runs
 * the lifecycle scripts of workspaces and `file:` dependencies too. Paths in messages are relative.
 */
export async function assertSourceTreeSafe(dir: string): Promise<void> {
  async function walk(abs: string, rel: string, depth: number): Promise<void> {
    if (depth > 32) return;
    for (const e of await readdir(abs, { withFileTypes: true }).catch(() => [])) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (e.name !== "node_modules" && e.name !== ".git") await walk(join(abs, e.name), childRel, depth + 1);
      } else if (e.isFile()) {
        if (e.name === "package.json") assertNoInstallScripts(await readFile(join(abs, e.name), "utf8"), childRel);
        else assertNotNativeBuild(childRel);
      }
    }
  }
  await walk(dir, "", 0);
}

/**
 * What an uploaded archive holds, read from a throw-away copy before the service stores it: its
 * source type (what `type=auto` would detect) after {@link assertSourceTreeSafe}. An archive that
 * can't be unpacked is a 400 naming `body`: a check that could not look is not a pass.
 */
export async function inspectArchive(bytes: Buffer): Promise<ChaincodeSourceType | undefined> {
  const tmp = await mkdtemp(join(tmpdir(), "chainlaunch-upload-"));
  try {
    const dest = join(tmp, "src");
    // Fail closed: what can't be unpacked here is refused, never let through unchecked.
    await extractArchive(bytes, dest).catch((err: unknown) => {
      throw new InputError(`body: ${err instanceof Error ? err.message : String(err)}`, { field: "body" });
    });
    await assertSourceTreeSafe(dest);
    return detectSourceType(dest);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** Where `path` really is: symlinks resolved up to its deepest existing ancestor, the rest appended. */
async function resolveReal(path: string): Promise<string> {
  const abs = resolve(path);
  const real = await realpath(abs).catch(() => undefined);
  if (real) return real;
  const parent = dirname(abs);
  return parent === abs ? abs : join(await resolveReal(parent), basename(abs));
}

/**
 * Refuses a source_path that is inside the console's data directory, or holds it: copying it would
 * put the master key, the database or other nodes' keys into a chaincode's folder. 400 naming
 * `field`. A path that does not exist yet is judged by its deepest existing folder.
 */
export async function assertOutsideDataDir(path: string, dataDir: string, field: string): Promise<void> {
  const real = await resolveReal(path);
  const data = await resolveReal(dataDir);
  const within = (child: string, parent: string): boolean =>
    child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
  if (within(real, data) || within(data, real))
    throw new InputError(
      `${field}: ${path} is ${within(real, data) ? "inside" : "a parent of"} the console's data directory, which holds its keys and database; give a folder outside it`,
      { field },
    );
}
