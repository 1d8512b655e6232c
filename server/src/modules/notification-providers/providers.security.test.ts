import { createServer as createNetServer, type AddressInfo, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditRowOf, managerCallers, type Caller } from "../../test-support/callers.js";
import {
  startHttpsReceiver,
  startSmtp,
  type HttpsReceiver,
  type SmtpReceiver,
} from "../../test-support/notify-receivers.js";
import { createTestApp, dialects, type TestApp } from "../../test-support/test-app.js";

/**
 * What a manager could do with a provider an admin set up, reproduced against real receivers (an
 * SMTP server and HTTPS webhook receivers on free loopback ports), as a manager session and as a
 * manager API key, on both databases:
 * - re-aim: change only the URL or the port and press "test", so the stored Authorization header,
 *   HMAC key or SMTP password goes to a host of their own. Refused (400 naming the secret, audited,
 *   nothing changed) until the secret is sent again; then only the new secret reaches the new host.
 * - echo: point a provider at a loopback service and read its answer in the test result. The result
 *   names the status or the failure only.
 */
const ADMIN_TOKEN = "Bearer ADMIN-ONLY-token-7f3a";
const ADMIN_HMAC = "admin-hmac-key-0123456789abcdef";
const ADMIN_SMTP_PASS = "admin-smtp-Password-99";
const LEAK = "SECRET-BODY";

describe.each(dialects())("notification provider secrets and echoes (%s)", (dialect) => {
  let t: TestApp;
  let callers: Caller[];
  let hookA: HttpsReceiver;
  let hookB: HttpsReceiver;
  let echo: HttpsReceiver;
  let smtpA: SmtpReceiver;
  let smtpB: SmtpReceiver;
  let chatty: Server;
  let chattyPort = 0;

  beforeAll(async () => {
    [hookA, hookB, echo, smtpA, smtpB] = await Promise.all([
      startHttpsReceiver([200]),
      startHttpsReceiver([200]),
      startHttpsReceiver([500], { body: `${LEAK} internal page` }),
      startSmtp({ auth: { user: "mailer", pass: ADMIN_SMTP_PASS } }),
      startSmtp({ auth: { user: "mailer", pass: "manager-own-pass" } }),
    ]);
    // A TCP service that is not SMTP: it greets with its own text (as Redis or an HTTP server would answer).
    chatty = createNetServer((s) => s.end(`${LEAK} +PONG redis_version:7\r\n`));
    await new Promise<void>((r) => chatty.listen(0, "127.0.0.1", r));
    chattyPort = (chatty.address() as AddressInfo).port;
    t = await createTestApp(dialect);
    callers = await managerCallers(t);
  }, 60_000);
  afterAll(async () => {
    chatty?.close();
    await t?.close();
    await Promise.all([hookA, hookB, echo, smtpA, smtpB].map((r) => r?.close()));
  });

  const call = (method: "GET" | "POST" | "PUT", url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const row = (id: number) =>
    t.database.db.selectFrom("notification_providers").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const webhook = (name: string, config: object) => ({ name, type: "WEBHOOK", config });
  const smtp = (name: string, config: object) => ({
    name,
    type: "SMTP",
    config: {
      host: "127.0.0.1",
      username: "mailer",
      from_email: "console@example.com",
      to_email: "ops@example.com",
      skip_tls_verify: true,
      ...config,
    },
  });
  /** The admin's provider: created with the admin's credentials, as an operator would. */
  const adminCreates = async (body: object): Promise<number> => {
    const res = await call("POST", "/notifications/providers", t.admin, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  const sawSecret = (r: HttpsReceiver) =>
    r.requests.filter((q) => JSON.stringify(q.headers).includes(ADMIN_TOKEN)).length;

  it("refuses to re-aim a webhook's stored secrets at another host until they are sent again", async () => {
    for (const c of callers) {
      const name = `hook-${c.label.replace(/ /g, "-")}`;
      const id = await adminCreates(
        webhook(name, {
          url: hookA.url,
          secret: ADMIN_HMAC,
          ca_cert: hookA.cert,
          headers: { Authorization: ADMIN_TOKEN },
        }),
      );
      const before = await row(id);
      const masked = { secret: "********", headers: { Authorization: "********" } };
      const reaims: [object, RegExp][] = [
        [{ url: hookB.url, ca_cert: hookB.cert, ...masked }, /^config\.secret: must be given again when the URL's/],
        [{ url: hookB.url, ca_cert: hookB.cert }, /^config\.secret: must be given again/],
        [
          { url: hookB.url, ca_cert: hookB.cert, secret: "manager-own-hmac-key-0001", headers: masked.headers },
          /^config\.headers\.Authorization: must be given again/,
        ],
        [
          { url: hookB.url, ca_cert: hookB.cert, secret: "manager-own-hmac-key-0001" },
          /^config\.headers\.Authorization: must be given again/,
        ],
      ];
      for (const [config, message] of reaims) {
        const res = await call("PUT", `/notifications/providers/${id}`, c.headers, webhook(name, config));
        expect(res.statusCode, `${c.label}: ${res.body}`).toBe(400);
        expect(res.json().message).toMatch(message);
        expect(await auditRowOf(t, res)).toMatchObject({
          type: "notification_provider.update",
          outcome: "FAILURE",
          username: c.username,
        });
        expect(await row(id)).toEqual(before);
      }
      // "Test" after the refusals still goes to A, with the admin's header; B saw nothing.
      const test = await call("POST", `/notifications/providers/${id}/test`, c.headers, {});
      expect(test.json(), test.body).toMatchObject({ status: "success" });
      expect(hookA.requests.at(-1)?.headers.authorization).toBe(ADMIN_TOKEN);
      expect(hookB.requests).toHaveLength(0);

      // Another path on the same origin keeps the stored secrets.
      const samePlace = await call(
        "PUT",
        `/notifications/providers/${id}`,
        c.headers,
        webhook(name, { url: `${hookA.url}/other`, ca_cert: hookA.cert, ...masked }),
      );
      expect(samePlace.statusCode, samePlace.body).toBe(200);

      // Sent again, the new secrets go to B, and only they do.
      const own = await call(
        "PUT",
        `/notifications/providers/${id}`,
        c.headers,
        webhook(name, {
          url: hookB.url,
          ca_cert: hookB.cert,
          secret: "manager-own-hmac-key-0001",
          headers: { Authorization: "Bearer manager-own" },
        }),
      );
      expect(own.statusCode, own.body).toBe(200);
      const sent = await call("POST", `/notifications/providers/${id}/test`, c.headers, {});
      expect(sent.json(), sent.body).toMatchObject({ status: "success", message: "the receiver answered HTTP 200 OK" });
      expect(hookB.requests.at(-1)?.headers.authorization).toBe("Bearer manager-own");
      expect(sawSecret(hookB)).toBe(0);
      hookB.requests.length = 0;
    }
  });

  it("refuses to re-aim an SMTP password at another port until it is sent again", async () => {
    for (const c of callers) {
      const name = `mail-${c.label.replace(/ /g, "-")}`;
      const id = await adminCreates(smtp(name, { port: smtpA.port, password: ADMIN_SMTP_PASS }));
      const before = await row(id);
      for (const password of [undefined, "********"]) {
        const res = await call(
          "PUT",
          `/notifications/providers/${id}`,
          c.headers,
          smtp(name, { port: smtpB.port, ...(password ? { password } : {}) }),
        );
        expect(res.statusCode, `${c.label}: ${res.body}`).toBe(400);
        expect(res.json().message).toMatch(/^config\.password: must be given again when the host or port changes/);
        expect(await auditRowOf(t, res)).toMatchObject({ type: "notification_provider.update", outcome: "FAILURE" });
        expect(await row(id)).toEqual(before);
      }
      // A host spelled differently is another destination too.
      const host = await call(
        "PUT",
        `/notifications/providers/${id}`,
        c.headers,
        smtp(name, { host: "localhost", port: smtpA.port }),
      );
      expect(host.statusCode).toBe(400);
      expect(host.json().message).toMatch(/^config\.password: /);
      const test = await call("POST", `/notifications/providers/${id}/test`, c.headers, { testEmail: "t@example.com" });
      expect(test.json(), test.body).toMatchObject({ status: "success" });
      expect(smtpB.logins).toEqual([]);

      const own = await call(
        "PUT",
        `/notifications/providers/${id}`,
        c.headers,
        smtp(name, { port: smtpB.port, password: "manager-own-pass" }),
      );
      expect(own.statusCode, own.body).toBe(200);
      const sent = await call("POST", `/notifications/providers/${id}/test`, c.headers, { testEmail: "t@example.com" });
      expect(sent.json(), sent.body).toMatchObject({ status: "success" });
      expect(sent.json().message).toMatch(
        /^test email sent to t@example\.com: the mail server accepted it \(reply 250\)$/,
      );
      expect(smtpB.logins.map((l) => l.pass)).toEqual(["manager-own-pass"]);
      smtpB.logins.length = 0;
    }
  });

  it("never returns what a receiver answered: a webhook's error page, a non-SMTP service's greeting", async () => {
    for (const c of callers) {
      const tag = c.label.replace(/ /g, "-");
      const hook = await call(
        "POST",
        "/notifications/providers",
        c.headers,
        webhook(`echo-${tag}`, { url: echo.url, secret: "manager-own-hmac-key-0001", ca_cert: echo.cert }),
      );
      expect(hook.statusCode, hook.body).toBe(201);
      const res = await call("POST", `/notifications/providers/${hook.json().id}/test`, c.headers, {});
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        status: "failure",
        message: "the receiver answered HTTP 500 Internal Server Error",
      });
      expect(res.body).not.toContain(LEAK);
      const stored = await call("GET", `/notifications/providers/${hook.json().id}`, c.headers);
      expect(stored.json().lastTestMessage).toBe("the receiver answered HTTP 500 Internal Server Error");

      const mail = await call(
        "POST",
        "/notifications/providers",
        c.headers,
        smtp(`echo-mail-${tag}`, { port: chattyPort, username: "", use_tls: false }),
      );
      expect(mail.statusCode, mail.body).toBe(201);
      const probe = await call("POST", `/notifications/providers/${mail.json().id}/test`, c.headers, {
        testEmail: "t@example.com",
      });
      expect(probe.json().status).toBe("failure");
      expect(probe.json().message).toMatch(/^the server did not answer as an SMTP server/);
      expect(probe.body).not.toContain(LEAK);
      expect(probe.body).not.toContain("redis_version");
    }
    // A wrong password: the reply code, not the server's words.
    const id = await adminCreates(smtp("wrong-pass", { port: smtpA.port, password: "not-the-password" }));
    const wrong = await call("POST", `/notifications/providers/${id}/test`, t.admin, { testEmail: "t@example.com" });
    expect(wrong.json().message).toMatch(/^the mail server refused the login \(reply 535, at AUTH\)$/);
  });
});
