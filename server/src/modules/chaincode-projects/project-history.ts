import * as fs from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { basename, join } from "node:path";
import { projectFiles } from "./project-files.js";
import { createTwoFilesPatch } from "diff";
import git from "isomorphic-git";
import { InputError, NotFoundError } from "../../http/errors.js";
import { assertNoInstallScripts, assertNotNativeBuild } from "../fabric-chaincodes/source-policy.js";

export interface CommitInfo {
  hash: string;
  parent: string;
  author: string;
  message: string;
  /** ISO-8601. */
  timestamp: string;
  added: string[];
  modified: string[];
  removed: string[];
}

const HASH = /^[0-9a-f]{4,40}$/;

const ignoreMissing = (err: unknown): void => {
  if (!(err instanceof NotFoundError)) throw err;
};

/** Paths (relative, with `/`) of what is neither a file, a folder nor a symlink, outside .git and node_modules. */
async function specialFiles(dir: string): Promise<Set<string>> {
  const out = new Set<string>();
  async function walk(abs: string, rel: string, depth: number): Promise<void> {
    if (depth > 32) return;
    for (const e of await readdir(abs, { withFileTypes: true }).catch(() => [])) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (e.name !== ".git" && e.name !== "node_modules") await walk(join(abs, e.name), childRel, depth + 1);
      } else if (!e.isFile() && !e.isSymbolicLink()) out.add(childRel);
    }
  }
  await walk(dir, "", 0);
  return out;
}

/**
 * A project's history as a real git repository in its folder (`.git`, written by isomorphic-git):
 * every successful start is a commit of the project's files (what `.gitignore` leaves out, such as
 * node_modules and dist, is not recorded). Restoring a commit writes its files back and records that
 * as a commit of its own, so nothing is lost.
 */
export function projectHistory(dir: string) {
  const author = (user: string) => ({
    name: user || "chainlaunch",
    email: `${user || "chainlaunch"}@chainlaunch.local`,
  });

  async function ensureRepo(): Promise<void> {
    const st = await lstat(join(dir, ".git")).catch(() => undefined);
    // A link planted as .git would have the console write the history elsewhere.
    if (st && !st.isDirectory()) throw new InputError("id: the project's .git is not a folder; remove it");
    if (!st) await git.init({ fs, dir, defaultBranch: "main" });
  }

  async function head(): Promise<string | undefined> {
    return git.resolveRef({ fs, dir, ref: "HEAD" }).catch(() => undefined);
  }

  /** A full commit id from a (possibly short) hash; 400 for a malformed one, 404 for an unknown one. */
  async function resolve(hash: string, field = "commitHash"): Promise<string> {
    const h = hash.trim().toLowerCase();
    if (!HASH.test(h)) throw new InputError(`${field}: '${hash}' is not a commit hash`, { field });
    try {
      const oid = h.length === 40 ? h : await git.expandOid({ fs, dir, oid: h });
      await git.readCommit({ fs, dir, oid });
      return oid;
    } catch {
      throw new NotFoundError(`${field}: commit '${hash}' is not in this project's history`);
    }
  }

  /** Files whose blob differs between two commits' trees (parent undefined: everything is added). */
  async function changes(oid: string, parent: string | undefined) {
    const out = { added: [] as string[], modified: [] as string[], removed: [] as string[] };
    const trees = parent ? [git.TREE({ ref: parent }), git.TREE({ ref: oid })] : [git.TREE({ ref: oid })];
    await git.walk({
      fs,
      dir,
      trees,
      map: async (path, entries) => {
        if (path === ".") return undefined;
        const [a, b] = parent ? entries : [null, entries[0]];
        const ta = a ? await a.type() : undefined;
        const tb = b ? await b.type() : undefined;
        if (ta === "tree" || tb === "tree") return true;
        if (!ta && tb === "blob") out.added.push(path);
        else if (ta === "blob" && !tb) out.removed.push(path);
        else if (ta === "blob" && tb === "blob" && (await a!.oid()) !== (await b!.oid())) out.modified.push(path);
        return undefined;
      },
    });
    return out;
  }

  async function info(oid: string): Promise<CommitInfo> {
    const { commit } = await git.readCommit({ fs, dir, oid });
    const parent = commit.parent[0];
    return {
      hash: oid,
      parent: parent ?? "",
      author: commit.author.name,
      message: commit.message.trim(),
      timestamp: new Date(commit.author.timestamp * 1000).toISOString(),
      ...(await changes(oid, parent)),
    };
  }

  async function readAt(oid: string, file: string): Promise<string | undefined> {
    try {
      const { blob } = await git.readBlob({ fs, dir, oid, filepath: file });
      return Buffer.from(blob).toString("utf8");
    } catch {
      return undefined;
    }
  }

  return {
    /** Stages the project's files as they are now (what a start is about to build). */
    /** Makes the repository if the folder has none (a shell binds `.git` read-only, so it must exist first). */
    ensure: ensureRepo,

    async stage(): Promise<void> {
      await ensureRepo();
      // FIFOs, sockets and devices (a shell can make them) would block git's read: left out.
      const special = await specialFiles(dir);
      const matrix = await git.statusMatrix({ fs, dir, filter: (f) => !special.has(f) });
      for (const [filepath, headStatus, workdir, stage] of matrix) {
        if (workdir === 0) {
          if (headStatus !== 0 || stage !== 0) await git.remove({ fs, dir, filepath });
        } else if (headStatus !== workdir || stage !== workdir) {
          await git.add({ fs, dir, filepath });
        }
      }
    },

    /** Commits what is staged; returns the commit's hash. */
    async commit(message: string, user: string): Promise<string> {
      const who = author(user);
      return git.commit({ fs, dir, message, author: who, committer: who });
    },

    /** Records the project's files as they are now as a commit; returns its hash. */
    async snapshot(message: string, user: string): Promise<string> {
      await this.stage();
      return this.commit(message, user);
    },

    async list(page: number, pageSize: number): Promise<CommitInfo[]> {
      if (!(await head())) return [];
      const log = await git.log({ fs, dir, depth: page * pageSize });
      return Promise.all(log.slice((page - 1) * pageSize, page * pageSize).map((c) => info(c.oid)));
    },

    async detail(hash: string): Promise<CommitInfo> {
      return info(await resolve(hash));
    },

    async fileAt(hash: string, file: string): Promise<string> {
      const oid = await resolve(hash, "commit");
      const text = await readAt(oid, file);
      if (text === undefined) throw new NotFoundError(`file: '${file}' is not in commit ${oid.slice(0, 7)}`);
      return text;
    },

    /** A unified diff of one file between two commits (a missing side counts as empty). */
    async diff(file: string, from: string, to: string): Promise<string> {
      const a = await resolve(from, "from");
      const b = await resolve(to, "to");
      const before = await readAt(a, file);
      const after = await readAt(b, file);
      if (before === undefined && after === undefined) {
        throw new NotFoundError(`file: '${file}' is in neither commit`);
      }
      return createTwoFilesPatch(`a/${file}`, `b/${file}`, before ?? "", after ?? "", a.slice(0, 7), b.slice(0, 7));
    },

    /**
     * Puts the project's files back as they were at `hash`: its files are written, files it did not have
     * that the latest commit tracks are removed (untracked files stay), and the result is committed.
     */
    async restore(hash: string, user: string): Promise<string> {
      const oid = await resolve(hash);
      const wanted = await git.listFiles({ fs, dir, ref: oid });
      const tracked = (await head()) ? await git.listFiles({ fs, dir, ref: "HEAD" }) : [];
      // An old commit may hold what saves refuse now (an npm install script): refused before any write.
      for (const file of wanted) {
        assertNotNativeBuild(file);
        if (basename(file) !== "package.json") continue;
        const { blob } = await git.readBlob({ fs, dir, oid, filepath: file });
        assertNoInstallScripts(Buffer.from(blob).toString("utf8"), file);
      }
      // Through the files API's confinement: a shell may have swapped a file or folder for a symlink
      // pointing outside the project, and the console (root, perhaps) must not write or delete through it.
      const files = projectFiles(dir);
      for (const file of tracked) {
        if (!wanted.includes(file)) await files.deleteFile(file).catch(ignoreMissing);
      }
      for (const file of wanted) {
        const { blob } = await git.readBlob({ fs, dir, oid, filepath: file });
        await files.writeBytes(file, blob);
      }
      return this.snapshot(`Restore ${oid.slice(0, 7)}`, user);
    },
  };
}

export type ProjectHistory = ReturnType<typeof projectHistory>;
