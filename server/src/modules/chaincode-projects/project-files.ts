import { randomBytes } from "node:crypto";
import { constants, existsSync } from "node:fs";
import {
  lchown,
  lstat,
  mkdir,
  open,
  readdir,
  readlink,
  realpath,
  rename,
  rm,
  stat,
  unlink,
  writeFile,
} from "node:fs/promises";
import { basename, dirname, isAbsolute, join, sep } from "node:path";
import { ConflictError, InputError, NotFoundError } from "../../http/errors.js";
import { assertNoInstallScripts, assertNotNativeBuild } from "../fabric-chaincodes/source-policy.js";

/** Largest file the editor reads or writes. */
export const MAX_FILE_BYTES = 1024 * 1024;
/** Folders the tree leaves out: installed packages, build output, VCS data. */
export const IGNORED_DIRS = new Set(["node_modules", ".git", "dist", "bin"]);
const MAX_DEPTH = 32;

export interface TreeNode {
  name: string;
  /** Relative to the project root, with `/`; "" for the root. */
  path: string;
  isDir: boolean;
  children?: TreeNode[];
}

/** Linux shows where a descriptor points under /proc/self/fd: the check that can't be raced. */
const PROC_FD = existsSync("/proc/self/fd");

/** When the console is root, a new file takes its folder's owner (the sandbox user's, once a shell ran). */
async function matchOwner(file: string, dir: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  // stat, not lstat: `dir` may be a /proc/self/fd link, whose own owner is the console.
  const st = await stat(dir);
  if (st.uid !== 0) await lchown(file, st.uid, st.gid);
}

const refuse = (field: string, path: string, why: string): InputError =>
  new InputError(`${field}: '${path}' ${why}`, { field, path });

/**
 * A project's files, confined to its root: every path is relative, has no `..` segment, no NUL,
 * and resolves (through symlinks) to a place inside the root. Writes go to a temporary file in the
 * same folder and are renamed over the target, so a reader sees the old or the new content, never
 * half of it.
 */
export function projectFiles(root: string) {
  let realRoot: string | undefined;
  const rootReal = async (): Promise<string> => (realRoot ??= await realpath(root));

  /** Checks the text of a path; returns its absolute location (not yet resolved through symlinks). */
  function locate(path: unknown, field: string, allowRoot = false): { abs: string; rel: string } {
    if (typeof path !== "string") throw new InputError(`${field}: a path is required`, { field });
    const text = path.trim();
    if (text.includes("\0")) throw refuse(field, path.replace(/\0/g, "\\0"), "contains a NUL byte");
    if (text === "" || text === "." || text === "/") {
      if (allowRoot) return { abs: root, rel: "" };
      throw new InputError(`${field}: a path inside the project is required`, { field });
    }
    if (isAbsolute(text) || /^[A-Za-z]:[\\/]/.test(text) || text.startsWith("\\")) {
      throw refuse(field, path, "is absolute; give a path relative to the project");
    }
    const parts = text.split(/[\\/]+/).filter((p) => p !== "" && p !== ".");
    if (parts.some((p) => p === "..")) throw refuse(field, path, "leaves the project (`..`)");
    if (parts.some((p) => p === ".git")) {
      throw refuse(field, path, "is inside the project's history (.git), which only starts and restores change");
    }
    if (parts.length > MAX_DEPTH) throw refuse(field, path, `is deeper than ${MAX_DEPTH} folders`);
    if (parts.some((p) => p.length > 255)) throw refuse(field, path, "has a name longer than 255 characters");
    return { abs: join(root, ...parts), rel: parts.join("/") };
  }

  const inside = (realRootPath: string, candidate: string): boolean =>
    candidate === realRootPath || candidate.startsWith(realRootPath + sep);

  /** The real location of `abs`, or of its deepest existing ancestor; refused when outside the root. */
  async function confine(abs: string, path: string, field: string): Promise<void> {
    const top = await rootReal();
    let probe = abs;
    for (;;) {
      try {
        const real = await realpath(probe);
        if (!inside(top, real)) throw refuse(field, path, "resolves outside the project (through a symlink)");
        return;
      } catch (err) {
        if (err instanceof InputError) throw err;
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== "ENOENT" && code !== "ENOTDIR") throw err;
        // A dangling symlink is an escape we can't judge: refuse it.
        const link = await lstat(probe).catch(() => undefined);
        if (link?.isSymbolicLink()) throw refuse(field, path, "is a symlink to nothing inside the project");
        const parent = dirname(probe);
        if (parent === probe) throw refuse(field, path, "is not inside the project");
        probe = parent;
      }
    }
  }

  /**
   * Opens `abs` (following links, as `confine` allowed) and checks where the descriptor really is:
   * a folder swapped for a symlink between the check and the open (a shell in the project can race
   * the console) is caught here, because the kernel's answer for the descriptor can't be raced.
   * The returned path goes through `/proc/self/fd`, so later operations stay in that very folder.
   */
  async function pin(abs: string, rel: string, field: string, flags: number) {
    const fh = await open(abs, flags | constants.O_NONBLOCK);
    if (PROC_FD) {
      const real = await readlink(`/proc/self/fd/${fh.fd}`).catch(() => "");
      if (!inside(await rootReal(), real)) {
        await fh.close();
        throw refuse(field, rel, "resolves outside the project (through a symlink)");
      }
    }
    return { fh, path: PROC_FD ? `/proc/self/fd/${fh.fd}` : abs };
  }

  /** Runs `fn` with a path of `dirAbs` pinned by {@link pin}. */
  async function inDir<T>(dirAbs: string, rel: string, field: string, fn: (dir: string) => Promise<T>): Promise<T> {
    const { fh, path } = await pin(dirAbs, rel, field, constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      return await fn(path);
    } finally {
      await fh.close();
    }
  }

  /** Writes `abs` atomically (temporary file renamed over it) inside its pinned folder; refuses links and folders. */
  async function put(abs: string, rel: string, content: string | Uint8Array): Promise<void> {
    await confine(abs, rel, "path");
    const existing = await lstat(abs).catch(() => undefined);
    if (existing?.isSymbolicLink()) throw refuse("path", rel, "is a symlink; the editor does not write through links");
    if (existing?.isDirectory()) throw refuse("path", rel, "is a folder");
    await mkdir(dirname(abs), { recursive: true });
    await confine(dirname(abs), rel, "path");
    await inDir(dirname(abs), rel, "path", async (dir) => {
      const tmp = join(dir, `.${randomBytes(6).toString("hex")}.tmp`);
      try {
        await writeFile(tmp, content, { mode: existing ? existing.mode & 0o777 : 0o644, flag: "wx" });
        // Owned like its folder (a shell's files are the sandbox user's), so the shell can edit it too.
        await matchOwner(tmp, dir);
        await rename(tmp, join(dir, basename(abs)));
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
    });
  }

  async function tree(dirAbs: string, rel: string, depth: number): Promise<TreeNode[]> {
    if (depth > MAX_DEPTH) return [];
    const entries = await readdir(dirAbs, { withFileTypes: true });
    const out: TreeNode[] = [];
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (IGNORED_DIRS.has(e.name)) continue;
        out.push({
          name: e.name,
          path: childRel,
          isDir: true,
          children: await tree(join(dirAbs, e.name), childRel, depth + 1),
        });
      } else if (e.isFile()) {
        out.push({ name: e.name, path: childRel, isDir: false });
      }
      // Symlinks and special files are not shown: the editor neither follows nor edits them.
    }
    // Folders first, as file trees show them.
    return out.sort((a, b) => Number(b.isDir) - Number(a.isDir));
  }

  return {
    locate,

    /** The whole tree (without ignored folders), rooted at the project. */
    async entries(name: string): Promise<TreeNode> {
      return { name, path: "", isDir: true, children: await tree(root, "", 0) };
    },

    /**
     * One folder's names (not recursive): its files, its folders, and the folders left out as the
     * tree leaves them out (node_modules, .git, dist, bin). Symlinks and special files are in neither
     * list: they are never followed. `dir` empty or absent is the root.
     */
    async listDir(dir: unknown): Promise<{ directories: string[]; files: string[]; skipped: string[] }> {
      const { abs, rel } = locate(dir ?? "", "dir", true);
      await confine(abs, rel, "dir");
      const flags = constants.O_RDONLY | constants.O_DIRECTORY;
      const opened = await pin(abs, rel, "dir", flags).catch((err: unknown) => {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === "ENOENT") throw new NotFoundError(`dir: '${rel}' does not exist`);
        if (code === "ENOTDIR") throw refuse("dir", rel, "is not a folder");
        throw err;
      });
      try {
        const out = { directories: [] as string[], files: [] as string[], skipped: [] as string[] };
        const entries = await readdir(opened.path, { withFileTypes: true });
        for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
          if (e.isDirectory()) (IGNORED_DIRS.has(e.name) ? out.skipped : out.directories).push(e.name);
          else if (e.isFile()) out.files.push(e.name);
        }
        return out;
      } finally {
        await opened.fh.close();
      }
    },

    async read(path: unknown): Promise<string> {
      const { abs, rel } = locate(path, "path");
      await confine(abs, rel, "path");
      const opened = await pin(abs, rel, "path", constants.O_RDONLY).catch((err: unknown) => {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") throw new NotFoundError(`path: '${rel}' does not exist`);
        throw err;
      });
      try {
        const st = await opened.fh.stat();
        if (!st.isFile()) throw refuse("path", rel, "is not a file");
        if (st.size > MAX_FILE_BYTES) throw refuse("path", rel, `is larger than ${MAX_FILE_BYTES} bytes`);
        const bytes = await opened.fh.readFile();
        return bytes.toString("utf8");
      } finally {
        await opened.fh.close();
      }
    },

    async write(path: unknown, content: unknown): Promise<void> {
      const { abs, rel } = locate(path, "path");
      if (typeof content !== "string") throw new InputError("content: text is required", { field: "content" });
      if (Buffer.byteLength(content, "utf8") > MAX_FILE_BYTES) {
        throw refuse("content", rel, `is larger than ${MAX_FILE_BYTES} bytes`);
      }
      // npm runs install scripts (and node-gyp) by itself on the host: a save that adds one is refused.
      assertNotNativeBuild(rel);
      if (basename(rel) === "package.json") assertNoInstallScripts(content, rel);
      await put(abs, rel, content);
    },

    /**
     * Writes bytes as they are (a restore puts back what a commit holds), with the same confinement
     * as {@link write}: never through a symlink, only inside the project. Checks of content are the caller's.
     */
    async writeBytes(path: string, bytes: Uint8Array): Promise<void> {
      const { abs, rel } = locate(path, "path");
      await put(abs, rel, bytes);
    },

    async deleteFile(path: unknown): Promise<void> {
      const { abs, rel } = locate(path, "path");
      await confine(dirname(abs), rel, "path");
      const st = await lstat(abs).catch(() => undefined);
      if (!st) throw new NotFoundError(`path: '${rel}' does not exist`);
      if (st.isDirectory()) throw refuse("path", rel, "is a folder; delete it with dirs/delete");
      // A symlink inside the project is removed itself; its target is not touched.
      await inDir(dirname(abs), rel, "path", (dir) => unlink(join(dir, basename(abs))));
    },

    async createDir(dir: unknown): Promise<void> {
      const { abs, rel } = locate(dir, "dir");
      await confine(abs, rel, "dir");
      const st = await lstat(abs).catch(() => undefined);
      if (st) throw new ConflictError(`dir: '${rel}' already exists`, { field: "dir" });
      await mkdir(abs, { recursive: true });
      await confine(abs, rel, "dir");
    },

    async deleteDir(dir: unknown): Promise<void> {
      const { abs, rel } = locate(dir, "dir");
      await confine(dirname(abs), rel, "dir");
      const st = await lstat(abs).catch(() => undefined);
      if (!st) throw new NotFoundError(`dir: '${rel}' does not exist`);
      if (!st.isDirectory()) throw refuse("dir", rel, "is not a folder");
      await inDir(dirname(abs), rel, "dir", (dir) => rm(join(dir, basename(abs)), { recursive: true }));
    },
  };
}

export type ProjectFiles = ReturnType<typeof projectFiles>;
