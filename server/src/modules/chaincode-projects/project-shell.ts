import { randomUUID } from "node:crypto";
import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import type { IPty } from "@lydell/node-pty";
import { ConflictError, ForbiddenError, NotFoundError } from "../../http/errors.js";
import { nodePrefix, SandboxUnavailableError, type Sandbox, type SandboxPolicy } from "../../runtime/sandbox.js";

/** Output kept per session for a socket that attaches again (reconnect, second tab). */
const SCROLLBACK_BYTES = 64 * 1024;
const DEFAULT_COLS = 80;
const DEFAULT_ROWS = 24;

/** Who opens, attaches to or lists a session. */
export interface ShellActor {
  userId: number;
  username: string;
  /** Admins see and end everyone's sessions; others only their own. */
  admin: boolean;
  /** May run the shell outside the sandbox (HOST_COMMAND: admins) when the sandbox is off or missing. */
  hostCommand: boolean;
  /** The login session the shell was opened with: a sign-out ends the shell too. */
  sessionId?: number | undefined;
}

/** What a socket attached to a session receives. */
export interface ShellListener {
  output(data: string): void;
  /** True while the socket has too much unsent output: the PTY is paused until it drains. */
  congested?(): boolean;
  exit(info: { exitCode: number; signal?: number | undefined; reason: string }): void;
}

/** A session as the API shows it. */
export interface ShellSessionInfo {
  id: string;
  projectId: number;
  userId: number;
  username: string;
  shell: string;
  workingDir: string;
  sandboxed: boolean;
  cols: number;
  rows: number;
  /** Sockets attached now. */
  attached: number;
  pid: number;
  createdAt: string;
  lastActivity: string;
  status: "active";
}

interface Session {
  id: string;
  projectId: number;
  actor: ShellActor;
  pty: IPty;
  shell: string;
  dir: string;
  sandboxed: boolean;
  cols: number;
  rows: number;
  createdAt: Date;
  lastActivity: number;
  /** The last output, in chunks (joined only when a socket attaches again). */
  scrollback: string[];
  scrollbackLength: number;
  listeners: Set<ShellListener>;
  ended?: Promise<void>;
}

/** How a session ended, for its audit entry. */
export interface ShellClosed {
  session: ShellSessionInfo;
  reason: string;
  /** Ended by an API call that records its own audit entry (DELETE, cleanup). */
  byRequest: boolean;
}

const bash = ["/bin/bash", "/usr/bin/bash"].find((p) => existsSync(p));
const SHELL = bash ?? "/bin/sh";

/** A Go toolchain the shell may use (read-only), as builds find it. */
function goRoot(): string | undefined {
  for (const go of ["/usr/local/go/bin/go", "/usr/lib/go/bin/go"]) {
    if (existsSync(go)) return dirname(dirname(realpathSync(go)));
  }
  return undefined;
}

/**
 * The shell's environment: none of the console's (no CHAINLAUNCH_*, DATABASE_URL or proxies' credentials),
 * only what a terminal needs and the toolchains builds use.
 */
function shellEnv(cols: number, rows: number): Record<string, string> {
  const path = [join(nodePrefix(), "bin"), "/usr/local/go/bin", "/usr/local/bin", "/usr/bin", "/bin"];
  return {
    PATH: [...new Set(path)].join(":"),
    TERM: "xterm-256color",
    COLORTERM: "truecolor",
    LANG: "C.UTF-8",
    HOME: "/tmp",
    TMPDIR: "/tmp",
    COLUMNS: String(cols),
    LINES: String(rows),
    PS1: "\\W $ ",
  };
}

const clamp = (n: number | undefined, lo: number, hi: number, dflt: number): number =>
  n === undefined || !Number.isFinite(n) ? dflt : Math.min(hi, Math.max(lo, Math.trunc(n)));

/**
 * Shell sessions of chaincode projects: a real PTY running a shell in the project's folder, inside
 * the same sandbox as builds and chaincode servers (decision 54): only the project folder is
 * writable (its `.git`, the history the console writes, is read-only), none of the console's
 * environment, the sandbox user when the console is root, and its own pid namespace so closing the
 * session (killing the PTY's process group) takes every process it started along. Sessions live in
 * memory: a console restart ends them (the sandbox dies with its parent).
 */
export function createShellSessions(deps: {
  sandbox: Sandbox;
  /** Ends a session nobody typed in for this long. */
  idleTimeoutMs?: number;
  /** Sessions one user may have open at once (all projects). */
  maxPerUser?: number;
  /** Sessions open at once on this console. */
  maxTotal?: number;
  onOpen?: (s: ShellSessionInfo) => void;
  onClose?: (c: ShellClosed) => void;
}) {
  const idleTimeoutMs = deps.idleTimeoutMs ?? 30 * 60_000;
  const maxPerUser = deps.maxPerUser ?? 5;
  const maxTotal = deps.maxTotal ?? 50;
  const sessions = new Map<string, Session>();

  const info = (s: Session): ShellSessionInfo => ({
    id: s.id,
    projectId: s.projectId,
    userId: s.actor.userId,
    username: s.actor.username,
    shell: s.shell,
    workingDir: s.dir,
    sandboxed: s.sandboxed,
    cols: s.cols,
    rows: s.rows,
    attached: s.listeners.size,
    pid: s.pty.pid,
    createdAt: s.createdAt.toISOString(),
    lastActivity: new Date(s.lastActivity).toISOString(),
    status: "active",
  });

  /** Why this console can't give `actor` a sandboxed shell, or undefined when it can. */
  function refusal(actor: Pick<ShellActor, "hostCommand">): string | undefined {
    if (deps.sandbox.kind === "bwrap" || actor.hostCommand) return undefined;
    return deps.sandbox.kind === "none"
      ? "the sandbox is off (CHAINLAUNCH_SANDBOX=off), and a shell outside it could read the master key and the database; only an admin may open one"
      : "the sandbox (bubblewrap) is unavailable on this host, and a shell outside it could read the master key and the database; only an admin may open one";
  }

  /** 403 naming why when `actor` may not have a shell here. */
  function assertAllowed(actor: ShellActor): void {
    const why = refusal(actor);
    if (why) throw new ForbiddenError(`shell: ${why}`, { sandbox: deps.sandbox.kind, field: "shell" });
  }

  /** Kills the PTY's whole process group (the sandbox launcher and, with its pid namespace, all inside). */
  function kill(s: Session): void {
    try {
      process.kill(-s.pty.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
    try {
      s.pty.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }

  function close(s: Session, reason: string, byRequest = false): Promise<void> {
    if (s.ended) return s.ended;
    s.ended = new Promise<void>((resolve) => {
      const exited = new Promise<void>((done) => {
        const t = setTimeout(done, 5000);
        s.pty.onExit(() => (clearTimeout(t), done()));
      });
      kill(s);
      void exited.then(() => {
        if (sessions.delete(s.id)) {
          for (const l of s.listeners) l.exit({ exitCode: -1, reason });
          deps.onClose?.({ session: info(s), reason, byRequest });
        }
        resolve();
      });
    });
    return s.ended;
  }

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const s of sessions.values()) {
        if (now - s.lastActivity > idleTimeoutMs) void close(s, `idle for ${Math.round(idleTimeoutMs / 60_000)} min`);
      }
    },
    Math.max(1000, Math.min(60_000, idleTimeoutMs / 4)),
  );
  sweep.unref();

  function owned(projectId: number, id: string, actor: ShellActor): Session {
    const s = sessions.get(id);
    // Another user's session is "not found": its id says nothing to them.
    if (!s || s.projectId !== projectId || (!actor.admin && s.actor.userId !== actor.userId)) {
      throw new NotFoundError(`sessionID: shell session '${id}' not found in project ${projectId}`);
    }
    return s;
  }

  return {
    /** Settings a client needs before opening a terminal. */
    config(actor: ShellActor, dir: string) {
      const why = refusal(actor);
      return {
        shell: SHELL,
        workingDir: dir,
        sandbox: deps.sandbox.kind,
        sandboxed: deps.sandbox.kind === "bwrap",
        available: why === undefined,
        ...(why ? { reason: why } : {}),
        idleTimeoutMinutes: idleTimeoutMs / 60_000,
        maxSessionsPerUser: maxPerUser,
        maxSessions: maxTotal,
        scrollbackBytes: SCROLLBACK_BYTES,
      };
    },

    /** 403 naming why when `actor` may not have a shell here. */
    assertAllowed,

    /** Starts a shell in `dir` for `actor` (limits checked first). */
    async open(p: { projectId: number; dir: string; actor: ShellActor; cols?: number; rows?: number }) {
      assertAllowed(p.actor);
      const mine = [...sessions.values()].filter((s) => s.actor.userId === p.actor.userId).length;
      if (mine >= maxPerUser) {
        throw new ConflictError(
          `shell: you have ${mine} shell sessions open (the limit is ${maxPerUser}); close one or run cleanup`,
          { field: "shell" },
        );
      }
      if (sessions.size >= maxTotal) {
        throw new ConflictError(`shell: ${sessions.size} shell sessions are open on this console (the limit)`, {
          field: "shell",
        });
      }
      const cols = clamp(p.cols, 2, 500, DEFAULT_COLS);
      const rows = clamp(p.rows, 2, 200, DEFAULT_ROWS);
      const go = goRoot();
      const policy: SandboxPolicy = {
        writable: [p.dir],
        // The history is the console's (isomorphic-git writes it as the console's user): read-only inside.
        readOnly: [
          nodePrefix(),
          ...(go ? [go] : []),
          ...(existsSync(join(p.dir, ".git")) ? [join(p.dir, ".git")] : []),
        ],
        // Ends with the console, like a build step: nothing adopts a shell after a restart.
        dieWithParent: true,
      };
      const cmd = { command: SHELL, args: ["-i"], env: shellEnv(cols, rows), cwd: p.dir };
      let boxed = cmd;
      let sandboxed = deps.sandbox.kind === "bwrap";
      try {
        boxed = await deps.sandbox.wrap(cmd, policy);
      } catch (err) {
        if (!(err instanceof SandboxUnavailableError)) throw err;
        // bwrap is installed but broken here: as when it is missing, only an admin (HOST_COMMAND) goes on, unsandboxed.
        if (!p.actor.hostCommand) {
          throw new ForbiddenError(
            `shell: the sandbox does not work on this host (${err.message}), and a shell outside it could read the master key and the database; only an admin may open one`,
            { sandbox: deps.sandbox.kind, field: "shell" },
          );
        }
        sandboxed = false;
      }
      if (deps.sandbox.kind !== "bwrap") sandboxed = false;
      // Loaded with the first shell: its native addon was ~6 ms of every start (issue 34).
      const { spawn } = await import("@lydell/node-pty");
      const pty = spawn(boxed.command, boxed.args, {
        name: "xterm-256color",
        cols,
        rows,
        cwd: boxed.cwd,
        env: { ...boxed.env, HOME: "/tmp" },
      });
      const s: Session = {
        id: randomUUID(),
        projectId: p.projectId,
        actor: p.actor,
        pty,
        shell: SHELL,
        dir: p.dir,
        sandboxed,
        cols,
        rows,
        createdAt: new Date(),
        lastActivity: Date.now(),
        scrollback: [],
        scrollbackLength: 0,
        listeners: new Set(),
      };
      sessions.set(s.id, s);
      pty.onData((data) => {
        s.scrollback.push(data);
        s.scrollbackLength += data.length;
        while (s.scrollbackLength - s.scrollback[0]!.length >= SCROLLBACK_BYTES) {
          s.scrollbackLength -= s.scrollback.shift()!.length;
        }
        for (const l of s.listeners) l.output(data);
        // A socket that can't keep up (`yes`, a huge cat) pauses the shell instead of filling the console's memory.
        const slow = (): boolean => [...s.listeners].some((l) => l.congested?.() ?? false);
        if (slow() && !s.ended) {
          pty.pause();
          const wait = (): void => {
            if (s.ended) return;
            if (slow()) setTimeout(wait, 50);
            else pty.resume();
          };
          setTimeout(wait, 50);
        }
      });
      pty.onExit(({ exitCode, signal }) => {
        if (s.ended) return;
        // The shell exited by itself (`exit`): the rest of its group goes too.
        kill(s);
        s.ended = Promise.resolve();
        sessions.delete(s.id);
        for (const l of s.listeners) l.exit({ exitCode, signal, reason: "the shell exited" });
        deps.onClose?.({ session: info(s), reason: "the shell exited", byRequest: false });
      });
      deps.onOpen?.(info(s));
      return info(s);
    },

    /** Connects a socket to `actor`'s session; returns what was written before and the controls. */
    attach(projectId: number, id: string, actor: ShellActor, listener: ShellListener) {
      const s = owned(projectId, id, actor);
      s.listeners.add(listener);
      s.lastActivity = Date.now();
      return {
        session: info(s),
        scrollback: s.scrollback.join("").slice(-SCROLLBACK_BYTES),
        input(data: string): void {
          s.lastActivity = Date.now();
          s.pty.write(data);
        },
        resize(cols: number, rows: number): void {
          s.cols = clamp(cols, 2, 500, s.cols);
          s.rows = clamp(rows, 2, 200, s.rows);
          s.lastActivity = Date.now();
          s.pty.resize(s.cols, s.rows);
        },
        detach(): void {
          s.listeners.delete(listener);
        },
      };
    },

    /** The project's sessions `actor` may see (admins: everyone's). */
    list(projectId: number, actor: ShellActor): ShellSessionInfo[] {
      return [...sessions.values()]
        .filter((s) => s.projectId === projectId && (actor.admin || s.actor.userId === actor.userId))
        .map(info);
    },

    get(projectId: number, id: string, actor: ShellActor): ShellSessionInfo {
      return info(owned(projectId, id, actor));
    },

    /** Ends one session (its whole process group) and waits until it is gone. */
    async close(projectId: number, id: string, actor: ShellActor, reason = "closed"): Promise<ShellSessionInfo> {
      const s = owned(projectId, id, actor);
      const before = info(s);
      await close(s, reason, true);
      return before;
    },

    /** Ends the project's sessions `actor` may see that nobody typed in for `timeoutMs`. */
    async cleanup(projectId: number, actor: ShellActor, timeoutMs: number): Promise<ShellSessionInfo[]> {
      const now = Date.now();
      const stale = [...sessions.values()].filter(
        (s) =>
          s.projectId === projectId &&
          (actor.admin || s.actor.userId === actor.userId) &&
          now - s.lastActivity >= timeoutMs,
      );
      const out = stale.map(info);
      await Promise.all(stale.map((s) => close(s, "cleanup", true)));
      return out;
    },

    /** Ends every session of a project (it is being deleted). */
    async closeProject(projectId: number, reason = "the project was deleted"): Promise<void> {
      await Promise.all([...sessions.values()].filter((s) => s.projectId === projectId).map((s) => close(s, reason)));
    },

    /** Ends a user's sessions when their credentials end (sign-out, role change, deletion). */
    async closeUser(e: { userId: number; sessionId?: number | undefined; exceptSessionId?: number | undefined }) {
      const hit = [...sessions.values()].filter(
        (s) =>
          s.actor.userId === e.userId &&
          (e.sessionId === undefined || s.actor.sessionId === e.sessionId) &&
          (e.exceptSessionId === undefined || s.actor.sessionId !== e.exceptSessionId),
      );
      await Promise.all(hit.map((s) => close(s, "signed out")));
    },

    /** Ends everything (the console stops). */
    async closeAll(): Promise<void> {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((s) => close(s, "the console stopped")));
    },

    /** Open sessions on this console (for tests and metrics). */
    get size(): number {
      return sessions.size;
    },
  };
}

export type ShellSessions = ReturnType<typeof createShellSessions>;
