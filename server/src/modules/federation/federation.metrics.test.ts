import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootConsole, type Console } from "../../test-support/sharing.js";
import { apiOf } from "../../test-support/federation.js";
import { freePort } from "../../test-support/ports.js";
import { insertScrapedPeer, prometheusAvailable, startExporter } from "../../test-support/scrape-targets.js";
import { createUser, dialects } from "../../test-support/test-app.js";
import { waitFor } from "../../test-support/wait.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const havePrometheus = prometheusAvailable("the metrics federation tests");

const series = (res: { json(): Json }): Json[] => res.json().data.result as Json[];

describe.skipIf(!havePrometheus).each(dialects())("metrics federation between two real consoles (%s)", (d) => {
  let a: Console;
  let b: Console;
  let promPort: number;
  const exporters: Server[] = [];
  const query = (ref: string, q: string) => b.api("POST", `/metrics/connection/${ref}/query`, { query: q });
  /** What B knows about A granting it (learned from A's answers). */
  const grantedToB = async () =>
    ((await b.api("GET", "/node/connected-peers")).json().connected_peers as Json[])[0]?.peer_grants_metrics;
  const grant = (on: boolean, c?: Console, peer?: string) =>
    (c ?? a).api("POST", "/node/metrics-federation", { peer_node_id: peer ?? b.id.nodeId, metrics_federation: on });

  beforeAll(async () => {
    [a, b] = await Promise.all([bootConsole(d, "1"), bootConsole(d, "1")]);
    const jwt = (await a.api("POST", "/node/generate-invitation", { bidirectional: true })).json().invitation_jwt;
    const accepted = await b.api("POST", "/node/accept-invitation", { invitation_jwt: jwt });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const [own, foreign] = [await startExporter(7, "alpha"), await startExporter(3, "secret")];
    exporters.push(own.server, foreign.server);
    await insertScrapedPeer(a.t, "fedpeer0", own.address);
    await insertScrapedPeer(a.t, "fedforeign0", foreign.address);
    promPort = await freePort();
  }, 60_000);
  afterAll(async () => {
    if (a) await a.api("POST", "/metrics/undeploy");
    await Promise.all([a?.t.close(), b?.t.close()]);
    for (const s of exporters) s.close();
  });

  it("refuses B's query with A's 403 until A grants it; the grant is admin/manager only and audited", async () => {
    const before = await query(a.id.nodeId, "up");
    expect(before.statusCode, before.body).toBe(403);
    expect(before.json().message).toMatch(`does not grant metrics federation to ${b.id.nodeId}`);
    expect(await grantedToB()).toBe(false);
    const viewer = apiOf(a.t, await createUser(a.t, "mfviewer", "viewer"));
    expect(
      (await viewer("POST", "/node/metrics-federation", { peer_node_id: b.id.nodeId, metrics_federation: true }))
        .statusCode,
    ).toBe(403);
    const on = await grant(true);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().message).toMatch(/enabled/);
    const peers = (await a.api("GET", "/node/connected-peers")).json().connected_peers as Json[];
    expect(peers.find((p) => p.node_id === b.id.nodeId)?.metrics_federation).toBe(true);
    // B learns it from A's next ping answer.
    await waitFor("B sees A's grant", async () => ((await grantedToB()) === true ? true : undefined), 10_000);
    // A grant is A's alone: B still grants nothing to A.
    expect(
      ((await b.api("GET", "/node/connected-peers")).json().connected_peers as Json[])[0]?.metrics_federation,
    ).toBe(false);
    const audit = await a.t.database.db
      .selectFrom("audit_logs")
      .select(["event_outcome", "affected_resource"])
      .where("event_type", "=", "federation.metrics_federation")
      .execute();
    expect(audit).toContainEqual({ event_outcome: "SUCCESS", affected_resource: `federation_peer:${b.id.nodeId}` });
  });

  it("answers 404 for unknown consoles and connections", async () => {
    const unknownPeer = await grant(true, a, "cl-00000000000000000000000000000000");
    expect(unknownPeer.statusCode).toBe(404);
    expect(unknownPeer.json().message).toMatch(/^peer_node_id: /);
    expect((await query("9999", "up")).statusCode).toBe(404);
    expect((await query("cl-ffffffffffffffffffffffffffffffff", "up")).statusCode).toBe(404);
  });

  it("answers 503 while Prometheus is not deployed on A", async () => {
    const res = await query(a.id.nodeId, "up");
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().message).toMatch(/Prometheus is not deployed/);
  });

  it("gives B only A's node jobs, by node id or connection id", { timeout: 90_000 }, async () => {
    const deployed = await a.api("POST", "/metrics/deploy", {
      prometheus_port: promPort,
      prometheus_version: "v2.42.0",
      scrape_interval: 1,
    });
    expect(deployed.statusCode, deployed.body).toBe(200);
    // fedforeign0 stands for a job A's Prometheus scrapes that is not one of A's nodes (a plugin's
    // endpoint): its row goes, its scrape job stays until the next config sync.
    await waitFor(
      "both jobs scraped",
      async () => {
        const r = await fetch(`http://127.0.0.1:${promPort}/api/v1/query?query=ledger_blockchain_height`);
        const result = ((await r.json()) as Json).data.result as Json[];
        return result.length === 2 ? true : undefined;
      },
      30_000,
    );
    await a.t.database.db.deleteFrom("nodes").where("slug", "=", "fedforeign0").execute();

    const byNode = await query(a.id.nodeId, "ledger_blockchain_height");
    expect(byNode.statusCode, byNode.body).toBe(200);
    expect(series(byNode)).toHaveLength(1);
    expect(series(byNode)[0]?.metric).toMatchObject({ job: "fedpeer0", channel: "alpha" });
    expect(series(byNode)[0]?.value[1]).toBe("7");
    const connId = ((await b.api("GET", "/node/connected-peers")).json().connected_peers as Json[])[0]?.id;
    const byId = await query(String(connId), "ledger_blockchain_height");
    expect(byId.statusCode, byId.body).toBe(200);
    expect(series(byId)).toHaveLength(1);
  });

  it.each([
    ['up{job="prometheus"}'],
    ['up{job="fedforeign0"}'],
    ['{__name__=~".+"}'],
    ['ledger_blockchain_height{job=~".+"} or on() vector(1)'],
    ['sum by (job, channel) (ledger_blockchain_height{job!="fedpeer0"})'],
  ])("gives B nothing foreign for %s", async (q) => {
    const res = await query(a.id.nodeId, q);
    expect(res.statusCode, res.body).toBe(200);
    for (const s of series(res)) {
      expect(s.metric.job ?? "fedpeer0").toBe("fedpeer0");
      expect(s.metric.channel ?? "alpha").toBe("alpha");
    }
  });

  it("answers label values among A's node jobs, and bad PromQL with 400", async () => {
    const jobs = await b.api("GET", `/metrics/connection/${a.id.nodeId}/label/job/values`);
    expect(jobs.statusCode, jobs.body).toBe(200);
    expect(jobs.json()).toEqual({ status: "success", data: ["fedpeer0"] });
    const channels = await b.api(
      "GET",
      `/metrics/connection/${a.id.nodeId}/label/channel/values?match=${encodeURIComponent('{job="fedforeign0"}')}`,
    );
    expect(channels.json().data).toEqual(["alpha"]);
    const bad = await query(a.id.nodeId, "rate(up[5m]");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(new RegExp(`the console ${a.id.nodeId} answered: query: `));
  });

  it("refuses again once A withdraws the grant, and refuses a revoked connection", async () => {
    expect((await grant(false)).statusCode).toBe(200);
    expect((await query(a.id.nodeId, "up")).statusCode).toBe(403);
    expect(await grantedToB()).toBe(false);
    expect((await grant(true)).statusCode).toBe(200);
    expect((await b.api("DELETE", `/node/connected-peers/${a.id.nodeId}`)).statusCode).toBe(200);
    const revoked = await query(a.id.nodeId, "up");
    expect(revoked.statusCode).toBe(409);
    expect(revoked.json().message).toMatch(/revoked/);
    await waitFor(
      "A marks B revoked",
      async () =>
        ((await a.api("GET", "/node/connected-peers")).json().connected_peers as Json[]).find(
          (p) => p.status === "revoked",
        ),
      10_000,
    );
    const peers = (await a.api("GET", "/node/connected-peers")).json().connected_peers as Json[];
    expect(peers[0]?.metrics_federation).toBe(false);
    expect((await grant(true)).statusCode).toBe(409);
  });
});
