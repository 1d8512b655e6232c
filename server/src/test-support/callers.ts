import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { createUser, type TestApp } from "./test-app.js";
import { waitFor } from "./wait.js";

/** One way a user reaches the API: its label in test names and the headers it sends. */
export interface Caller {
  label: "manager session" | "manager API key";
  headers: Record<string, string>;
  /** The manager's user name, which audit entries carry. */
  username: string;
}

/**
 * A manager as an attacker would come: a browser session (cookie, same-origin) and an API key the
 * manager created for itself. Security tests run each reproduction as both.
 */
export async function managerCallers(t: TestApp, username = "mallory"): Promise<Caller[]> {
  const password = "manager-password-1";
  const basic = await createUser(t, username, "manager", password);
  const login = await t.app.inject({ method: "POST", url: "/api/v1/auth/login", payload: { username, password } });
  if (login.statusCode !== 200) throw new Error(`login of ${username} failed: ${login.statusCode} ${login.body}`);
  const cookie = /session_id=[^;]+/.exec([login.headers["set-cookie"]].flat().join(";"))?.[0];
  if (!cookie) throw new Error(`login of ${username} set no session cookie`);
  const key = await t.app.inject({
    method: "POST",
    url: "/api/v1/api-keys",
    headers: basic,
    payload: { name: `${username}-key` },
  });
  if (key.statusCode !== 201) throw new Error(`API key of ${username} failed: ${key.statusCode} ${key.body}`);
  return [
    { label: "manager session", headers: { cookie, "sec-fetch-site": "same-origin" }, username },
    { label: "manager API key", headers: { "x-api-key": (key.json() as { key: string }).key }, username },
  ];
}

/** An audit event as GET /audit/logs lists it. */
export interface AuditItem {
  eventType: string;
  eventOutcome: string;
  requestId: string;
  affectedResource: string;
  details: Record<string, unknown>;
}

/**
 * The audit entry of the request that got `res` (matched by its requestId), read as an admin; the
 * entry is written once the response is sent, so it is awaited.
 */
export async function auditOf(t: TestApp, res: LightMyRequestResponse, eventType: string): Promise<AuditItem> {
  const requestId = (res.json() as { requestId?: string }).requestId;
  if (!requestId) throw new Error(`the response has no requestId: ${res.body}`);
  return waitFor(
    `the audit entry of request ${requestId}`,
    async () => {
      const list = await t.app.inject({
        method: "GET",
        url: `/api/v1/audit/logs?event_type=${encodeURIComponent(eventType)}&page_size=100`,
        headers: t.admin,
      });
      return (list.json() as { items: AuditItem[] }).items.find((e) => e.requestId === requestId);
    },
    5000,
    50,
  );
}

/**
 * The audit row of one answered request, of any event type but `permission.denied`, read from the
 * database (found by the request id an error body carries). The
 * entry is written in the onResponse hook, which may finish after inject resolves: wait a little.
 */
export async function auditRowOf(
  t: TestApp,
  res: { json(): unknown; headers: Record<string, unknown> },
): Promise<{
  type: string;
  outcome: string;
  username: string | null;
  resource: string | null;
  details: string | null;
}> {
  const requestId = (res.json() as { requestId?: string }).requestId;
  if (!requestId) throw new Error("the answer carries no requestId");
  return waitFor(
    `the audit entry of request ${requestId}`,
    async () =>
      t.database.db
        .selectFrom("audit_logs")
        .select([
          "event_type as type",
          "event_outcome as outcome",
          "username",
          "affected_resource as resource",
          "details",
        ])
        .where("request_id", "=", requestId)
        .where("event_type", "!=", "permission.denied")
        .executeTakeFirst(),
    5_000,
    50,
  );
}

/**
 * A clean HOST_COMMAND refusal: a 403 naming the field and saying why, the route's audit entry with
 * `refused: HOST_COMMAND` and the field, and `state()` unchanged from `before` (nothing stored).
 */
export async function expectHostCommandRefused(
  t: TestApp,
  res: LightMyRequestResponse,
  refusal: { eventType: string; field: string; before: unknown; state: () => Promise<unknown> },
): Promise<void> {
  const { eventType, field } = refusal;
  expect(res.statusCode, res.body).toBe(403);
  const body = res.json() as { message: string; details: unknown };
  expect(body.message).toMatch(
    new RegExp(
      `^${field.replace(/\./g, "\\.")}: .*runs commands on the host; only an admin may do it \\(your role is manager\\)`,
    ),
  );
  expect(body.details).toMatchObject({ permission: "HOST_COMMAND", requiredRoles: ["admin"], role: "manager" });
  const audit = await auditOf(t, res, eventType);
  expect(audit.eventOutcome).toBe("FAILURE");
  expect(audit.details).toMatchObject({ status: 403, refused: "HOST_COMMAND", field });
  expect(await refusal.state()).toEqual(refusal.before);
}
