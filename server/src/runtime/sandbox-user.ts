import { execFile } from "node:child_process";
import { lchown, stat } from "node:fs/promises";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The unprivileged user sandboxed programs run as when the console is root. */
export interface SandboxIdentity {
  user: string;
  uid: number;
  gid: number;
}

/** uid and gid of `user` from the passwd database (getent, so NSS sources count); undefined when unknown. */
export async function lookupUser(user: string): Promise<SandboxIdentity | undefined> {
  try {
    const { stdout } = await run("getent", ["passwd", user], { timeout: 10_000 });
    const f = stdout.trim().split(":");
    const uid = Number(f[2]);
    const gid = Number(f[3]);
    if (!Number.isInteger(uid) || !Number.isInteger(gid)) return undefined;
    return { user, uid, gid };
  } catch {
    return undefined;
  }
}

/**
 * The sandbox user, created on first use (`useradd --system`, no home, no login shell). Falls back
 * to `nobody` when it can't be created, and says so: nobody is shared with other daemons. Never root.
 */
export async function ensureSandboxUser(
  user: string,
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void },
): Promise<SandboxIdentity> {
  let found = await lookupUser(user);
  if (!found) {
    try {
      await run(
        "useradd",
        [
          "--system",
          "--no-create-home",
          "--user-group",
          "--home-dir",
          "/nonexistent",
          "--shell",
          "/usr/sbin/nologin",
          user,
        ],
        { timeout: 30_000 },
      );
      log?.info({ user }, "created the sandbox user for user code");
    } catch (err) {
      // Another console (or test worker) may have created it meanwhile: look again before giving up.
      if (!(await lookupUser(user))) {
        log?.warn({ user, err: (err as Error).message }, "could not create the sandbox user; user code runs as nobody");
      }
    }
    found = (await lookupUser(user)) ?? (await lookupUser("nobody"));
  }
  if (!found) throw new Error(`neither the sandbox user '${user}' nor 'nobody' exists, and useradd failed`);
  if (found.uid === 0 || found.gid === 0) throw new Error(`the sandbox user '${found.user}' must not be root`);
  return found;
}

/**
 * Lets the sandbox user write its folders (which exist: the sandbox made them): caches are owned
 * (their content is the user's already), workload folders are chowned recursively without following
 * links (`-h`, `-P`), so a link planted inside never hands over a file elsewhere.
 */
export async function grantWrite(paths: string[], id: SandboxIdentity, caches: string[]): Promise<void> {
  for (const p of paths) {
    if (caches.includes(p)) {
      const st = await stat(p);
      if (st.uid !== id.uid || st.gid !== id.gid) await lchown(p, id.uid, id.gid);
      continue;
    }
    await run("chown", ["-R", "-h", "-P", `${id.uid}:${id.gid}`, p], { timeout: 120_000 });
  }
}

/**
 * Lets the sandbox user read console-owned files (its TLS key, plugin key files) through its
 * group; the console stays the owner, so the program can't replace or change them.
 */
export async function grantRead(paths: string[], id: SandboxIdentity): Promise<void> {
  for (const p of paths) {
    if (!(await stat(p).catch(() => undefined))) continue;
    await run("chgrp", ["-R", "-h", "-P", String(id.gid), p], { timeout: 60_000 });
    await run("chmod", ["-R", "g+rX", p], { timeout: 60_000 });
  }
}

/**
 * Hands existing console-written files to the sandbox user (owner and group, modes kept, links not
 * followed). Only for folders the console removes before it writes them again, so nothing the
 * program plants there is ever written through.
 */
export async function handOver(paths: string[], id: SandboxIdentity): Promise<void> {
  for (const p of paths) {
    if (!(await stat(p).catch(() => undefined))) continue;
    await run("chown", ["-R", "-h", "-P", `${id.uid}:${id.gid}`, p], { timeout: 60_000 });
  }
}
