import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { managerCallers, type Caller } from "../../test-support/callers.js";
import { processesMatching, openTerminal } from "../../test-support/terminal.js";
import { createTestApp, createUser, dialects, insertNetworkRow, type TestApp } from "../../test-support/test-app.js";
import { waitFor } from "../../test-support/wait.js";

const listen = async (t: TestApp): Promise<string> => {
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const addr = t.app.server.address();
  return `127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
};

/**
 * The project shell over HTTP and a real websocket, on both databases: a real PTY running bash in
 * the project folder inside the sandbox, sessions owned by whoever opened them, the whole process
 * group gone when a session ends, upstream's operation shapes, and who may do what.
 */
describe.each(dialects())("project shell on %s", (dialect) => {
  let t: TestApp;
  let base: string;
  let callers: Caller[];
  let viewer: { authorization: string };
  let other: { authorization: string };
  let project: { id: number; slug: string };
  const folder = () => join(t.config.dataDir, "projects", project.slug);
  const call = (
    method: "GET" | "POST" | "DELETE",
    url: string,
    headers: Record<string, string> = t.admin,
    extra: { payload?: string; contentType?: string } = {},
  ) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { ...headers, ...(extra.contentType ? { "content-type": extra.contentType } : {}) },
      ...(extra.payload !== undefined ? { payload: extra.payload } : {}),
    });
  const wsUrl = (query = "") => `ws://${base}/api/v1/chaincode-projects/${project.id}/shell/ws${query}`;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    base = await listen(t);
    callers = await managerCallers(t, `shell-manager-${dialect}`);
    viewer = await createUser(t, `shell-viewer-${dialect}`, "viewer");
    other = await createUser(t, `shell-other-${dialect}`, "manager");
    const net = await insertNetworkRow(t, `shellnet${dialect}`);
    const res = await call("POST", "/chaincode-projects", t.admin, {
      payload: JSON.stringify({ name: "shell", networkId: net.id, boilerplate: "chaincode-javascript" }),
      contentType: "application/json",
    });
    expect(res.statusCode, res.body).toBe(201);
    project = res.json();
  });
  afterAll(async () => t.close());

  it("serves the terminal's config: sandboxed, with its limits (a Go client's empty JSON body is fine)", async () => {
    for (const c of callers) {
      const res = await call("GET", `/chaincode-projects/${project.id}/shell/config`, c.headers, {
        payload: "",
        contentType: "application/json",
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        sandbox: "bwrap",
        sandboxed: true,
        available: true,
        workingDir: folder(),
        idleTimeoutMinutes: 30,
        maxSessionsPerUser: 5,
      });
    }
  });

  it("runs pwd, ls and a write in the project folder, resizes, and ends the whole process group on delete", async () => {
    for (const c of callers) {
      const term = openTerminal(wsUrl("?cols=90&rows=20"), c.headers);
      await term.opened;
      const id = await term.session();
      term.type("pwd; ls");
      await term.waitFor(new RegExp(`${folder().replace(/[/.]/g, "\\$&")}[\\s\\S]*package\\.json`));
      term.type(`echo hi-${c.label.replaceAll(" ", "-")} > x.txt`);
      await waitFor(
        "x.txt",
        async () => {
          const r = await call("GET", `/projects/${project.id}/files/read?path=x.txt`, c.headers);
          return r.statusCode === 200 && r.json().content === `hi-${c.label.replaceAll(" ", "-")}\n` ? true : undefined;
        },
        10_000,
        50,
      );
      const at = term.output.length;
      term.type("stty size");
      await term.waitFor(/20 90/, at);
      term.send({ type: "resize", cols: 120, rows: 33 });
      const at2 = term.output.length;
      term.type("stty size");
      await term.waitFor(/33 120/, at2);
      term.send({ type: "ping" });
      await term.next("pong");

      // Background jobs, a new session and a double fork: all must go with the session.
      const tag = `${4000 + Math.floor(Math.random() * 900)}`;
      term.type(`sleep ${tag}1 & setsid sleep ${tag}2 & (sleep ${tag}3 &) ; echo started`);
      await term.waitFor(/started/, at2);
      await waitFor(
        "the sleeps",
        async () => (processesMatching(`sleep ${tag}`).length === 3 ? true : undefined),
        10_000,
        50,
      );

      const listed = await call("GET", `/chaincode-projects/${project.id}/shell/sessions`, c.headers);
      expect(listed.statusCode).toBe(200);
      expect(listed.json().count).toBe(1);
      expect(listed.json().sessions[0]).toMatchObject({ id, sandboxed: true, cols: 120, rows: 33, attached: 1 });
      const one = await call("GET", `/chaincode-projects/${project.id}/shell/sessions/${id}`, c.headers);
      expect(one.json()).toMatchObject({ id, username: c.username, status: "active" });

      const del = await call("DELETE", `/chaincode-projects/${project.id}/shell/sessions/${id}`, c.headers, {
        payload: "",
        contentType: "application/json",
      });
      expect(del.statusCode, del.body).toBe(200);
      expect(del.json()).toEqual({ message: `shell session ${id} ended`, sessionId: id });
      expect((await term.next("exit")).reason).toBe("closed");
      await term.closed;
      expect(processesMatching(`sleep ${tag}`)).toEqual([]);
      expect((await call("GET", `/chaincode-projects/${project.id}/shell/sessions/${id}`, c.headers)).statusCode).toBe(
        404,
      );
    }
    expect(readFileSync(join(folder(), "x.txt"), "utf8")).toBe("hi-manager-API-key\n");
  });

  it("keeps a session across a dropped socket and replays its output; its owner only may attach", async () => {
    const [owner] = callers;
    const term = openTerminal(wsUrl(), owner!.headers);
    await term.opened;
    const id = await term.session();
    term.type("echo before-reconnect");
    await term.waitFor(/before-reconnect\r?\n/);
    term.ws.close();
    await term.closed;

    // Someone else (another manager) neither sees nor attaches to it.
    expect((await call("GET", `/chaincode-projects/${project.id}/shell/sessions`, other)).json()).toEqual({
      sessions: [],
      count: 0,
    });
    expect((await call("GET", `/chaincode-projects/${project.id}/shell/sessions/${id}`, other)).statusCode).toBe(404);
    expect((await call("DELETE", `/chaincode-projects/${project.id}/shell/sessions/${id}`, other)).statusCode).toBe(
      404,
    );
    const stranger = openTerminal(wsUrl(`?sessionId=${id}`), other);
    await expect(stranger.opened).rejects.toThrow(/404/);
    // An admin sees everyone's.
    const all = await call("GET", `/chaincode-projects/${project.id}/shell/sessions`);
    expect(all.json().sessions.map((s: { id: string }) => s.id)).toContain(id);

    const again = openTerminal(wsUrl(`?sessionId=${id}`), owner!.headers);
    await again.opened;
    expect(await again.session()).toBe(id);
    await again.waitFor(/before-reconnect/);
    const at = again.output.length;
    again.type("echo after-reconnect");
    await again.waitFor(/after-reconnect/, at);

    // Cleanup with the shortest timeout leaves an active session alone (Go clients send an empty body).
    const cleanup = await call("POST", `/chaincode-projects/${project.id}/shell/cleanup?timeout=1`, owner!.headers, {
      payload: "",
      contentType: "application/json",
    });
    expect(cleanup.statusCode, cleanup.body).toBe(200);
    expect(cleanup.json()).toEqual({ cleaned: 0, sessions: [], timeoutMinutes: 1, remaining: 1 });
    expect((await call("POST", `/chaincode-projects/${project.id}/shell/cleanup?timeout=0`)).statusCode).toBe(400);

    // The shell's own `exit` ends the session too.
    again.type("exit");
    expect((await again.next("exit")).reason).toBe("the shell exited");
    await again.closed;
    expect((await call("GET", `/chaincode-projects/${project.id}/shell/sessions`, owner!.headers)).json().count).toBe(
      0,
    );
  });

  it("audits opening and closing a session", async () => {
    const term = openTerminal(wsUrl(), t.admin);
    await term.opened;
    const id = await term.session();
    await call("DELETE", `/chaincode-projects/${project.id}/shell/sessions/${id}`);
    const logs = async (type: string) =>
      (await call("GET", `/audit/logs?event_type=${type}&page_size=100`)).json().items as {
        details: Record<string, unknown>;
        eventOutcome: string;
      }[];
    const opened = (await logs("chaincode_project.shell_open")).filter((e) => e.details.sessionId === id);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ eventOutcome: "SUCCESS", details: { sandboxed: true } });
    // One entry per open: the upgrade itself (hijacked) records none beside it.
    const all = await logs("chaincode_project.shell_open");
    expect(all.filter((e) => e.eventOutcome === "SUCCESS" && !e.details.sessionId)).toEqual([]);
    const closed = (await logs("chaincode_project.shell_close")).filter((e) => e.details.sessionId === id);
    expect(closed).toHaveLength(1);
    expect(closed[0]!.details).toMatchObject({ reason: "closed", status: 200 });
  });

  it("ends a project's sessions when it is deleted", async () => {
    const net = await insertNetworkRow(t, `shelldel${dialect}`);
    const p = (
      await call("POST", "/chaincode-projects", t.admin, {
        payload: JSON.stringify({ name: "doomed", networkId: net.id, boilerplate: "chaincode-javascript" }),
        contentType: "application/json",
      })
    ).json() as { id: number };
    const term = openTerminal(`ws://${base}/api/v1/chaincode-projects/${p.id}/shell/ws`, callers[0]!.headers);
    await term.opened;
    await term.session();
    const tag = `${5000 + Math.floor(Math.random() * 900)}`;
    term.type(`sleep ${tag}9 & echo bg`);
    await term.waitFor(/bg/);
    expect((await call("DELETE", `/chaincode-projects/${p.id}`)).statusCode).toBe(200);
    expect((await term.next("exit")).reason).toBe("the project was deleted");
    expect(processesMatching(`sleep ${tag}9`)).toEqual([]);
  });

  it("ends every session, with its processes, when the console stops", async () => {
    const term = openTerminal(wsUrl(), callers[0]!.headers);
    await term.opened;
    await term.session();
    const tag = `${8000 + Math.floor(Math.random() * 900)}`;
    term.type(`setsid sleep ${tag}7 & echo bg`);
    await term.waitFor(/bg\r?\n/);
    await waitFor("the sleep", async () => (processesMatching(`sleep ${tag}7`).length ? true : undefined), 10_000, 50);
    await t.restart();
    await term.closed;
    expect(processesMatching(`sleep ${tag}7`)).toEqual([]);
    base = await listen(t);
  });

  it("refuses viewers everywhere, and an unknown project or a malformed session id with a named error", async () => {
    for (const [method, url] of [
      ["GET", `/chaincode-projects/${project.id}/shell/config`],
      ["GET", `/chaincode-projects/${project.id}/shell/sessions`],
      ["GET", `/chaincode-projects/${project.id}/shell/sessions/abc`],
      ["DELETE", `/chaincode-projects/${project.id}/shell/sessions/abc`],
      ["POST", `/chaincode-projects/${project.id}/shell/cleanup`],
    ] as const) {
      expect((await call(method, url, viewer)).statusCode, `${method} ${url}`).toBe(403);
    }
    const term = openTerminal(wsUrl(), viewer);
    await expect(term.opened).rejects.toThrow(/403/);
    // A page on another site can't use a signed-in manager's cookie to open a shell.
    const session = callers.find((c) => c.label === "manager session")!;
    const crossSite = openTerminal(wsUrl(), {
      cookie: session.headers.cookie!,
      origin: "https://evil.example",
      "sec-fetch-site": "cross-site",
    });
    await expect(crossSite.opened).rejects.toThrow(/403 .*websocket refused/);
    expect((await call("GET", "/chaincode-projects/999999/shell/config")).statusCode).toBe(404);
    const bad = await call("GET", `/chaincode-projects/${project.id}/shell/sessions/a%20b`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/sessionID/);
    // A plain GET (no upgrade) opens nothing.
    const plain = await call("GET", `/chaincode-projects/${project.id}/shell/ws`);
    expect(plain.statusCode).toBe(400);
    expect(plain.json().message).toMatch(/^Upgrade: /);
    expect((await call("GET", `/chaincode-projects/${project.id}/shell/sessions`)).json().count).toBe(0);
    const unknown = openTerminal(wsUrl("?sessionId=nope"), t.admin);
    await expect(unknown.opened).rejects.toThrow(/404/);
  });
});

/** With the sandbox off, a shell could read the master key: managers are refused, naming why; admins are not. */
describe("project shell without the sandbox", () => {
  let t: TestApp;
  let base: string;
  let callers: Caller[];
  let projectId: number;
  beforeAll(async () => {
    t = await createTestApp("sqlite", { CHAINLAUNCH_SANDBOX: "off" });
    base = await listen(t);
    callers = await managerCallers(t, "shell-nosandbox");
    const net = await insertNetworkRow(t, "shelloff");
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/chaincode-projects",
      headers: t.admin,
      payload: { name: "off", networkId: net.id, boilerplate: "chaincode-javascript" },
    });
    projectId = res.json().id;
  });
  afterAll(async () => t.close());

  it("answers 403 naming the sandbox to a manager (session and API key), and gives an admin an unsandboxed shell", async () => {
    for (const c of callers) {
      const cfg = await t.app.inject({
        method: "GET",
        url: `/api/v1/chaincode-projects/${projectId}/shell/config`,
        headers: c.headers,
      });
      expect(cfg.json()).toMatchObject({
        sandbox: "none",
        available: false,
        reason: expect.stringMatching(/sandbox is off/),
      });
      const term = openTerminal(`ws://${base}/api/v1/chaincode-projects/${projectId}/shell/ws`, c.headers);
      await expect(term.opened).rejects.toThrow(/403 .*CHAINLAUNCH_SANDBOX=off/);
    }
    const refusals = (
      await t.app.inject({
        method: "GET",
        url: "/api/v1/audit/logs?event_type=chaincode_project.shell_open&page_size=100",
        headers: t.admin,
      })
    ).json().items as { eventOutcome: string; details: Record<string, unknown> }[];
    expect(refusals.filter((e) => e.eventOutcome === "FAILURE" && e.details.refused === "sandbox")).toHaveLength(2);
    const admin = openTerminal(`ws://${base}/api/v1/chaincode-projects/${projectId}/shell/ws`, t.admin);
    await admin.opened;
    const id = await admin.session();
    expect((admin.messages[0]!.session as { sandboxed: boolean }).sandboxed).toBe(false);
    admin.type("echo admin-shell");
    await admin.waitFor(/admin-shell\r?\n/);
    const del = await t.app.inject({
      method: "DELETE",
      url: `/api/v1/chaincode-projects/${projectId}/shell/sessions/${id}`,
      headers: t.admin,
    });
    expect(del.statusCode).toBe(200);
  });
});
