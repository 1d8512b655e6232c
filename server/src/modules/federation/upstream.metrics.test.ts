import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedHeaders } from "../../test-support/federation.js";
import { freePort } from "../../test-support/ports.js";
import { insertScrapedPeer, prometheusAvailable, startExporter } from "../../test-support/scrape-targets.js";
import { bootConsole, type Console } from "../../test-support/sharing.js";
import { dialects } from "../../test-support/test-app.js";
import { waitFor } from "../../test-support/wait.js";

const havePrometheus = prometheusAvailable("upstream's forward-metrics tests");

/**
 * GET /node/forward-metrics and POST /node/metrics-enabled against A's real Prometheus, asked by B
 * signed: refused until A grants B metrics federation, 400 without a Prometheus, then Prometheus's
 * /federate output confined to A's node jobs whatever match[] B sends.
 */
describe.skipIf(!havePrometheus).each(dialects())("upstream's forward-metrics from a real Prometheus (%s)", (d) => {
  let a: Console;
  let b: Console;
  let promPort: number;
  const exporters: Server[] = [];
  const forward = (query: string) => {
    const path = query ? `/node/forward-metrics?${query}` : "/node/forward-metrics";
    return a.t.app.inject({
      method: "GET",
      url: `/api/v1${path}`,
      headers: signedHeaders(b.id, { to: a.id.nodeId, method: "GET", path }),
    });
  };
  const enabled = async () => {
    const res = await a.t.app.inject({
      method: "POST",
      url: "/api/v1/node/metrics-enabled",
      headers: signedHeaders(b.id, { to: a.id.nodeId, method: "POST", path: "/node/metrics-enabled" }),
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { metrics_enabled: boolean }).metrics_enabled;
  };
  const match = (...selectors: string[]) => selectors.map((s) => `match%5B%5D=${encodeURIComponent(s)}`).join("&");

  beforeAll(async () => {
    [a, b] = await Promise.all([bootConsole(d), bootConsole(d)]);
    const reg = await a.api("POST", "/node/register-peer", { peer_public_key: b.id.publicKey, peer_endpoint: b.url });
    expect(reg.statusCode, reg.body).toBe(200);
    const [own, foreign] = [await startExporter(7, "alpha"), await startExporter(3, "secret")];
    exporters.push(own.server, foreign.server);
    await insertScrapedPeer(a.t, "fwdpeer0", own.address);
    await insertScrapedPeer(a.t, "fwdforeign0", foreign.address);
    promPort = await freePort();
  }, 60_000);
  afterAll(async () => {
    if (a) await a.api("POST", "/metrics/undeploy");
    await Promise.all([a?.t.close(), b?.t.close()]);
    for (const s of exporters) s.close();
  });

  it("refuses B until A grants it, then answers 400 while no Prometheus runs", async () => {
    const refused = await forward(match("up"));
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().details).toEqual({ reason: "metrics_federation_not_granted" });
    expect(await enabled()).toBe(false);
    const grant = await a.api("POST", "/node/metrics-federation", {
      peer_node_id: b.id.nodeId,
      metrics_federation: true,
    });
    expect(grant.statusCode, grant.body).toBe(200);
    const none = await forward(match("up"));
    expect(none.statusCode, none.body).toBe(400);
    expect(none.json().message).toMatch(/no Prometheus instance is deployed/);
    expect(await enabled()).toBe(false);
  });

  it("forwards /federate over A's node jobs only", { timeout: 90_000 }, async () => {
    const deployed = await a.api("POST", "/metrics/deploy", {
      prometheus_port: promPort,
      prometheus_version: "v2.42.0",
      scrape_interval: 1,
    });
    expect(deployed.statusCode, deployed.body).toBe(200);
    await waitFor(
      "both jobs scraped",
      async () => {
        const r = await fetch(`http://127.0.0.1:${promPort}/api/v1/query?query=ledger_blockchain_height`);
        const result = ((await r.json()) as { data: { result: unknown[] } }).data.result;
        return result.length === 2 ? true : undefined;
      },
      30_000,
    );
    // fwdforeign0 stands for a job A's Prometheus scrapes that is not one of A's nodes.
    await a.t.database.db.deleteFrom("nodes").where("slug", "=", "fwdforeign0").execute();
    expect(await enabled()).toBe(true);

    for (const q of [
      match('{__name__=~".+"}'),
      match("ledger_blockchain_height"),
      match('up{job="fwdforeign0"}', "up"),
    ]) {
      const res = await forward(q);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^text\/plain/);
      expect(res.body).not.toMatch(/fwdforeign0|secret|job="prometheus"/);
    }
    const heights = await forward(match("ledger_blockchain_height"));
    expect(heights.body).toMatch(/ledger_blockchain_height\{[^}]*channel="alpha"[^}]*job="fwdpeer0"[^}]*\} 7/);
    const audit = await a.t.database.db
      .selectFrom("audit_logs")
      .select(["event_outcome", "affected_resource"])
      .where("event_type", "=", "federation.metrics_query_received")
      .where("event_outcome", "=", "SUCCESS")
      .execute();
    expect(audit).toContainEqual({ event_outcome: "SUCCESS", affected_resource: `federation_peer:${b.id.nodeId}` });
    const noMatch = await forward("");
    expect(noMatch.statusCode).toBe(400);
    expect(noMatch.json().message).toMatch(/^match\[\]: /);
    const bad = await forward(match("rate(up[5m])"));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^match\[\]\[0\]: /);
  });

  it("refuses again once A withdraws the grant", async () => {
    expect(
      (await a.api("POST", "/node/metrics-federation", { peer_node_id: b.id.nodeId, metrics_federation: false }))
        .statusCode,
    ).toBe(200);
    expect((await forward(match("up"))).statusCode).toBe(403);
    expect(await enabled()).toBe(false);
  });
});
