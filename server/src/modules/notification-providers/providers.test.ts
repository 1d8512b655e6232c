import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startHttpsReceiver,
  startSmtp,
  type HttpsReceiver,
  type SmtpReceiver,
} from "../../test-support/notify-receivers.js";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";
import { waitFor } from "../../test-support/wait.js";
import { webhookSignature } from "./webhook.js";

const SMTP_PASS = "smtp-pass-Secret-42";
const HOOK_SECRET = "hook-secret-Value-0123456789";
const HEADER_TOKEN = "Bearer header-token-Secret";

/**
 * Notification providers through the API on both databases, against a real SMTP server (STARTTLS
 * with a self-signed certificate, with and without auth) and a real HTTPS receiver: masked secrets,
 * named input errors that store nothing, Send test, routing of bus events by flag, and who may do what.
 */
describe.each(dialects())("notification providers on %s", (dialect) => {
  let t: TestApp;
  let viewer: { authorization: string };
  let manager: { authorization: string };
  let smtpAuth: SmtpReceiver;
  let smtpPlain: SmtpReceiver;
  let hook: HttpsReceiver;
  const call = (
    method: "GET" | "POST" | "PUT" | "DELETE",
    url: string,
    payload?: object,
    headers: Record<string, string> = t.admin,
  ) => t.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

  const smtp = (name: string, extra: object = {}, config: object = {}) => ({
    name,
    type: "SMTP",
    config: {
      host: "127.0.0.1",
      port: smtpAuth.port,
      username: "mailer",
      password: SMTP_PASS,
      from_email: "console@example.com",
      to_email: "ops@example.com, oncall@example.com",
      skip_tls_verify: true,
      ...config,
    },
    ...extra,
  });
  const webhook = (name: string, extra: object = {}, config: object = {}) => ({
    name,
    type: "WEBHOOK",
    config: {
      url: hook.url,
      secret: HOOK_SECRET,
      ca_cert: hook.cert,
      headers: { Authorization: HEADER_TOKEN },
      ...config,
    },
    ...extra,
  });

  beforeAll(async () => {
    smtpAuth = await startSmtp({ auth: { user: "mailer", pass: SMTP_PASS } });
    smtpPlain = await startSmtp({ tls: false });
    hook = await startHttpsReceiver([200]);
    t = await createTestApp(dialect, { CHAINLAUNCH_PUBLIC_URL: "https://console.example.com/" });
    viewer = await createUser(t, "npviewer", "viewer");
    manager = await createUser(t, "npmanager", "manager");
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await Promise.all([smtpAuth?.close(), smtpPlain?.close(), hook?.close()]);
  });

  it("creates providers with masked secrets, accepts Terraform's snake_case and keeps one default", async () => {
    const a = await call(
      "POST",
      "/notifications/providers",
      smtp("mail-a", { is_default: true, notify_node_downtime: true }),
    );
    expect(a.statusCode, a.body).toBe(201);
    const pa = a.json();
    expect(pa).toMatchObject({
      name: "mail-a",
      type: "SMTP",
      isDefault: true,
      notifyNodeDowntime: true,
      notifyBackupSuccess: false,
      notifyCertExpiry: false,
      lastTestStatus: null,
      config: { host: "127.0.0.1", port: smtpAuth.port, password: "********", from_name: "ChainLaunch", use_tls: true },
    });
    const b = await call("POST", "/notifications/providers", webhook("hook-b", { isDefault: true, is_default: false }));
    expect(b.statusCode, b.body).toBe(201);
    expect(b.json().isDefault).toBe(true);
    expect(b.json().config).toMatchObject({
      url: hook.url,
      secret: "********",
      headers: { Authorization: "********" },
    });
    expect((await call("GET", `/notifications/providers/${pa.id}`)).json().isDefault).toBe(false);

    const list = await call("GET", "/notifications/providers", undefined, viewer);
    expect(list.statusCode).toBe(200);
    for (const body of [a.body, b.body, list.body]) {
      for (const secret of [SMTP_PASS, HOOK_SECRET, HEADER_TOKEN]) expect(body).not.toContain(secret);
    }
    const raw = JSON.stringify(await t.database.db.selectFrom("notification_providers").selectAll().execute());
    for (const secret of [SMTP_PASS, HOOK_SECRET, HEADER_TOKEN]) expect(raw).not.toContain(secret);
  });

  it("refuses bad input naming the field, and stores nothing", async () => {
    const cases: [object, number, string][] = [
      [smtp("bad-1", {}, { host: "" }), 400, "config.host"],
      [smtp("bad-2", {}, { to_email: "ops@example.com, not-an-address" }), 400, "config.to_email"],
      [smtp("bad-3", {}, { from_email: "nope" }), 400, "config.from_email"],
      [webhook("bad-4", {}, { url: "http://hooks.example.com/x" }), 400, "config.url"],
      [webhook("bad-5", {}, { secret: "short" }), 400, "config.secret"],
      [webhook("bad-6", {}, { headers: { "X-ChainLaunch-Signature": "forged" } }), 400, "config.headers"],
      [webhook("bad-7", {}, { ca_cert: "not a pem" }), 400, "config.ca_cert"],
      [smtp("mail-a"), 409, "name"],
    ];
    for (const [body, status, field] of cases) {
      const res = await call("POST", "/notifications/providers", body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().message).toContain(field);
    }
    const names = (await call("GET", "/notifications/providers")).json().map((p: { name: string }) => p.name);
    expect(names.sort()).toEqual(["hook-b", "mail-a"]);
    expect((await call("GET", "/notifications/providers/99999")).statusCode).toBe(404);
    expect((await call("PUT", "/notifications/providers/99999", smtp("x"))).statusCode).toBe(404);
    expect((await call("DELETE", "/notifications/providers/99999")).statusCode).toBe(404);
  });

  it("sends a test email over STARTTLS with auth and records the outcome", async () => {
    const [p] = (await call("GET", "/notifications/providers")).json() as { id: number }[];
    const res = await call("POST", `/notifications/providers/${p?.id}/test`, { testEmail: "tester@example.com" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: "success" });
    const mail = smtpAuth.mails.at(-1);
    expect(mail).toMatchObject({
      to: ["tester@example.com"],
      from: "console@example.com",
      user: "mailer",
      secure: true,
    });
    expect(mail?.subject).toBe("[ChainLaunch] Test Notification");
    expect(mail?.text).toContain("test notification from ChainLaunch provider 'mail-a'");
    const got = (await call("GET", `/notifications/providers/${p?.id}`)).json();
    expect(got).toMatchObject({ lastTestStatus: "success", lastTestAt: res.json().testedAt });
    expect((await call("POST", `/notifications/providers/${p?.id}/test`, {})).statusCode).toBe(400);
  });

  it("keeps the stored password on a PUT without it, and reports a wrong one without changing the provider", async () => {
    const created = (await call("POST", "/notifications/providers", smtp("mail-c"))).json();
    const { password: _omit, ...config } = smtp("mail-c").config;
    const upd = await call("PUT", `/notifications/providers/${created.id}`, {
      ...smtp("mail-c"),
      config: { ...config, from_name: "Ops" },
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json().config).toMatchObject({ password: "********", from_name: "Ops" });
    expect(
      (await call("POST", `/notifications/providers/${created.id}/test`, { testEmail: "a@example.com" })).json().status,
    ).toBe("success");

    const wrong = (
      await call("POST", "/notifications/providers", smtp("mail-d", {}, { password: "wrong-password" }))
    ).json();
    const before = (await call("GET", `/notifications/providers/${wrong.id}`)).json();
    const res = await call("POST", `/notifications/providers/${wrong.id}/test`, { testEmail: "a@example.com" });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe("failure");
    expect(res.json().message).toMatch(/535|Invalid username or password/);
    const after = (await call("GET", `/notifications/providers/${wrong.id}`)).json();
    expect({ ...after, lastTestAt: null, lastTestStatus: null, lastTestMessage: null }).toEqual(before);
    expect(after.lastTestStatus).toBe("failure");
  });

  it("tests a webhook: the receiver verifies the signature with the secret", async () => {
    const [, p] = (await call("GET", "/notifications/providers")).json() as { id: number }[];
    const before = hook.requests.length;
    const res = await call("POST", `/notifications/providers/${p?.id}/test`, {});
    expect(res.json(), res.body).toMatchObject({ status: "success" });
    const req = hook.requests[before];
    expect(req?.headers.authorization).toBe(HEADER_TOKEN);
    const ts = String(req?.headers["x-chainlaunch-timestamp"]);
    expect(req?.headers["x-chainlaunch-signature"]).toBe(webhookSignature(HOOK_SECRET, ts, req?.body ?? ""));
  });

  it("sends bus events to exactly the providers whose flag is set", async () => {
    // mail-a: node downtime (auth SMTP). plain: backups only (plain SMTP). hook-b: no flags yet.
    const plain = await call(
      "POST",
      "/notifications/providers",
      smtp(
        "plain",
        { notifyBackupSuccess: true },
        { port: smtpPlain.port, username: "", password: "", use_tls: false },
      ),
    );
    expect(plain.statusCode, plain.body).toBe(201);
    const hookId = (await call("GET", "/notifications/providers"))
      .json()
      .find((p: { name: string }) => p.name === "hook-b").id;
    const upd = await call(
      "PUT",
      `/notifications/providers/${hookId}`,
      webhook("hook-b", { notifyNodeDowntime: true }, { secret: "********", headers: { Authorization: "********" } }),
    );
    expect(upd.statusCode, upd.body).toBe(200);

    const mailsA = smtpAuth.mails.length;
    const hooks = hook.requests.length;
    t.bus.publish("node.downtime", {
      node_id: 12,
      node_name: "peer0-org1",
      downtime_mins: 2,
      reason: "exited with code 137",
    });
    const mail = await waitFor(
      "the node-down email",
      async () => smtpAuth.mails.slice(mailsA).find((m) => m.subject.includes("Node Down")),
      15_000,
    );
    expect(mail.to).toEqual(["ops@example.com", "oncall@example.com"]);
    expect(mail.text).toContain("Node peer0-org1 has been down for 2 minutes: exited with code 137.");
    expect(mail.text).toContain("https://console.example.com/nodes/12");
    const req = await waitFor("the node-down webhook", async () => hook.requests[hooks], 15_000);
    const body = JSON.parse(req.body);
    expect(body).toMatchObject({
      type: "node.downtime",
      title: "Node Down",
      link: "https://console.example.com/nodes/12",
    });
    expect(req.headers["x-chainlaunch-signature"]).toBe(
      webhookSignature(HOOK_SECRET, String(req.headers["x-chainlaunch-timestamp"]), req.body),
    );

    t.bus.publish("backup.success", { target_name: "s3-main", size: 2_097_152, backup_id: 1 });
    const backupMail = await waitFor(
      "the backup email",
      async () => smtpPlain.mails.find((m) => m.subject.includes("Backup Completed")),
      15_000,
    );
    expect(backupMail.text).toContain("Backup to s3-main completed (2.00 MB).");
    expect(backupMail.secure).toBe(false);
    // Everything routed went out above; wait a moment so a wrongly routed delivery would have arrived.
    await new Promise((r) => setTimeout(r, 500));
    expect(smtpPlain.mails.filter((m) => m.subject.includes("Node Down"))).toHaveLength(0);
    expect(smtpAuth.mails.slice(mailsA).filter((m) => m.subject.includes("Backup"))).toHaveLength(0);
    expect(hook.requests.slice(hooks).map((r) => JSON.parse(r.body).type)).toEqual(["node.downtime"]);
  });

  it("lets viewers read but not change, and anonymous callers nothing", async () => {
    const [p] = (await call("GET", "/notifications/providers")).json() as { id: number }[];
    const url = `/notifications/providers/${p?.id}`;
    expect((await call("GET", url, undefined, viewer)).statusCode).toBe(200);
    expect((await call("POST", "/notifications/providers", smtp("v"), viewer)).statusCode).toBe(403);
    expect((await call("PUT", url, smtp("v"), viewer)).statusCode).toBe(403);
    expect((await call("DELETE", url, undefined, viewer)).statusCode).toBe(403);
    expect((await call("POST", `${url}/test`, { testEmail: "a@example.com" }, viewer)).statusCode).toBe(403);
    expect((await call("GET", "/notifications/providers", undefined, {})).statusCode).toBe(401);
    const m = await call("POST", "/notifications/providers", smtp("by-manager"), manager);
    expect(m.statusCode, m.body).toBe(201);
    expect((await call("DELETE", `/notifications/providers/${m.json().id}`, undefined, manager)).statusCode).toBe(204);
    expect((await call("GET", `/notifications/providers/${m.json().id}`)).statusCode).toBe(404);
  });

  it("keeps secrets out of the audit log", async () => {
    const res = await call("GET", "/audit/logs?page_size=500");
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("notification_provider.create");
    expect(res.body).toContain("notification_provider.test");
    for (const secret of [SMTP_PASS, HOOK_SECRET, HEADER_TOKEN, "wrong-password"])
      expect(res.body).not.toContain(secret);
  });
});
