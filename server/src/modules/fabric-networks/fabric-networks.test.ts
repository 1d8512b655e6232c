import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFabricBinaryResolver } from "../../runtime/index.js";
import { reservePorts } from "../../test-support/ports.js";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";

const FABRIC = process.env.CHAINLAUNCH_E2E_FABRIC_VERSION ?? "3.1.0";
const haveFabric = !!(await createFabricBinaryResolver({ downloader: null }).findLocal(FABRIC, ["peer", "orderer"]));
if (!haveFabric) console.warn(`fabric networks tests: cases with stopped nodes skipped; no Fabric ${FABRIC} binaries`);

describe.each(dialects())("Fabric networks on %s", (dialect) => {
  let t: TestApp;
  let org: { id: number; mspId: string };
  /** First of the ports this dialect's stopped nodes are created with. */
  let base: number;
  const inject = (method: "GET" | "POST" | "DELETE", url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: t.admin, ...(payload ? { payload } : {}) });
  const create = (name: string, config: object) => inject("POST", "/networks/fabric", { name, config });
  const total = async () => (await inject("GET", "/networks/fabric")).json().total as number;

  beforeAll(async () => {
    base = await reservePorts(10);
    t = await createTestApp(dialect);
    const res = await inject("POST", "/organizations", { mspId: "FabNetOrgMSP", name: "FabNet" });
    expect(res.statusCode, res.body).toBe(201);
    org = res.json();
  });
  afterAll(async () => t.close());

  it("answers named 400s for bad input and leaves nothing behind", async () => {
    const cases: [string, object, RegExp][] = [
      ["Bad_Channel", { ordererOrganizations: [{ id: org.id, nodeIds: [] }] }, /^name: .*invalid/],
      ["ok1", { ordererOrganizations: [] }, /ordererOrganizations/],
      [
        "ok2",
        { ordererOrganizations: [{ id: 9999, nodeIds: [] }] },
        /config\.ordererOrganizations\[0\]\.id: organization 9999 not found/,
      ],
      ["ok3", { ordererOrganizations: [{ id: org.id, nodeIds: [4242] }] }, /nodeIds\[0\]: node 4242 not found/],
      ["ok4", { ordererOrganizations: [{ id: org.id, nodeIds: [] }] }, /at least one orderer node/],
      [
        "ok5",
        { ordererOrganizations: [{ id: org.id, nodeIds: [] }], smartBFTConsenters: [{ id: 1 }] },
        /smartBFTConsenters/,
      ],
    ];
    for (const [name, config, msg] of cases) {
      const res = await create(name, config);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(400);
      expect(res.json().message).toMatch(msg);
    }
    expect(await total()).toBe(0);
    expect((await inject("GET", "/networks/fabric/77")).statusCode).toBe(404);
    expect((await inject("POST", "/networks/fabric/77/peers/1/join")).statusCode).toBe(404);
  });

  it.skipIf(!haveFabric)("refuses consenters that are not running and peers listed as orderers", async () => {
    const node = async (name: string, kind: "fabricPeer" | "fabricOrderer", off: number) => {
      const res = await inject("POST", "/nodes?start=false", {
        name,
        blockchainPlatform: "FABRIC",
        [kind]: {
          organizationId: org.id,
          mspId: org.mspId,
          version: FABRIC,
          listenAddress: `127.0.0.1:${base + off}`,
          ...(kind === "fabricPeer"
            ? { chaincodeAddress: `127.0.0.1:${base + off + 1}` }
            : { adminAddress: `127.0.0.1:${base + off + 1}` }),
          operationsListenAddress: `127.0.0.1:${base + off + 2}`,
          externalEndpoint: `127.0.0.1:${base + off}`,
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: number };
    };
    const orderer = await node(`fn-orderer-${dialect}`, "fabricOrderer", 0);
    const peer = await node(`fn-peer-${dialect}`, "fabricPeer", 3);
    const stopped = await create("stopped", { ordererOrganizations: [{ id: org.id, nodeIds: [orderer.id] }] });
    expect(stopped.statusCode).toBe(400);
    expect(stopped.json().message).toMatch(/nodeIds\[0\]: orderer 'fn-orderer-.*' is (STOPPED|PENDING).*RUNNING/);
    const wrong = await create("wrong", { ordererOrganizations: [{ id: org.id, nodeIds: [peer.id] }] });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/is a peer, not a orderer/);
    expect(await total()).toBe(0);
  });

  it("answers named 400s for bad import input, and 502 naming an unreachable orderer", async () => {
    const pem = (await inject("GET", `/organizations/${org.id}`)).json().tlsCertificate as string;
    const good = {
      channelId: "imported",
      ordererUrl: "127.0.0.1:1",
      ordererTlsCert: pem,
      organizationId: org.id,
    };
    const cases: [string, object, RegExp][] = [
      ["/import", { genesisFile: "" }, /^genesisFile: is empty/],
      ["/import", { genesisFile: "%%% not base64" }, /^genesisFile: expected the base64 of a block/],
      ["/import", { genesisFile: Buffer.from("hello world").toString("base64") }, /^genesisFile: /],
      ["/import?fieldValidation=Strict", { genesisFile: "AAAA", extra: 1 }, /extra/],
      ["/import-with-org", { ...good, channelId: "Bad_Name" }, /^channelId: /],
      ["/import-with-org", { ...good, ordererUrl: "orderer.example.com" }, /^ordererUrl: expected host:port/],
      ["/import-with-org", { ...good, ordererUrl: "grpc://o:7050" }, /^ordererUrl: 'grpc:\/\/' is not supported/],
      ["/import-with-org", { ...good, ordererUrl: "o:70500" }, /^ordererUrl: port/],
      ["/import-with-org", { ...good, ordererTlsCert: "nope" }, /^ordererTlsCert: expected a PEM certificate/],
      [
        "/import-with-org",
        { ...good, ordererTlsCert: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n" },
        /^ordererTlsCert: not a valid certificate/,
      ],
      ["/import-with-org", { ...good, organizationId: 9999 }, /^organizationId: organization 9999 not found/],
    ];
    for (const [path, body, msg] of cases) {
      const res = await inject("POST", `/networks/fabric${path}`, body);
      expect(res.statusCode, `${path} ${JSON.stringify(body)}: ${res.body}`).toBe(400);
      expect(res.json().message).toMatch(msg);
    }
    const unreachable = await inject("POST", "/networks/fabric/import-with-org", good);
    expect(unreachable.statusCode, unreachable.body).toBe(502);
    expect(unreachable.json().message).toMatch(/orderer 127\.0\.0\.1:1/);
    expect(await total()).toBe(0);
  });

  it("enforces NETWORK_* permissions", async () => {
    const viewer = await createUser(t, `fabnet-viewer-${dialect}`, "viewer");
    expect((await t.app.inject({ method: "GET", url: "/api/v1/networks/fabric", headers: viewer })).statusCode).toBe(
      200,
    );
    const denied = await t.app.inject({
      method: "POST",
      url: "/api/v1/networks/fabric",
      headers: viewer,
      payload: { name: "x", config: { ordererOrganizations: [{ id: org.id, nodeIds: [] }] } },
    });
    expect(denied.statusCode).toBe(403);
  });
});
