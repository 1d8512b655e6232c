import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fabricApi, haveFabricBinaries, type Json } from "../../test-support/fabric-api.js";
import { releasePorts, reservePorts } from "../../test-support/ports.js";
import { createUser, dialects, insertNodeRow } from "../../test-support/test-app.js";

const haveFabric = await haveFabricBinaries("monitoring: checks of a real Fabric peer");

/**
 * Stands in for a node's operations endpoint the way fabric-node.probe.test.ts does: GET /healthz
 * answers 200 {"status":"OK"}, or Fabric's 503 with failed_checks while `sick` is set.
 */
async function healthzServer(port: number): Promise<{ server: Server; sick: boolean; url: string }> {
  const s = { server: createServer(), sick: false, url: `http://127.0.0.1:${port}/healthz` };
  s.server.on("request", (_req, res) => {
    res.setHeader("content-type", "application/json");
    if (s.sick) {
      res.statusCode = 503;
      res.end(JSON.stringify({ status: "Service Unavailable", failed_checks: [{ component: "ledger", reason: "x" }] }));
    } else {
      res.end(JSON.stringify({ status: "OK", time: new Date().toISOString() }));
    }
  });
  s.server.listen(port, "127.0.0.1");
  await once(s.server, "listening");
  return s;
}

/** Upstream's monitoring calls on the nodes' real health probes, on SQLite and PostgreSQL. */
describe.each(dialects())("monitoring on %s", (dialect) => {
  let c: Awaited<ReturnType<typeof fabricApi>>;
  let port: number;
  let up: Awaited<ReturnType<typeof healthzServer>>;
  let sick: Awaited<ReturnType<typeof healthzServer>>;
  const ids = { up: 0, sick: 0, down: 0 };

  beforeAll(async () => {
    c = await fabricApi({ dialect, portCount: 10 });
    port = await reservePorts(3);
    up = await healthzServer(port);
    sick = await healthzServer(port + 1);
    sick.sick = true;
    // port + 2: reserved, so nothing else takes it, and nothing listens there: a node that is down.
    const row = async (name: string, healthUrl: string) =>
      (await insertNodeRow(c.t, { name, nodeType: "FABRIC_PEER", deployment: { healthUrl } })).id;
    ids.up = await row("mon-up", up.url);
    ids.sick = await row("mon-sick", sick.url);
    ids.down = await row("mon-down", `http://127.0.0.1:${port + 2}/healthz`);
  });
  afterAll(async () => {
    for (const s of [up, sick]) s?.server.close();
    if (port) releasePorts(port, 3);
    await c?.close();
  });

  const get = (url: string, headers: Record<string, string> = c.t.admin) =>
    c.t.app.inject({ method: "GET", url: `/api/v1/monitoring${url}`, headers });
  /** As upstream's Go client sends a body-less POST: Content-Type: application/json and no body. */
  const post = (url: string, headers: Record<string, string> = c.t.admin) =>
    c.t.app.inject({
      method: "POST",
      url: `/api/v1/monitoring${url}`,
      headers: { ...headers, "content-type": "application/json", "content-length": "0" },
    });
  const check = async (id: number): Promise<Json> => {
    const res = await post(`/nodes/${id}/check`);
    expect(res.statusCode, res.body).toBe(200);
    // Upstream's clients decode a map of strings.
    for (const [k, v] of Object.entries(res.json() as object)) expect(typeof v, k).toBe("string");
    return res.json();
  };

  it("checks a node now: healthy, unhealthy (503) and down (nothing listens) each as they are", async () => {
    expect(await check(ids.up)).toMatchObject({
      nodeId: String(ids.up),
      status: "healthy",
      message: `Node ${ids.up} is healthy`,
    });
    expect(await check(ids.sick)).toMatchObject({ status: "unhealthy", errorMessage: "HTTP 503" });
    const down = await check(ids.down);
    expect(down).toMatchObject({ status: "unreachable", message: `Node ${ids.down} is unreachable` });
    expect(down.errorMessage).toMatch(/ECONNREFUSED/);

    const res = await get(`/nodes/${ids.sick}/health`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      nodeId: ids.sick,
      nodeName: "mon-sick",
      platform: "FABRIC",
      endpoint: sick.url,
      status: "unhealthy",
      errorMessage: "HTTP 503",
      metadata: { httpStatus: 503, body: { status: "Service Unavailable" } },
    });
    expect(typeof res.json().responseTimeMs).toBe("number");
    expect((await get(`/nodes/${ids.down}/health`)).json()).toMatchObject({ status: "unreachable" });
  });

  it("probes again on every check, not the stored result: a node that recovers or goes down is seen at once", async () => {
    sick.sick = false;
    expect((await check(ids.sick)).status).toBe("healthy");
    expect((await get(`/nodes/${ids.sick}/health`)).json().status).toBe("healthy");
    up.sick = true;
    expect((await check(ids.up)).status).toBe("unhealthy");
    up.sick = false;
    expect((await check(ids.up)).status).toBe("healthy");
    sick.sick = true;
    expect((await check(ids.sick)).status).toBe("unhealthy");
  });

  it("checks every monitored node at once, and ping answers the latest of each with counts", async () => {
    // Stored now: sick unhealthy. It recovers; only a real probe of every node can tell.
    sick.sick = false;
    const res = await post("/health/check-all");
    expect(res.statusCode, res.body).toBe(200);
    const all = res.json() as Record<string, string>;
    for (const [k, v] of Object.entries(all)) expect(typeof v, k).toBe("string");

    const ping = await get("/health/ping");
    expect(ping.statusCode).toBe(200);
    const p = ping.json() as Json;
    const of = (id: number): Json => p.nodes.find((n: Json) => n.nodeId === id);
    expect(of(ids.up)).toMatchObject({ status: "healthy", nodeName: "mon-up" });
    expect(of(ids.sick)).toMatchObject({ status: "healthy" });
    expect(of(ids.down)).toMatchObject({ status: "unreachable", nodeName: "mon-down" });
    expect(p.total).toBe(p.nodes.length);
    expect(p.healthy + p.unhealthy + p.unreachable).toBe(p.total);
    expect(p.status).toBe("degraded");
    expect(all).toEqual({
      message: `Checked ${p.total} nodes: ${p.healthy} healthy, ${p.unhealthy} unhealthy, ${p.unreachable} unreachable`,
      checked: String(p.total),
      healthy: String(p.healthy),
      unhealthy: String(p.unhealthy),
      unreachable: String(p.unreachable),
    });
    // The down node is the one not healthy among ours.
    expect(p.unreachable).toBeGreaterThanOrEqual(1);
  });

  it.skipIf(!haveFabric)(
    "sees a real peer healthy while it runs and unreachable once it is stopped",
    { timeout: 120_000 },
    async () => {
      const org = await c.ok("POST", "/organizations", { mspId: `Mon${dialect}MSP`, name: `Monitoring ${dialect}` });
      const [peer] = (await c.createNodes(org, 1, 0, "mon-")) as [Json];
      const running = await check(peer.id);
      expect(running, JSON.stringify(running)).toMatchObject({ status: "healthy" });
      const health = (await get(`/nodes/${peer.id}/health`)).json();
      expect(health).toMatchObject({
        nodeId: peer.id,
        nodeName: peer.name,
        status: "healthy",
        metadata: { httpStatus: 200, body: { status: "OK" } },
      });
      expect(health.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/healthz$/);
      await post("/health/check-all");
      const listed = ((await get("/health/ping")).json().nodes as Json[]).find((n) => n.nodeId === peer.id);
      expect(listed).toMatchObject({ status: "healthy" });

      await c.stopNodes([peer]);
      const stopped = await check(peer.id);
      expect(stopped).toMatchObject({ status: "unreachable" });
      expect(stopped.errorMessage).toMatch(/ECONNREFUSED/);
      expect((await get(`/nodes/${peer.id}/health`)).json()).toMatchObject({ status: "unreachable" });
      // A stopped node is no longer monitored: ping and check-all leave it out.
      expect(((await get("/health/ping")).json().nodes as Json[]).map((n) => n.nodeId)).not.toContain(peer.id);
    },
  );

  it.each([
    ["abc", 400],
    ["0", 400],
    [String(2 ** 31), 400],
    ["999999", 404],
  ])("answers node id %s with %i (naming the id when malformed)", async (id, status) => {
    for (const res of [await get(`/nodes/${id}/health`), await post(`/nodes/${id}/check`)]) {
      expect(res.statusCode, res.body).toBe(status);
      if (status === 400) expect(res.json().message).toMatch(/^params\.id/);
      else expect(res.json()).toMatchObject({ error: "NOT_FOUND" });
    }
  });

  it("lets viewers read but not trigger checks, managers trigger them, and refuses anonymous callers", async () => {
    const viewer = await createUser(c.t, `mon-viewer-${dialect}`, "viewer");
    const manager = await createUser(c.t, `mon-manager-${dialect}`, "manager");
    expect((await get("/health/ping", viewer)).statusCode).toBe(200);
    expect((await get(`/nodes/${ids.up}/health`, viewer)).statusCode).toBe(200);
    for (const url of ["/health/check-all", `/nodes/${ids.up}/check`]) {
      expect((await post(url, viewer)).statusCode, url).toBe(403);
      expect((await post(url, manager)).statusCode, url).toBe(200);
      expect((await post(url, {})).statusCode, url).toBe(401);
    }
    for (const url of ["/health/ping", `/nodes/${ids.up}/health`]) expect((await get(url, {})).statusCode).toBe(401);
  });

  it("audits the checks with the node and what was found", async () => {
    await check(ids.down);
    const audit = async (type: string): Promise<Json[]> =>
      (
        await c.t.app.inject({
          method: "GET",
          url: `/api/v1/audit/logs?event_type=${type}&page_size=100`,
          headers: c.t.admin,
        })
      ).json().items;
    const one = (await audit("node.health_check")).find((e) => e.affectedResource === `node:${ids.down}`);
    expect(one).toMatchObject({ eventOutcome: "SUCCESS", details: { status: "unreachable" } });
    const all = (await audit("node.health_check_all")).filter((e) => e.eventOutcome === "SUCCESS");
    expect(all.length).toBeGreaterThanOrEqual(1);
    expect(all[0].details).toMatchObject({ checked: expect.any(Number), unreachable: expect.any(Number) });
    // A refused viewer's attempt is recorded as denied, not as a check.
    const denied = (await audit("permission.denied")).some((e) => String(e.details?.path ?? "").includes("/check"));
    expect(denied).toBe(true);
  });
});
