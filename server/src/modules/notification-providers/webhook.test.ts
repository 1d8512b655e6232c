import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { startHttpsReceiver, type HttpsReceiver } from "../../test-support/notify-receivers.js";
import { eventLink, eventMessage } from "./messages.js";
import { postWebhook, webhookSignature, WebhookError, type OutgoingNotification } from "./webhook.js";

const SECRET = "webhook-secret-0123456789";
const note = (): OutgoingNotification => ({
  id: randomUUID(),
  type: "node.downtime",
  title: "Node Down",
  message: "Node peer0 has been down for 2 minutes.",
  link: "/nodes/1",
  data: { node_id: 1, node_name: "peer0" },
  timestamp: new Date().toISOString(),
});
const fast = { attempts: 4, baseDelayMs: 20, timeoutMs: 5000 };

/** Webhook delivery against a real HTTPS server with a self-signed certificate. */
describe("postWebhook", () => {
  let rx: HttpsReceiver | undefined;
  afterEach(async () => rx?.close());

  it("signs the body so the receiver can verify it with the shared secret", async () => {
    rx = await startHttpsReceiver([200]);
    const n = note();
    const r = await postWebhook(
      { url: rx.url, skip_tls_verify: false, ca_cert: rx.cert },
      { secret: SECRET, headers: { "X-Team": "ops" } },
      n,
      fast,
    );
    expect(r.attempts).toBe(1);
    const [req] = rx.requests;
    expect(req?.headers["x-chainlaunch-event"]).toBe("node.downtime");
    expect(req?.headers["x-chainlaunch-delivery"]).toBe(n.id);
    expect(req?.headers["x-team"]).toBe("ops");
    const ts = String(req?.headers["x-chainlaunch-timestamp"]);
    expect(req?.headers["x-chainlaunch-signature"]).toBe(webhookSignature(SECRET, ts, req?.body ?? ""));
    expect(req?.headers["x-chainlaunch-signature"]).not.toBe(
      webhookSignature("another-secret-xxxxx", ts, req?.body ?? ""),
    );
    expect(JSON.parse(req?.body ?? "{}")).toEqual({
      id: n.id,
      type: n.type,
      title: n.title,
      message: n.message,
      link: n.link,
      data: n.data,
      timestamp: n.timestamp,
    });
  });

  it("retries 5xx with the same delivery id until the receiver accepts", async () => {
    rx = await startHttpsReceiver([500, 500, 200]);
    const r = await postWebhook({ url: rx.url, skip_tls_verify: true, ca_cert: "" }, { secret: SECRET }, note(), fast);
    expect(r.attempts).toBe(3);
    expect(rx.requests).toHaveLength(3);
    expect(new Set(rx.requests.map((q) => q.headers["x-chainlaunch-delivery"])).size).toBe(1);
  });

  it("does not retry a 4xx other than 429", async () => {
    rx = await startHttpsReceiver([400, 200]);
    const err = await postWebhook(
      { url: rx.url, skip_tls_verify: true, ca_cert: "" },
      { secret: SECRET },
      note(),
      fast,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookError);
    expect((err as WebhookError).attempts).toBe(1);
    expect((err as WebhookError).message).toContain("HTTP 400");
    expect(rx.requests).toHaveLength(1);
  });

  it("retries 429 and gives up after the last attempt", async () => {
    rx = await startHttpsReceiver([429]);
    const err = (await postWebhook(
      { url: rx.url, skip_tls_verify: true, ca_cert: "" },
      { secret: SECRET },
      note(),
      fast,
    ).catch((e: unknown) => e)) as WebhookError;
    expect(err.attempts).toBe(4);
    expect(rx.requests).toHaveLength(4);
  });

  it("refuses an untrusted certificate unless told to skip verification", async () => {
    rx = await startHttpsReceiver([200]);
    const err = (await postWebhook({ url: rx.url, skip_tls_verify: false, ca_cert: "" }, { secret: SECRET }, note(), {
      ...fast,
      attempts: 1,
    }).catch((e: unknown) => e)) as WebhookError;
    expect(err.message).toMatch(/self[- ]signed|certificate/i);
    expect(rx.requests).toHaveLength(0);
  });

  it("stops waiting between retries when aborted", async () => {
    rx = await startHttpsReceiver([503]);
    const ac = new AbortController();
    const p = postWebhook({ url: rx.url, skip_tls_verify: true, ca_cert: "" }, { secret: SECRET }, note(), {
      ...fast,
      baseDelayMs: 60_000,
      signal: ac.signal,
    });
    while (rx.requests.length < 1) await new Promise((r) => setTimeout(r, 10));
    ac.abort();
    await expect(p).rejects.toThrow(/console closing/);
  });
});

describe("event messages", () => {
  it("writes a sentence from the event data and links to the spec's pages", () => {
    expect(
      eventMessage("node.downtime", { node_name: "peer0", downtime_mins: 3, reason: "exited with code 137" }),
    ).toBe("Node peer0 has been down for 3 minutes: exited with code 137.");
    expect(eventMessage("backup.success", { target_name: "s3-main", size: 3 * 1024 * 1024 + 5000 })).toBe(
      "Backup to s3-main completed (3.00 MB).",
    );
    expect(eventMessage("s3.connection.issue", { bucket: "b", endpoint: "http://s3", reason: "timeout" })).toBe(
      "Cannot reach S3 bucket b at http://s3: timeout.",
    );
    expect(eventMessage("raft.consenter_unreachable", { channel: "ch1", consenter: "o1:7050" })).toBe(
      "A Raft consenter is unreachable (channel=ch1, consenter=o1:7050).",
    );
    expect(eventLink("node.downtime", { node_id: 7 }, undefined)).toBe("/nodes/7");
    expect(eventLink("backup.failure", {}, "https://console.example.com/")).toBe(
      "https://console.example.com/settings/backups",
    );
  });
});
