import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuditRepo } from "../modules/audit/audit.repo.js";
import { createAuditService } from "../modules/audit/audit.service.js";
import { waitFor } from "../test-support/wait.js";
import { createTestApp, createUser, dialects, type TestApp } from "../test-support/test-app.js";
import { escapedField, warningHeaders } from "./field-validation.js";
import { sendableHeaderValue } from "./header-guard.js";

type Audit = {
  eventType: string;
  eventOutcome: string;
  requestId: string;
  affectedResource: string;
  details: Record<string, unknown>;
};

/**
 * Issue 29, items 6 and 9, over a real listener (Node's own HTTP writer is what refused the header),
 * as a manager session and as a manager's API key, on both databases:
 * - an unknown body field named with characters Node can't put in a header answered 500 after the
 *   row was written (the retry got 409). Now: 201, and the Warning header names it escaped.
 * - a NUL in the query string crashed the audit hook (TypeError) and the refusal went unaudited.
 *   Now: a clean 403 or 400, and the audit entry.
 */
describe.each(dialects())("HTTP edge cases as a manager on %s", (dialect) => {
  let t: TestApp;
  let base: string;
  const callers: Record<string, Record<string, string>> = {};

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await createUser(t, "edge-manager", "manager", "edge-manager-pw");
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const login = await fetch(`${base}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "edge-manager", password: "edge-manager-pw" }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith("session_id="))!
      .split(";")[0]!;
    // The console's own pages send same-origin changes (the CSRF guard wants the proof).
    callers.session = { cookie, "sec-fetch-site": "same-origin" };
    // A key the manager owns.
    const own = await fetch(`${base}/api/v1/api-keys`, {
      method: "POST",
      headers: { ...callers.session, "content-type": "application/json" },
      body: JSON.stringify({ name: "edge-manager-key" }),
    });
    expect(own.status, await own.clone().text()).toBe(201);
    callers.apiKey = { "x-api-key": ((await own.json()) as { key: string }).key };
  });
  afterAll(async () => t.close());

  /** The audit rows of a request; those of the onResponse hook are written just after the answer. */
  const audit = (requestId: string): Promise<Audit[]> =>
    waitFor(
      `the audit row of ${requestId}`,
      async () => {
        const res = await t.app.inject({ method: "GET", url: "/api/v1/audit/logs?page_size=500", headers: t.admin });
        const rows = (res.json().items as Audit[]).filter((e) => e.requestId === requestId);
        return rows.length ? rows : undefined;
      },
      5000,
      50,
    );

  for (const who of ["session", "apiKey"] as const) {
    it(`${who}: an unknown field named with non-Latin-1 and control characters is created (201) and warned about, escaped`, async () => {
      const field = 'naïve\u0100"x\\y\u0007\u{1F600}';
      const res = await fetch(`${base}/api/v1/keys`, {
        method: "POST",
        headers: { ...callers[who], "content-type": "application/json" },
        body: JSON.stringify({ name: `edge-warned-${who}`, algorithm: "EC", [field]: 1, [`other-${who}`]: 2 }),
      });
      expect(res.status, await res.clone().text()).toBe(201);
      const warning = res.headers.get("warning") ?? "";
      expect(warning).toMatch(/^[\x20-\x7e]+$/);
      expect(warning).toContain('299 - "unknown field \\"body.na\\\\u00efve\\\\u0100\\\\\\"x\\\\\\\\y\\\\u0007');
      expect(warning).toContain(`\\"body.other-${who}\\"`);
      // The inner quoted name is a JSON string: it gives the field back exactly.
      expect(JSON.parse(escapedField(`body.${field}`))).toBe(`body.${field}`);
      const [row] = await audit(res.headers.get("x-request-id")!);
      expect(row).toMatchObject({ eventType: "key.create", eventOutcome: "SUCCESS" });
    });

    it(`${who}: a NUL in the query of an audited route it may not call is a clean 403, audited`, async () => {
      const res = await fetch(`${base}/api/v1/users/1?force=%00`, { method: "DELETE", headers: callers[who] });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: string }).error).toBe("FORBIDDEN");
      const rows = await audit(res.headers.get("x-request-id")!);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        eventType: "permission.denied",
        eventOutcome: "FAILURE",
        details: { role: "manager", path: "/api/v1/users/1", actor_username: "edge-manager" },
      });
    });

    it(`${who}: a NUL in the query of an audited route it may call is a clean 400 naming the parameter, audited`, async () => {
      for (const query of ["note=%00", "%00=1", "a=1&b=x%00y"]) {
        const res = await fetch(`${base}/api/v1/keys?${query}`, {
          method: "POST",
          headers: { ...callers[who], "content-type": "application/json" },
          body: JSON.stringify({ name: `edge-nul-${who}`, algorithm: "EC" }),
        });
        expect(res.status, query).toBe(400);
        const body = (await res.json()) as { error: string; message: string };
        expect(body.error).toBe("INVALID_INPUT");
        expect(body.message).toMatch(/^querystring\.\w*: must not contain the NUL character/);
        const rows = await audit(res.headers.get("x-request-id")!);
        expect(rows, query).toHaveLength(1);
        expect(rows[0]).toMatchObject({
          eventType: "key.create",
          eventOutcome: "FAILURE",
          details: { status: 400, path: "/api/v1/keys", actor_username: "edge-manager" },
        });
      }
    });
  }

  it("bounds the Warning headers: long names are cut, and past ten fields the rest are counted", async () => {
    const fields = Array.from({ length: 25 }, (_, i) => `body.${"é".repeat(300)}${i}`);
    const values = warningHeaders(fields);
    expect(values).toHaveLength(11);
    expect(values[10]).toBe('299 - "15 more unknown fields"');
    for (const v of values) {
      expect(v).toMatch(/^[\x20-\x7e]+$/);
      expect(v.length).toBeLessThan(800);
    }
    const res = await fetch(`${base}/api/v1/keys`, {
      method: "POST",
      headers: { ...callers.apiKey, "content-type": "application/json" },
      body: JSON.stringify({
        name: "edge-many",
        algorithm: "EC",
        ...Object.fromEntries(fields.map((f) => [f.slice(5), 1])),
      }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("warning")).toContain("15 more unknown fields");
  });

  it("stores audit values holding a NUL or longer than their column on both databases", async () => {
    const service = createAuditService({ repo: createAuditRepo(t.database.db), log: t.app.log });
    await service.record({
      eventType: "permission.denied",
      outcome: "FAILURE",
      username: "nul\u0000name",
      requestId: "edge-nul-record",
      resource: `r\u0000${"x".repeat(600)}`,
      details: { query: "a\u0000b" },
    });
    const [row] = await audit("edge-nul-record");
    expect(row).toBeDefined();
    expect(row!.details).toMatchObject({ query: "a\u0000b", actor_username: "nul\\u0000name" });
    expect(row!.affectedResource).toHaveLength(512);
    expect(row!.affectedResource.startsWith("r\\u0000x")).toBe(true);
  });
});

describe("the response header backstop", () => {
  it("tells which values Node would refuse to send", () => {
    expect(sendableHeaderValue("warning", '299 - "unknown field \\"body.x\\""')).toBe(true);
    expect(sendableHeaderValue("x-latin1", "caf\u00e9")).toBe(true);
    expect(sendableHeaderValue("warning", ["ok", "\u0100"])).toBe(false);
    expect(sendableHeaderValue("x", "a\r\nset-cookie: x=1")).toBe(false);
    expect(sendableHeaderValue("x", 42)).toBe(true);
  });
});
