import { createUser, type TestApp } from "./test-app.js";
import { waitFor } from "./wait.js";

/** One way a manager reaches the API: a browser session (cookie and the console's own origin) or an API key. */
export interface Caller {
  label: "manager session" | "manager API key";
  headers: Record<string, string>;
  /** The manager's user name, which audit entries carry. */
  username: string;
}

/**
 * A manager user signed in twice: once with a session cookie as the web app sends it, once with an
 * API key that user created for themself. Security tests run each reproduction with both.
 */
export async function managerCallers(t: TestApp, username = "mallory"): Promise<Caller[]> {
  const password = "manager-password-1";
  const basic = await createUser(t, username, "manager", password);
  const login = await t.app.inject({ method: "POST", url: "/api/v1/auth/login", payload: { username, password } });
  const cookie = [login.headers["set-cookie"] ?? []]
    .flat()
    .find((c) => c.startsWith("session_id="))
    ?.split(";")[0];
  if (login.statusCode !== 200 || !cookie) throw new Error(`manager login failed: ${login.statusCode} ${login.body}`);
  const key = await t.app.inject({
    method: "POST",
    url: "/api/v1/api-keys",
    headers: basic,
    payload: { name: `${username}-key` },
  });
  if (key.statusCode !== 201) throw new Error(`manager API key failed: ${key.statusCode} ${key.body}`);
  return [
    // inject's default host is localhost:80: the web app's own origin.
    { label: "manager session", headers: { cookie, origin: "http://localhost:80" }, username },
    { label: "manager API key", headers: { "x-api-key": key.json().key as string }, username },
  ];
}

/**
 * The audit entry of one answered request (found by the request id an error body carries). The
 * entry is written in the onResponse hook, which may finish after inject resolves: wait a little.
 */
export async function auditOf(
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
