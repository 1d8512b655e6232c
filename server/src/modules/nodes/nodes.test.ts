import { once } from "node:events";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { hostLanAddress } from "./nodes.defaults.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enodeUrl } from "../../besu/index.js";
import { createFabricBinaryResolver } from "../../runtime/index.js";
import { reservePorts } from "../../test-support/ports.js";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";

// createTestApp sets CHAINLAUNCH_FABRIC_DOWNLOAD=0: "a version with no binary" must answer at once.
const FABRIC = process.env.CHAINLAUNCH_E2E_FABRIC_VERSION ?? "3.1.0";
const haveFabric = !!(await createFabricBinaryResolver({ downloader: null }).findLocal(FABRIC, ["peer", "orderer"]));
if (!haveFabric) {
  console.warn(
    `nodes tests: creations that need Fabric ${FABRIC} binaries are skipped; run scripts/fabric-build.sh ${FABRIC}`,
  );
}

function listen(port = 0): Promise<Server> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen({ port, host: "0.0.0.0" }, () => resolve(s));
  });
}

async function waitFor<T>(fn: () => Promise<T | undefined>, ms: number): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * 60 reserved ports per dialect: the first 20 for the addresses the tests name, the other 40 the
 * console's port range for its proposals (so no proposal falls outside the test port pool).
 */
const PORTS = await reservePorts(120);

describe.each(dialects())("nodes on %s", (dialect) => {
  let t: TestApp;
  let org: { id: number; mspId: string };
  const base = PORTS + (dialect === "postgres" ? 60 : 0);
  const proposals = { portRangeStart: base + 20, portRangeEnd: base + 59 };
  const inject = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: t.admin, ...(payload ? { payload } : {}) });
  const peer = (name: string, over: Record<string, unknown> = {}) => ({
    name,
    blockchainPlatform: "FABRIC",
    fabricPeer: {
      organizationId: org.id,
      mspId: org.mspId,
      listenAddress: `127.0.0.1:${base}`,
      chaincodeAddress: `127.0.0.1:${base + 1}`,
      operationsListenAddress: `127.0.0.1:${base + 2}`,
      externalEndpoint: `peer0.example.com:${base}`,
      domainNames: ["peer0.internal", "10.1.2.3"],
      version: FABRIC,
      ...over,
    },
  });
  const counts = async () => ({
    nodes: (await inject("GET", "/nodes")).json().total as number,
    keys: (await inject("GET", "/keys?limit=1000")).json().totalItems as number,
    dirs: existsSync(join(t.config.dataDir, "nodes")) ? readdirSync(join(t.config.dataDir, "nodes")).length : 0,
  });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const current = (await inject("GET", "/settings")).json().config;
    const set = await inject("POST", "/settings", { config: { ...current, ...proposals } });
    expect(set.statusCode, set.body).toBeLessThan(300);
    const res = await inject("POST", "/organizations", { mspId: "NodesOrgMSP", name: "Nodes org" });
    expect(res.statusCode, res.body).toBe(201);
    org = res.json();
  });
  afterAll(async () => t.close());

  it("proposes distinct free ports, skipping busy ones", async () => {
    const p = (await inject("GET", "/nodes/defaults/fabric-peer")).json();
    const ports = [p.listenAddress, p.chaincodeAddress, p.operationsListenAddress].map((a: string) =>
      Number(a.split(":")[1]),
    );
    expect(new Set(ports).size).toBe(3);
    expect(p).toMatchObject({ mode: "service", externalEndpoint: `127.0.0.1:${ports[0]}` });
    const busy = await listen(ports[0]);
    try {
      const again = (await inject("GET", "/nodes/defaults/fabric-peer")).json();
      expect(again.listenAddress).not.toBe(p.listenAddress);
    } finally {
      busy.close();
    }
    const many = (await inject("GET", "/nodes/defaults/fabric?peerCount=2&ordererCount=3")).json();
    expect(many.peers).toHaveLength(2);
    expect(many.orderers).toHaveLength(3);
    const all = [...many.peers, ...many.orderers].flatMap((d: Record<string, string>) =>
      [d.listenAddress, d.chaincodeAddress, d.adminAddress, d.operationsListenAddress].filter(Boolean),
    );
    expect(new Set(all).size).toBe(all.length);
    expect(many.orderers[0].adminAddress).toMatch(/^0\.0\.0\.0:\d+$/);
    expect(many.peers[0].mode).toBe("service");
    // Container nodes can't advertise 127.0.0.1 (inside a container that is the container).
    const docked = (await inject("GET", "/nodes/defaults/fabric?peerCount=1&ordererCount=0&mode=docker")).json();
    expect(docked.peers[0].mode).toBe("docker");
    const lan = hostLanAddress();
    if (lan) expect(docked.peers[0].externalEndpoint).toMatch(new RegExp(`^${lan.replace(/\./g, "\\.")}:\\d+$`));
    const besu = (await inject("GET", "/nodes/defaults/besu-node?besuNodes=2")).json();
    expect(besu.nodeCount).toBe(2);
    expect(besu.defaults[0].p2pPort).not.toBe(besu.defaults[1].p2pPort);
  });

  it("keeps proposals inside the port range of the settings", async () => {
    const current = (await inject("GET", "/settings")).json().config;
    // The last 10 of the console's range only.
    const from = proposals.portRangeEnd - 9;
    await inject("POST", "/settings", { config: { ...current, portRangeStart: from, portRangeEnd: from + 9 } });
    try {
      const peer = (await inject("GET", "/nodes/defaults/fabric-peer")).json();
      const besu = (await inject("GET", "/nodes/defaults/besu-node?besuNodes=1")).json().defaults[0];
      const ports = [
        ...[peer.listenAddress, peer.chaincodeAddress, peer.operationsListenAddress].map((a: string) =>
          Number(a.split(":")[1]),
        ),
        besu.p2pPort,
        besu.rpcPort,
        besu.metricsPort,
      ];
      for (const port of ports) expect(port >= from && port <= from + 9, String(port)).toBe(true);
    } finally {
      await inject("POST", "/settings", { config: current });
    }
  });

  it.each([
    [
      "an unknown organization",
      { organizationId: 999999 },
      /^fabricPeer\.organizationId: organization 999999 not found/,
    ],
    [
      "an mspId that is not the organization's",
      { mspId: "OtherMSP" },
      /^fabricPeer\.mspId: 'OtherMSP' is not the MSP id/,
    ],
    [
      "an invalid endpoint",
      { externalEndpoint: "no-port-here" },
      /^fabricPeer\.externalEndpoint: "no-port-here" is not host:port/,
    ],
    ["an invalid listen port", { listenAddress: "0.0.0.0:70000" }, /^fabricPeer\.listenAddress: /],
    ["the same port twice", { chaincodeAddress: `127.0.0.1:${0}` }, /^fabricPeer\.chaincodeAddress: /],
    [
      "a version with no binary",
      { version: "2.5.16" },
      /^fabricPeer\.version: no Fabric 2\.5\.16 binaries .*scripts\/fabric-build\.sh 2\.5\.16/,
    ],
    ["an unsupported version", { version: "1.4.0" }, /^fabricPeer\.version: Fabric 1\.4\.0 is not supported/],
  ])("rejects %s with a named 400 and creates nothing", async (_l, over, message) => {
    const before = await counts();
    const fixed = "chaincodeAddress" in over ? { chaincodeAddress: `127.0.0.1:${base}` } : over;
    const res = await inject("POST", "/nodes?start=false", peer("bad-peer", fixed));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(message);
    expect(await counts()).toEqual(before);
  });

  it("rejects a port another program listens on, naming the field", async () => {
    const busy = await listen(base + 2);
    try {
      const res = await inject("POST", "/nodes?start=false", peer("busy-peer"));
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(
        new RegExp(`^fabricPeer\\.operationsListenAddress: port ${base + 2} is in use on this machine`),
      );
    } finally {
      busy.close();
    }
  });

  it("requires exactly the platform's config", async () => {
    const res = await inject("POST", "/nodes", {
      name: "x",
      blockchainPlatform: "BESU",
      fabricPeer: peer("x").fabricPeer,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^besuNode: /);
  });

  it.skipIf(!haveFabric)(
    "creates a peer's MSP, TLS and core.yaml from the org CAs, guards its keys and ports, and deletes it all",
    async () => {
      const before = await counts();
      const res = await inject("POST", "/nodes?start=false", peer("peer0 nodes"));
      expect(res.statusCode, res.body).toBe(201);
      const node = res.json();
      expect(node).toMatchObject({
        name: "peer0 nodes",
        platform: "FABRIC",
        nodeType: "FABRIC_PEER",
        status: "PENDING",
        endpoint: `peer0.example.com:${base}`,
        fabricPeer: { mspId: "NodesOrgMSP", version: FABRIC, chaincodeAddress: `127.0.0.1:${base + 1}` },
      });
      const dir = join(t.config.dataDir, "nodes", "peer0-nodes");
      for (const f of [
        "msp/config.yaml",
        "msp/signcerts/cert.pem",
        "msp/keystore/key.pem",
        "tls/server.crt",
        "config/core.yaml",
      ])
        expect(existsSync(join(dir, f)), f).toBe(true);
      const core = readFileSync(join(dir, "config/core.yaml"), "utf8");
      expect(core).toContain(`127.0.0.1:${base + 1}`);
      const { X509Certificate } = await import("node:crypto");
      const tls = new X509Certificate(node.fabricPeer.tlsCert);
      expect(tls.subjectAltName).toContain("DNS:localhost");
      expect(tls.subjectAltName).toContain("DNS:peer0.example.com");
      expect(tls.subjectAltName).toContain("DNS:peer0.internal");
      expect(tls.subjectAltName).toContain("IP Address:127.0.0.1");
      expect(tls.subjectAltName).toContain("IP Address:10.1.2.3");
      expect(tls.checkIssued(new X509Certificate(node.fabricPeer.tlsCaCert))).toBe(true);
      expect(new X509Certificate(node.fabricPeer.signCert).subject).toContain("OU=peer");

      const clash = await inject(
        "POST",
        "/nodes?start=false",
        peer("peer1 nodes", {
          chaincodeAddress: `127.0.0.1:${base + 5}`,
          operationsListenAddress: `127.0.0.1:${base + 6}`,
        }),
      );
      expect(clash.statusCode).toBe(400);
      expect(clash.json().message).toBe(`fabricPeer.listenAddress: port ${base} is already used by node 'peer0 nodes'`);

      const delOrg = await inject("DELETE", `/organizations/${org.id}`);
      expect(delOrg.statusCode).toBe(409);
      expect(delOrg.json().message).toMatch(/^id: organization 'NodesOrgMSP' is still used by node 'peer0 nodes'/);

      const delKey = await inject("DELETE", `/keys/${node.fabricPeer.signKeyId}`);
      expect(delKey.statusCode).toBe(409);
      expect(delKey.json().message).toMatch(/node 'peer0 nodes'/);

      const viewer = await createUser(t, `nodes-viewer-${dialect}`, "viewer");
      const list = await t.app.inject({
        method: "GET",
        url: "/api/v1/nodes?platform=FABRIC&name=nodes",
        headers: viewer,
      });
      expect(list.json()).toMatchObject({ total: 1, page: 1, pageCount: 1, hasNextPage: false });
      expect((await inject("GET", "/nodes/platform/BESU")).json().total).toBe(0);
      const events = (await inject("GET", `/nodes/${node.id}/events`)).json();
      expect(events.items[0]).toMatchObject({ type: "created", node_id: node.id });
      const health = await t.app.inject({ method: "GET", url: `/api/v1/nodes/${node.id}/health` });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toMatchObject({ nodeId: node.id, status: "unreachable" });
      // Without credentials: status only, no name, platform, URL or error text.
      expect(Object.keys(health.json()).sort()).toEqual(["lastChecked", "nodeId", "responseTimeMs", "status"]);
      const signedIn = await inject("GET", `/nodes/${node.id}/health`);
      expect(signedIn.json()).toMatchObject({ nodeName: node.name, platform: "FABRIC" });
      expect(signedIn.json().endpoint).toBeTruthy();
      const history = await t.app.inject({ method: "GET", url: `/api/v1/nodes/${node.id}/health/history` });
      expect(history.statusCode).toBe(200);
      expect(history.json().nodeName).toBeUndefined();

      const renewed = (await inject("POST", `/nodes/${node.id}/certificates/renew`)).json();
      expect(renewed.fabricPeer.tlsCert).not.toBe(node.fabricPeer.tlsCert);
      const updated = await inject("PUT", `/nodes/${node.id}`, {
        fabricPeer: { domainNames: ["renamed.internal"], eventsAddress: "0.0.0.0:7053" },
      });
      expect(updated.statusCode, updated.body).toBe(200);
      // Stored and echoed, as upstream's provider reads it back (nothing listens there).
      expect(updated.json().fabricPeer.eventsAddress).toBe("0.0.0.0:7053");
      expect(new X509Certificate(updated.json().fabricPeer.tlsCert).subjectAltName).toContain("DNS:renamed.internal");

      // Editing a running node: its own ports are busy because it runs (held here by listeners, as the
      // peer process would), which is not a clash; another process's port still is.
      const own = [base, base + 1, base + 2].map((port) => {
        const srv = createServer();
        srv.listen(port, "127.0.0.1");
        return srv;
      });
      try {
        await Promise.all(own.map((srv) => once(srv, "listening")));
        const edited = await inject("PUT", `/nodes/${node.id}`, { fabricPeer: { env: { CORE_X: "1" } } });
        expect(edited.statusCode, edited.body).toBe(200);
      } finally {
        own.forEach((srv) => srv.close());
      }

      // A client that echoes the read shape back (the Terraform provider does): the fields the
      // reference knows are accepted without warnings; the rest of the read shape is dropped with one.
      const read = (await inject("GET", `/nodes/${node.id}`)).json();
      const echo = {
        ...read.fabricPeer,
        organizationId: read.fabricPeer.organizationId ?? node.nodeConfig?.organizationId,
        mspId: read.fabricPeer.mspId,
        name: read.name,
        type: "fabric-peer",
        certificateExpiration: 365,
        autoRenewalEnabled: true,
        autoRenewalDays: 30,
      };
      const echoed = await inject("PUT", `/nodes/${node.id}`, { name: read.name, fabricPeer: echo });
      expect(echoed.statusCode, echoed.body).toBe(200);
      const warnings = [echoed.headers.warning ?? []].flat().join("\n");
      for (const f of [
        "organizationId",
        "mspId",
        "name",
        "type",
        "certificateExpiration",
        "autoRenewalEnabled",
        "autoRenewalDays",
      ]) {
        expect(warnings).not.toContain(`body.fabricPeer.${f}\\"`);
      }
      const strict = await t.app.inject({
        method: "PUT",
        url: `/api/v1/nodes/${node.id}?fieldValidation=Strict`,
        headers: t.admin,
        payload: {
          fabricPeer: {
            organizationId: echo.organizationId,
            mspId: echo.mspId,
            type: "fabric-peer",
            autoRenewalDays: 30,
          },
        },
      });
      expect(strict.statusCode, strict.body).toBe(200);
      const moved = await inject("PUT", `/nodes/${node.id}`, {
        fabricPeer: { organizationId: echo.organizationId + 1000 },
      });
      expect(moved.statusCode).toBe(400);
      expect(moved.json().message).toMatch(/^fabricPeer\.organizationId: /);

      expect((await inject("DELETE", `/nodes/${node.id}`)).statusCode).toBe(204);
      expect(existsSync(dir)).toBe(false);
      expect(await counts()).toEqual(before);
      expect((await inject("GET", `/nodes/${node.id}`)).statusCode).toBe(404);
      // Its ports are free again.
      const again = await inject("POST", "/nodes?start=false", peer("peer0 again"));
      expect(again.statusCode, again.body).toBe(201);
      expect((await inject("DELETE", `/nodes/${again.json().id}`)).statusCode).toBe(204);
    },
  );

  describe("Besu", () => {
    let net: { id: number };
    let secp: { id: number; publicKey: string };
    beforeAll(async () => {
      secp = (await inject("POST", "/keys", { name: "besu-node-key", algorithm: "EC", curve: "secp256k1" })).json();
      const v = (await inject("POST", "/keys", { name: "besu-validator", algorithm: "EC", curve: "secp256k1" })).json();
      const res = await inject("POST", "/networks/besu", {
        name: `qbft-nodes-${dialect}`,
        config: { chainId: 4321, initialValidatorsKeyIds: [v.id] },
      });
      expect(res.statusCode, res.body).toBe(200);
      net = res.json();
    });
    const besuBody = (over: Record<string, unknown> = {}) => ({
      name: "besu-1",
      blockchainPlatform: "BESU",
      besuNode: {
        networkId: net.id,
        keyId: secp.id,
        externalIp: "127.0.0.1",
        internalIp: "127.0.0.1",
        p2pHost: "0.0.0.0",
        p2pPort: base + 10,
        rpcHost: "127.0.0.1",
        rpcPort: base + 11,
        metricsPort: base + 12,
        ...over,
      },
    });

    it.each([
      ["an unknown network", { networkId: 999999 }, /^besuNode\.networkId: Besu network 999999 not found/],
      ["a key that is not secp256k1", "p256", /^besuNode\.keyId: key \d+ is EC P-256, not secp256k1/],
      ["clashing ports", { rpcPort: base + 10 }, /^besuNode\.p2pPort: port \d+ clashes with rpcPort/],
      ["a bad bootnode", { bootNodes: ["enode://nope"] }, /^besuNode\.bootNodes\[0\]: /],
    ])("rejects %s with a named 400 and creates nothing", async (_l, over, message) => {
      const before = await counts();
      let o = over as Record<string, unknown>;
      if (over === "p256") {
        const k = (
          await inject("POST", "/keys", { name: `p256-${Date.now()}`, algorithm: "EC", curve: "P-256" })
        ).json();
        o = { keyId: k.id };
      }
      const res = await inject("POST", "/nodes", besuBody(o));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(message);
      const after = await counts();
      expect({ ...after, keys: before.keys }).toEqual(before);
    });

    it("refuses to create a node that is to start when no besu can be found, before creating anything", async () => {
      const before = await counts();
      const res = await inject("POST", "/nodes", besuBody());
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().message).toMatch(/^start: the node can't start: besu binary not found/);
      expect(res.json().message).toMatch(/Nothing was created; create it with start=false/);
      expect(await counts()).toEqual(before);
      expect(existsSync(join(t.config.dataDir, "nodes", "besu-1"))).toBe(false);
    });

    it("sets a node up with start=false, and a start then ends in ERROR naming the missing besu binary", async () => {
      const res = await inject("POST", "/nodes?start=false", besuBody());
      expect(res.statusCode, res.body).toBe(201);
      expect((await inject("POST", `/nodes/${res.json().id}/start`)).statusCode).toBeLessThan(300);
      const node = res.json();
      expect(node.besuNode).toMatchObject({
        networkId: net.id,
        keyId: secp.id,
        p2pPort: base + 10,
        enodeUrl: enodeUrl(secp.publicKey, "127.0.0.1", base + 10),
      });
      const dir = join(t.config.dataDir, "nodes", "besu-1");
      expect(JSON.parse(readFileSync(join(dir, "config/genesis.json"), "utf8")).config.chainId).toBe(4321);
      expect(readFileSync(join(dir, "config/key"), "utf8")).toMatch(/^0x[0-9a-f]{64}$/);
      const failed = await waitFor(async () => {
        const n = (await inject("GET", `/nodes/${node.id}`)).json();
        return n.status === "ERROR" ? n : undefined;
      }, 10_000);
      expect(failed.errorMessage).toMatch(/^besu binary not found on PATH or in CHAINLAUNCH_BESU_BIN; install Besu/);
      const del = await inject("DELETE", `/keys/${secp.id}`);
      expect(del.statusCode).toBe(409);
      const delNet = await inject("DELETE", `/networks/besu/${net.id}`);
      expect(delNet.statusCode).toBe(409);
      expect(delNet.json().message).toMatch(/^id: network 'qbft-nodes-.*' is still used by node 'besu-1'/);
      expect((await inject("DELETE", `/nodes/${node.id}`)).statusCode).toBe(204);
      expect(existsSync(dir)).toBe(false);
    });
  });
});
