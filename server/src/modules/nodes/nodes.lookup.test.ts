import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDockerHost } from "../../test-support/docker.js";
import { fabricApi, fabricNodeSpec, haveFabricBinaries, type Json } from "../../test-support/fabric-api.js";
import { createTestApp, createUser, dialects, insertNodeRow } from "../../test-support/test-app.js";

const haveFabric = await haveFabricBinaries("nodes lookup: a peer created through the API");
const dockerHost = testDockerHost("deployment modes with an engine that answers");
/** An engine that can't answer: a socket path nothing listens on. */
const DEAD_ENGINE = "unix:///nonexistent/chainlaunch-test/docker.sock";

/** GET /nodes/slug/{slug} (getNodeBySlug) and GET /nodes/deployment-modes (getAvailableDeploymentModes). */
describe.each(dialects())("nodes by slug and deployment modes on %s", (dialect) => {
  let c: Awaited<ReturnType<typeof fabricApi>>;
  beforeAll(async () => {
    c = await fabricApi({ dialect, portCount: 10, env: { CHAINLAUNCH_DOCKER_HOST: DEAD_ENGINE } });
  });
  afterAll(async () => c?.close());

  const get = (url: string, headers: Record<string, string> = c.t.admin) =>
    c.t.app.inject({ method: "GET", url: `/api/v1${url}`, headers });

  it.skipIf(!haveFabric)("finds a peer created through the API by its slug, as GET /nodes/{id} shows it", async () => {
    const org = await c.ok("POST", "/organizations", { mspId: "LookupOrgMSP", name: "Lookup org" });
    const d: Json = await c.ok("GET", "/nodes/defaults/fabric-peer");
    const node: Json = await c.ok("POST", "/nodes?start=false", fabricNodeSpec(org, "peer", d, "Peer0 Lookup"));
    const res = await get("/nodes/slug/peer0-lookup");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual((await get(`/nodes/${node.id}`)).json());
    expect(res.json()).toMatchObject({ id: node.id, name: "Peer0 Lookup", fabricPeer: { mspId: "LookupOrgMSP" } });
    // Slugs are compared exactly, as they are stored.
    expect((await get("/nodes/slug/PEER0-LOOKUP")).statusCode).toBe(404);
  });

  it("finds any stored node by slug, and answers 404 naming the slug when none has it", async () => {
    const row = await insertNodeRow(c.t, { name: "besu-lookup-row", nodeType: "BESU_FULLNODE", deployment: {} });
    const res = await get(`/nodes/slug/${row.slug}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual((await get(`/nodes/${row.id}`)).json());
    const missing = await get("/nodes/slug/no-such-node");
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: "NOT_FOUND", message: "node with slug 'no-such-node' not found" });
  });

  it.each([
    ["a leading dash", "-peer0"],
    ["a space", "peer%200"],
    ["a symbol", "peer%240"],
    ["81 characters", "p".repeat(81)],
  ])("refuses a malformed slug (%s) with a 400 naming it", async (_label, slug) => {
    const res = await get(`/nodes/slug/${slug}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^params\.slug/);
  });

  it("answers service and docker, docker unavailable (saying why) when the engine does not answer", async () => {
    const res = await get("/nodes/deployment-modes");
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { modes: Json[]; runningInDocker: unknown };
    expect(Object.keys(body).sort()).toEqual(["modes", "runningInDocker"]);
    expect(typeof body.runningInDocker).toBe("boolean");
    expect(body.modes.map((m) => m.mode)).toEqual(["service", "docker"]);
    for (const m of body.modes) expect(Object.keys(m).sort()).toEqual(["available", "description", "mode"]);
    expect(body.modes[0]).toMatchObject({ available: true });
    expect(body.modes[1].available).toBe(false);
    expect(body.modes[1].description).toContain("/nonexistent/chainlaunch-test/docker.sock");
    expect(body.modes[1].description).toMatch(/does not answer/);
  });

  it.skipIf(!dockerHost)("answers docker available when the console's engine answers", async () => {
    const t = await createTestApp(dialect, { CHAINLAUNCH_DOCKER_HOST: dockerHost! });
    try {
      const res = await t.app.inject({ method: "GET", url: "/api/v1/nodes/deployment-modes", headers: t.admin });
      expect(res.statusCode).toBe(200);
      expect(res.json().modes).toEqual([
        expect.objectContaining({ mode: "service", available: true }),
        expect.objectContaining({ mode: "docker", available: true }),
      ]);
      expect(res.json().modes[1].description).not.toMatch(/unavailable/);
    } finally {
      await t.close();
    }
  });

  it("lets viewers read both and refuses anonymous callers", async () => {
    const viewer = await createUser(c.t, `lookup-viewer-${dialect}`, "viewer");
    expect((await get("/nodes/slug/no-such-node", viewer)).statusCode).toBe(404);
    expect((await get("/nodes/slug/besu-lookup-row", viewer)).statusCode).toBe(200);
    expect((await get("/nodes/deployment-modes", viewer)).statusCode).toBe(200);
    expect((await get("/nodes/slug/besu-lookup-row", {})).statusCode).toBe(401);
    expect((await get("/nodes/deployment-modes", {})).statusCode).toBe(401);
  });
});
