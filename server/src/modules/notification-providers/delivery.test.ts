import { randomBytes } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventBus } from "../../events/bus.js";
import { startHttpsReceiver, type HttpsReceiver } from "../../test-support/notify-receivers.js";
import { createTestApp, dialects, type TestApp } from "../../test-support/test-app.js";
import { waitFor } from "../../test-support/wait.js";
import { createProviderDelivery } from "./delivery.js";
import { createProvidersRepo } from "./providers.repo.js";
import { createProvidersService } from "./providers.service.js";

const SECRET = "delivery-secret-0123456789";

/**
 * The delivery queue on both databases with real HTTPS receivers and a short retry base: retries
 * happen in the background (publishing returns at once), a failing provider does not stop the
 * others, failures are logged without secrets, and close() ends the retry waits.
 */
describe.each(dialects())("provider delivery on %s", (dialect) => {
  let t: TestApp;
  let flaky: HttpsReceiver;
  let refusing: HttpsReceiver;
  let healthy: HttpsReceiver;
  const warnings: string[] = [];
  const log = {
    warn: (obj: unknown, msg?: string) => void warnings.push(`${JSON.stringify(obj)} ${msg ?? ""}`),
    debug: () => undefined,
  } as unknown as FastifyBaseLogger;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [flaky, refusing, healthy] = await Promise.all([
      startHttpsReceiver([500, 500, 200]),
      startHttpsReceiver([400]),
      startHttpsReceiver([200]),
    ]);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await Promise.all([flaky?.close(), refusing?.close(), healthy?.close()]);
  });

  it("retries in the background, isolates failures and stops cleanly", async () => {
    const key = randomBytes(32);
    const service = createProvidersService({
      repo: createProvidersRepo(t.database.db),
      masterKey: () => ({ key }),
      webhook: { baseDelayMs: 50 },
    });
    const hook = (name: string, rx: HttpsReceiver, flags: object) =>
      service.create({
        name,
        type: "WEBHOOK",
        config: { url: rx.url, secret: SECRET, skip_tls_verify: true, headers: { "X-Api-Key": "header-secret-value" } },
        ...flags,
      });
    await hook("flaky", flaky, { notifyBackupFailure: true });
    await hook("refusing", refusing, { notifyBackupFailure: true });
    await hook("healthy", healthy, { notifyBackupFailure: true });
    await hook("raft-only", healthy, { notifyRaftHealth: true });

    const bus = createEventBus(() => undefined);
    const delivery = createProviderDelivery({ bus, providers: service, log, publicUrl: undefined });
    delivery.start();
    const started = Date.now();
    bus.publish("backup.failure", { target_name: "s3-main", reason: "bucket gone", backup_id: 4 });
    bus.publish("node.status", { node_id: 1 });
    expect(Date.now() - started).toBeLessThan(50);
    await delivery.idle();

    expect(flaky.requests).toHaveLength(3);
    expect(new Set(flaky.requests.map((r) => r.headers["x-chainlaunch-delivery"])).size).toBe(1);
    expect(refusing.requests).toHaveLength(1);
    expect(healthy.requests.map((r) => JSON.parse(r.body).title)).toEqual(["Backup Failed"]);
    expect(warnings.join("\n")).toContain("refusing");
    expect(warnings.join("\n")).toContain("HTTP 400");
    for (const secret of [SECRET, "header-secret-value"]) expect(warnings.join("\n")).not.toContain(secret);

    // A receiver that keeps failing, with a 60 s backoff: close() ends the wait instead of leaving a timer behind.
    await delivery.close();
    const slow = createProviderDelivery({
      bus,
      providers: createProvidersService({
        repo: createProvidersRepo(t.database.db),
        masterKey: () => ({ key }),
        webhook: { baseDelayMs: 60_000 },
      }),
      log,
      publicUrl: undefined,
    });
    slow.start();
    flaky.setScript([503]);
    const before = flaky.requests.length;
    bus.publish("backup.failure", { target_name: "s3-main", reason: "again" });
    await waitFor("the first attempt", async () => (flaky.requests.length > before ? true : undefined), 10_000);
    const closing = Date.now();
    await slow.close();
    expect(Date.now() - closing).toBeLessThan(2000);
    expect(flaky.requests.length).toBe(before + 1);
    expect(warnings.at(-1)).toMatch(/console closing/);
    bus.publish("backup.failure", { target_name: "s3-main", reason: "after close" });
    await new Promise((r) => setTimeout(r, 100));
    expect(healthy.requests.filter((r) => JSON.parse(r.body).message.includes("after close"))).toHaveLength(0);
  });
});
