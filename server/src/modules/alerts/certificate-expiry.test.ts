import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";
import { waitFor } from "../../test-support/wait.js";

type Json = Record<string, unknown>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(dialects())("certificate expiry alerts on %s", (dialect) => {
  let t: TestApp;
  const call = async (method: "GET" | "POST" | "PUT", url: string, payload?: object) => {
    const res = await t.app.inject({ method, url: `/api/v1${url}`, headers: t.admin, ...(payload ? { payload } : {}) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const notes = async (): Promise<Json[]> =>
    (
      (await call("GET", "/user-notifications?limit=100")) as {
        notifications: Array<{ event_type: string; event_data: Json }>;
      }
    ).notifications
      .filter((n) => n.event_type === "certificate.expiring")
      .map((n) => n.event_data);
  const setSettings = async (patch: object) => {
    const current = (await call("GET", "/settings")).config;
    await call("POST", "/settings", { config: { ...current, ...patch } });
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    // Cycles every second from now on: the loop follows settings.updated without a restart.
    await setSettings({ alertEvaluationInterval: "1s" });
  });
  afterAll(async () => t.close());

  it("raises a certificate expiring within the threshold once over many cycles, and its renewal ends it", async () => {
    const org = await call("POST", "/organizations", { mspId: "ExpOrg1MSP", name: "Expiry Org 1" });
    // A short-lived admin certificate, issued by the organization's own CA through the API.
    const keyId = org.adminSignKeyId as number;
    await call("POST", `/organizations/${org.id}/keys/renew`, { keyId, validFor: "240h" });
    const [note] = await waitFor(
      "certificate.expiring",
      async () => ((await notes()).length ? notes() : undefined),
      15_000,
    );
    expect(note).toMatchObject({
      kind: "identity",
      id: keyId,
      key_id: keyId,
      link: `/settings/keys/${keyId}`,
      days_left: 9,
    });
    expect(note?.subject).toMatch(/CN=/);
    expect(Date.parse(String(note?.not_after)) - Date.now()).toBeLessThan(240 * 3_600_000);
    // Several more cycles: still one notification, and the alert is listed as firing.
    await sleep(3500);
    expect(await notes()).toHaveLength(1);
    const alerts = (await call("GET", "/alerts")) as Array<Json & { data: Json }>;
    expect(alerts.filter((a) => a.rule === "certificate.expiry" && a.status === "firing")).toHaveLength(1);

    // Renewed for a year: the episode ends, nothing new is sent.
    await call("POST", `/organizations/${org.id}/keys/renew`, { keyId });
    await waitFor(
      "the alert to end",
      async () =>
        ((await call("GET", "/alerts")) as Json[]).some((a) => a.rule === "certificate.expiry") ? undefined : true,
      15_000,
    );
    await sleep(1500);
    expect(await notes()).toHaveLength(1);
  });

  it("follows the threshold: CAs and identities within it raise once each, and lowering it resolves them", async () => {
    const org2 = await call("POST", "/organizations", { mspId: "ExpOrg2MSP", name: "Expiry Org 2" });
    // CA certificates last 10 years, identities one: within 3650 days, all of them are expiring.
    await setSettings({ alertCertExpiryDays: 3650 });
    const mine = async () => (await notes()).filter((n) => n.name === "Expiry Org 2" || n.id === org2.adminSignKeyId);
    await waitFor("the CAs and the admin", async () => ((await mine()).length >= 3 ? true : undefined), 15_000);
    const cas = (await mine()).filter((x) => x.kind === "ca");
    expect(cas).toHaveLength(2);
    expect(cas.map((c) => c.link)).toEqual([`/organizations/${org2.id}`, `/organizations/${org2.id}`]);
    expect((await mine()).filter((x) => x.kind === "identity")).toHaveLength(1);
    await sleep(2500);
    // One per certificate however many cycles ran.
    const keys = (await notes()).map((n) => `${String(n.key_id)} ${String(n.not_after)}`);
    expect(new Set(keys).size).toBe(keys.length);

    await setSettings({ alertCertExpiryDays: 30 });
    await waitFor(
      "the alerts to resolve",
      async () =>
        ((await call("GET", "/alerts")) as Json[]).every(
          (a) => a.rule !== "certificate.expiry" || a.status === "resolved",
        )
          ? true
          : undefined,
      15_000,
    );
  });

  it("names the field of a bad threshold, and lets a viewer read alerts but not change them", async () => {
    const current = (await call("GET", "/settings")).config;
    for (const [field, value] of [
      ["alertCertExpiryDays", 0],
      ["alertPeerLagBlocks", "ten"],
      ["alertEvaluationInterval", "often"],
      ["alertCooldownMinutes", -1],
    ] as const) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/settings",
        headers: t.admin,
        payload: { config: { ...current, [field]: value } },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message.startsWith(`body.config.${field}`)).toBe(true);
    }
    const viewer = await createUser(t, "alerts-viewer", "viewer");
    expect((await t.app.inject({ method: "GET", url: "/api/v1/alerts", headers: viewer })).statusCode).toBe(200);
    const change = await t.app.inject({
      method: "POST",
      url: "/api/v1/settings",
      headers: viewer,
      payload: { config: { ...current, alertCertExpiryDays: 5 } },
    });
    expect(change.statusCode).toBe(403);
  });
});
