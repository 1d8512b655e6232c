import { z } from "zod";
import { lazySchema, MAX_DB_ID } from "../../http/schema-helpers.js";

const id = lazySchema(() => z.coerce.number().int().min(1).max(MAX_DB_ID));

export const sessionParams = lazySchema(() =>
  z
    .object({
      id: id.describe("Project id"),
      sessionID: z
        .string()
        .min(1)
        .max(64)
        .regex(/^[A-Za-z0-9-]+$/, "a session id is letters, digits and dashes")
        .describe("Shell session id (from the websocket's first message or the session list)"),
    })
    .strict(),
);

export const cleanupQuery = lazySchema(() =>
  z.object({
    timeout: z.coerce
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 60)
      .default(30)
      .describe("End sessions nobody typed in for at least this many minutes (default 30)"),
  }),
);

export const shellWsQuery = lazySchema(() =>
  z.object({
    sessionId: z
      .string()
      .max(64)
      .regex(/^[A-Za-z0-9-]*$/, "a session id is letters, digits and dashes")
      .optional()
      .describe("Attach to this session of yours (a reconnect) instead of opening a new one"),
    cols: z.coerce.number().int().min(2).max(500).optional().describe("Terminal width in columns"),
    rows: z.coerce.number().int().min(2).max(200).optional().describe("Terminal height in rows"),
  }),
);

export const shellSession = lazySchema(() =>
  z
    .object({
      id: z.string().describe("Session id"),
      projectId: z.number().int().describe("Project id"),
      userId: z.number().int().describe("Who opened it (only they, or an admin, can see or attach to it)"),
      username: z.string().describe("Their username"),
      shell: z.string().describe("The shell program"),
      workingDir: z.string().describe("The project folder the shell starts in"),
      sandboxed: z
        .boolean()
        .describe("Runs inside the sandbox (bubblewrap); false only for an admin's shell with the sandbox off"),
      cols: z.number().int().describe("Terminal width"),
      rows: z.number().int().describe("Terminal height"),
      attached: z.number().int().describe("Websockets attached now"),
      pid: z.number().int().describe("Process id of the PTY's process (group leader) on the host"),
      createdAt: z.string().describe("When it was opened (ISO-8601)"),
      lastActivity: z.string().describe("Last input, resize or attach (ISO-8601); idle sessions end"),
      status: z.string().describe("active"),
    })
    .meta({ id: "ShellSession" }),
);

export const shellConfig = lazySchema(() =>
  z.object({
    shell: z.string().describe("The shell program"),
    workingDir: z.string().describe("The project folder"),
    sandbox: z.string().describe("bwrap, none (CHAINLAUNCH_SANDBOX=off) or unavailable"),
    sandboxed: z.boolean().describe("Shells run inside the sandbox"),
    available: z.boolean().describe("Whether the caller may open a shell here"),
    reason: z.string().optional().describe("Why not, when available is false"),
    idleTimeoutMinutes: z.number().describe("A session nobody typed in for this long ends"),
    maxSessionsPerUser: z.number().int().describe("Sessions one user may have open at once"),
    maxSessions: z.number().int().describe("Sessions open at once on this console"),
    scrollbackBytes: z.number().int().describe("Output replayed to a socket that attaches again"),
  }),
);

export const sessionsResponse = lazySchema(() =>
  z.object({
    sessions: z.array(shellSession).describe("The caller's sessions of this project (an admin's list: everyone's)"),
    count: z.number().int().describe("How many"),
  }),
);

export const sessionDeleted = lazySchema(() =>
  z.object({
    message: z.string(),
    sessionId: z.string().describe("The ended session"),
  }),
);

export const cleanupResponse = lazySchema(() =>
  z.object({
    cleaned: z.number().int().describe("Sessions ended"),
    sessions: z.array(z.string()).describe("Their ids"),
    timeoutMinutes: z.number().int().describe("The idle time they had reached"),
    remaining: z.number().int().describe("The caller's sessions of this project still open"),
  }),
);

/** A message a terminal client sends over the websocket. */
export const shellClientMessage = lazySchema(() =>
  z.discriminatedUnion("type", [
    z.object({ type: z.literal("input"), data: z.string().max(64 * 1024) }),
    z.object({
      type: z.literal("resize"),
      cols: z.number().int().min(2).max(500),
      rows: z.number().int().min(2).max(200),
    }),
    z.object({ type: z.literal("ping") }),
  ]),
);
