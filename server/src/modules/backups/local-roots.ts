import { realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { InputError } from "../../http/errors.js";

/** Host directories a LOCAL repository never goes into, whatever the configured roots say. */
const SYSTEM_DIRS = [
  "/bin",
  "/boot",
  "/dev",
  "/etc",
  "/lib",
  "/lib32",
  "/lib64",
  "/proc",
  "/root",
  "/run",
  "/sbin",
  "/sys",
  "/usr",
  "/var/run",
];

const inside = (path: string, dir: string): boolean => {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
};

/** The path with symlinks of its deepest existing ancestor resolved (the rest doesn't exist yet). */
async function physical(path: string): Promise<string> {
  const rest: string[] = [];
  let p = resolve(path);
  for (;;) {
    try {
      return join(await realpath(p), ...rest.reverse());
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw err;
      const parent = dirname(p);
      if (parent === p) return resolve(path);
      rest.push(basename(p));
      p = parent;
    }
  }
}

/** The default root of LOCAL repositories: inside the backups work folder, which snapshots leave out. */
export const defaultLocalRoot = (dataDir: string): string => join(dataDir, "backups", "local");

/**
 * Checks a LOCAL target's directory: it must be inside one of the allowed roots (symlinks resolved,
 * so a link can't lead out), never a host system directory, and never the console's data directory
 * (its keys, database and node folders) except the backups folder.
 * @throws InputError naming bucketPath and the allowed roots.
 */
export async function checkLocalPath(path: string, roots: string[], dataDir: string): Promise<void> {
  const allowed = roots.length ? roots : [defaultLocalRoot(dataDir)];
  const target = await physical(path);
  const refuse = (why: string): InputError =>
    new InputError(
      `bucketPath: ${why}; a LOCAL target must be inside ${allowed.join(" or ")} (CHAINLAUNCH_BACKUP_LOCAL_ROOTS)`,
    );
  if (target === "/" || SYSTEM_DIRS.some((d) => inside(target, d))) throw refuse(`${path} is a system directory`);
  const data = await physical(dataDir);
  if (inside(target, data) && !inside(target, join(data, "backups"))) {
    throw refuse(`${path} is inside the console's data directory`);
  }
  for (const root of allowed) {
    if (inside(target, await physical(root))) return;
  }
  throw refuse(`${path} is outside the allowed roots`);
}
