import { accessSync, constants, existsSync, lstatSync, readlinkSync } from "node:fs";
import { execFile } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { delimiter, dirname, isAbsolute, join, sep } from "node:path";
import { promisify } from "node:util";
import { findExecutable } from "./tools.js";
import { ensureSandboxUser, grantRead, grantWrite, handOver, type SandboxIdentity } from "./sandbox-user.js";

const run = promisify(execFile);

/**
 * The execution boundary for code the console runs on a user's behalf (chaincode builds and servers,
 * workbench projects, plugin processes, prebuilt executables): such a program sees its own folder,
 * the toolchain and the network, and nothing of the console's data dir, master key or database.
 * `bwrap` gives it with Linux namespaces (and, when the console runs as root, a separate
 * unprivileged user); the Docker runtime gives the same with containers behind this interface.
 */
export interface Sandbox {
  /** `bwrap`, `none` (explicitly off: unsafe) or `unavailable` (refuses, saying how to fix it). */
  readonly kind: "bwrap" | "none" | "unavailable";
  /**
   * Prepares the policy's folders (ownership when root) and returns what to spawn instead of
   * `cmd`. The result depends only on its inputs, so a pid file written for it still matches its
   * command line after a console restart (adoption).
   * @throws SandboxUnavailableError when user code must not run here
   */
  wrap(cmd: SandboxCommand, policy: SandboxPolicy, opts?: WrapOptions): Promise<SandboxCommand>;
  /** Folder of the caches (npm, Go) that sandboxed builds share. */
  readonly cacheDir: string;
}

/** A process to run: an absolute command, its arguments, its complete environment and its folder. */
export interface SandboxCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

export interface SandboxPolicy {
  /** The workload's own folders: readable and writable, and the only such places besides caches and /tmp. */
  writable: string[];
  /** Folders or files the program may read (toolchain, builtins, its binary); missing ones are skipped. */
  readOnly?: string[];
  /**
   * Console-owned folders the program must read but never change (its TLS key, plugin key files):
   * made readable to the sandbox user's group, still owned by the console, bound read-only.
   */
  secrets?: string[];
  /**
   * Console-written folders the console always replaces whole (removes, then writes) and that the
   * program must read (plugin key files): handed to the sandbox user with their modes kept (0600
   * stays 0600), bound read-only.
   */
  handed?: string[];
  /** Shared caches (npm, Go): created on first use, owned by the sandbox user, bound writable. */
  caches?: string[];
  /** A build step: dies with the console. Servers do not (a restarted console adopts them). */
  dieWithParent?: boolean;
}

export interface WrapOptions {
  /**
   * False to leave the folders as they are: for adopting a server that already runs (its files are
   * the sandbox user's since its start), so a restarted console finds it without a chown first.
   */
  grant?: boolean;
}

/** User code cannot run: the sandbox is missing or broken. The message names the fix. */
export class SandboxUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SandboxUnavailableError";
  }
}

export type SandboxMode = "auto" | "bwrap" | "off";

/** Files of /etc a program needs for DNS, TLS roots, user names and time zones; nothing else of /etc. */
const ETC_FILES = [
  "/etc/resolv.conf",
  "/etc/hosts",
  "/etc/nsswitch.conf",
  "/etc/host.conf",
  "/etc/gai.conf",
  "/etc/passwd",
  "/etc/group",
  "/etc/localtime",
  "/etc/ssl",
  "/etc/ca-certificates",
  "/etc/pki",
  "/etc/alternatives",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/mime.types",
];

/** Top-level entries that are symlinks into /usr on merged-/usr systems, or folders elsewhere. */
const ROOT_LINKS = ["/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"];

const isUnder = (path: string, dir: string): boolean =>
  path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

function isExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Finds bwrap on PATH or in /usr/bin. */
export function findBwrap(path = process.env.PATH ?? ""): string | undefined {
  const found = findExecutable(
    "bwrap",
    { envVar: "PATH", value: undefined },
    `${path}${delimiter}/usr/bin${delimiter}/bin`,
  );
  return "path" in found ? found.path : undefined;
}

/** The install folder of the running node (`/usr` for Debian's, `<prefix>` for a tarball or nvm). */
export function nodePrefix(execPath = process.execPath): string {
  return dirname(dirname(execPath));
}

/**
 * bwrap's arguments for one command: a root of tmpfs holding read-only /usr (and the distro's
 * /bin, /lib… links), the few /etc files in {@link ETC_FILES}, fresh /proc, /dev and /tmp, and the
 * policy's folders at their own paths (so absolute paths in arguments and environment keep
 * working). New pid, ipc, uts and cgroup namespaces; the network is shared (a chaincode server
 * listens for the peer, builds reach the registries). With `identity` (the console is root) bwrap
 * runs privileged without a user namespace and `setpriv` drops to that user before the program.
 */
export function bwrapArgs(
  cmd: SandboxCommand,
  policy: SandboxPolicy,
  opts: { identity?: SandboxIdentity; setpriv?: string; exists?: (p: string) => boolean },
): string[] {
  const exists = opts.exists ?? existsSync;
  const a: string[] = [];
  if (opts.identity) {
    // Real root: no user namespace (its uid map would hold only root); setpriv needs these two caps.
    a.push("--unshare-ipc", "--unshare-pid", "--unshare-uts", "--unshare-cgroup-try");
    a.push("--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID");
  } else {
    a.push("--unshare-all", "--share-net");
  }
  if (policy.dieWithParent) a.push("--die-with-parent");
  a.push("--ro-bind", "/usr", "/usr");
  for (const link of ROOT_LINKS) {
    let st;
    try {
      st = lstatSync(link);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) a.push("--symlink", readlinkSync(link), link);
    else if (st.isDirectory()) a.push("--ro-bind", link, link);
  }
  a.push("--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--tmpfs", "/tmp");
  const made = new Set<string>(["/", "/usr", "/proc", "/dev", "/tmp", ...ROOT_LINKS]);
  const dirsTo = (path: string): void => {
    const parts: string[] = [];
    for (let d = dirname(path); d !== "/" && !made.has(d); d = dirname(d)) parts.unshift(d);
    for (const d of parts) {
      a.push("--perms", "0755", "--dir", d);
      made.add(d);
    }
  };
  for (const f of ETC_FILES) {
    if (!exists(f)) continue;
    dirsTo(f);
    a.push("--ro-bind-try", f, f);
  }
  const visible = (p: string): boolean => isUnder(p, "/usr");
  const binds: { path: string; how: string }[] = [
    ...(policy.readOnly ?? []).filter((p) => !visible(p)).map((path) => ({ path, how: "--ro-bind-try" })),
    ...[...(policy.secrets ?? []), ...(policy.handed ?? [])].map((path) => ({ path, how: "--ro-bind-try" })),
    ...(policy.caches ?? []).map((path) => ({ path, how: "--bind" })),
    ...policy.writable.map((path) => ({ path, how: "--bind" })),
  ];
  // Parents before children, so a read-only folder inside a writable one stays read-only.
  binds.sort((x, y) => x.path.split(sep).length - y.path.split(sep).length);
  for (const b of binds) {
    dirsTo(b.path);
    a.push(b.how, b.path, b.path);
    made.add(b.path);
  }
  // The skeleton (the folders leading to the binds) is read-only: writes land only in the binds and /tmp.
  a.push("--remount-ro", "/", "--chdir", cmd.cwd, "--");
  if (opts.identity) {
    const { uid, gid } = opts.identity;
    a.push(opts.setpriv ?? "/usr/bin/setpriv", `--reuid=${uid}`, `--regid=${gid}`, "--clear-groups");
    a.push("--inh-caps=-all", "--");
  }
  a.push(cmd.command, ...cmd.args);
  return a;
}

/** The environment inside: the caller's, with HOME and TMPDIR on the sandbox's own /tmp. */
function sandboxEnv(env: Record<string, string>): Record<string, string> {
  return { ...env, HOME: "/tmp", TMPDIR: "/tmp" };
}

function assertAbsolute(cmd: SandboxCommand, policy: SandboxPolicy): void {
  const all = [
    cmd.command,
    cmd.cwd,
    ...policy.writable,
    ...(policy.readOnly ?? []),
    ...(policy.secrets ?? []),
    ...(policy.handed ?? []),
    ...(policy.caches ?? []),
  ];
  for (const p of all) {
    if (!isAbsolute(p)) throw new Error(`sandbox paths must be absolute: ${p}`);
  }
}

/** The sandbox user and the trial run, per bwrap and user: a console restarted in-process reuses them. */
const prepared = new Map<string, Promise<SandboxIdentity | undefined>>();

/**
 * Makes the sandbox for `mode`:
 * - `auto`: bwrap when it is installed and works here, else `unavailable` (user code is refused);
 * - `bwrap`: bwrap, and `unavailable` when it is missing or broken;
 * - `off`: none; programs run as the console's user with its view of the disk (unsafe).
 * When the console runs as root, programs run as `user` (created with useradd on first use,
 * `nobody` if that fails).
 */
export function createSandbox(opts: {
  mode: SandboxMode;
  user: string;
  cacheDir: string;
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** The console's uid (tests pass another to see the non-root form). */
  uid?: number;
  bwrap?: string;
}): Sandbox {
  const cacheDir = opts.cacheDir;
  if (opts.mode === "off") {
    return {
      kind: "none",
      cacheDir,
      wrap: async (cmd) => ({ ...cmd }),
    };
  }
  const bwrap = opts.bwrap ?? findBwrap();
  const fix =
    opts.mode === "auto"
      ? "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) or set CHAINLAUNCH_SANDBOX=off to run it unsandboxed (unsafe)"
      : "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap), or choose CHAINLAUNCH_SANDBOX=off (unsafe)";
  if (!bwrap) {
    return {
      kind: "unavailable",
      cacheDir,
      wrap: () =>
        Promise.reject(
          new SandboxUnavailableError(`user code runs only sandboxed, and bwrap was not found on this host: ${fix}`),
        ),
    };
  }
  const root = (opts.uid ?? process.getuid?.() ?? 0) === 0;
  const setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].find(isExecutable);
  const key = `${bwrap}|${root ? opts.user : ""}`;
  /** Once per process: the user (when root) and a trial run, so a broken bwrap is reported at the first use. */
  const prepare = (): Promise<SandboxIdentity | undefined> => {
    const known = prepared.get(key);
    if (known) return known;
    const ready = (async () => {
      if (root && !setpriv)
        throw new SandboxUnavailableError("setpriv (util-linux) is needed to drop to the sandbox user");
      const identity = root ? await ensureSandboxUser(opts.user, opts.log) : undefined;
      const probe = { command: "/usr/bin/true", args: [], env: {}, cwd: "/" };
      const args = bwrapArgs(probe, { writable: [], dieWithParent: true }, { identity, setpriv });
      try {
        await run(bwrap, args, { timeout: 20_000 });
      } catch (err) {
        const msg = ((err as { stderr?: string }).stderr ?? (err as Error).message).trim();
        throw new SandboxUnavailableError(`bwrap does not work on this host (${msg}): ${fix}`);
      }
      return identity;
    })().catch((err: unknown) => {
      prepared.delete(key);
      throw err;
    });
    prepared.set(key, ready);
    return ready;
  };
  return {
    kind: "bwrap",
    cacheDir,
    async wrap(cmd, policy, wrapOpts = {}) {
      assertAbsolute(cmd, policy);
      const identity = await prepare();
      // bwrap refuses to bind a folder that does not exist.
      if (wrapOpts.grant !== false) {
        for (const d of [...policy.writable, ...(policy.caches ?? [])]) await mkdir(d, { recursive: true });
      }
      if (identity && wrapOpts.grant !== false) {
        await grantWrite([...policy.writable, ...(policy.caches ?? [])], identity, policy.caches ?? []);
        await grantRead(policy.secrets ?? [], identity);
        await handOver(policy.handed ?? [], identity);
      }
      return {
        command: bwrap,
        args: bwrapArgs(cmd, policy, { identity, setpriv }),
        env: sandboxEnv(cmd.env),
        cwd: cmd.cwd,
      };
    },
  };
}

/**
 * The sandbox the console's settings ask for (CHAINLAUNCH_SANDBOX, CHAINLAUNCH_SANDBOX_USER,
 * CHAINLAUNCH_SANDBOX_CACHE). `off` is logged as a warning at boot: user code then runs with the
 * console's rights.
 */
export function sandboxFromConfig(
  config: { sandbox: SandboxMode; sandboxUser: string; sandboxCacheDir: string | undefined; dataDir: string },
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void },
): Sandbox {
  const sandbox = createSandbox({
    mode: config.sandbox,
    user: config.sandboxUser,
    cacheDir: config.sandboxCacheDir ?? join(config.dataDir, "sandbox-cache"),
    log,
  });
  if (sandbox.kind === "none") {
    log.warn(
      { sandbox: "off" },
      "CHAINLAUNCH_SANDBOX=off: chaincode, project and plugin code runs unsandboxed, with the console's rights (it can read the master key and the database)",
    );
  } else if (sandbox.kind === "unavailable") {
    log.warn(
      { sandbox: config.sandbox },
      "bwrap (bubblewrap) was not found: chaincode builds and servers, projects and plugin processes will be refused until it is installed (apt-get install bubblewrap) or CHAINLAUNCH_SANDBOX=off is set",
    );
  }
  return sandbox;
}
