import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { buildCcaasPackage } from "../fabric/chaincode/package.js";
import { E2E_FABRIC_VERSION, fabricApi, type FabricApi, haveFabricBinaries } from "../test-support/fabric-api.js";
import { openBaoForTests } from "../test-support/openbao.js";
import { reservePorts, releasePorts } from "../test-support/ports.js";
import { prometheusAvailable } from "../test-support/scrape-targets.js";
import { ADMIN_PASSWORD, createTestApp, dialects, type TestApp } from "../test-support/test-app.js";
import { waitFor } from "../test-support/wait.js";
import { GO_EXTRA_FIELD, GO_ZERO_TIME, GoClient } from "./go-client.js";

/*
 * Upstream's Go clients (its CLI and its Terraform provider), played over a real socket: every request
 * carries `Content-Type: application/json` (a POST without a body too), empty slices and maps go out as
 * `null`, times as Go writes them, and each body carries a field this console doesn't know. The bodies
 * are the clients' request structs as `encoding/json` writes them; each flow is one client's sequence.
 */

const ASSET_NODE = resolve(dirname(fileURLToPath(import.meta.url)), "../fabric/test-support/chaincode/asset-node");

const bao = openBaoForTests();
if ("skip" in bao) console.warn(`skipping the managed Vault flow of the Go client suite: ${bao.skip}`);
const havePrometheus = prometheusAvailable("the metrics flow of the Go client suite");
const haveFabric = await haveFabricBinaries("the Fabric flow of the Go client suite");
// The HTTP layer under test is the same on both databases, and two channels of real nodes cost a minute each:
// the Fabric flow runs on the last database this run has (PostgreSQL when it is there).
const fabricDialect = dialects().at(-1)!;
console.info(`the Go client suite's Fabric flow runs on ${fabricDialect} only (same HTTP layer on both)`);

interface Org {
  id: number;
  mspId: string;
  description: string;
}

describe.each(dialects())("upstream's Go clients on %s", { timeout: 120_000 }, (dialect) => {
  let t: TestApp;
  let go: GoClient;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const address = t.app.server.address();
    if (!address || typeof address === "string") throw new Error("the test app is not listening on TCP");
    go = new GoClient(`http://127.0.0.1:${address.port}`, { username: "admin", password: ADMIN_PASSWORD });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("fabric org create, update, list and delete (the CLI's organization commands)", async () => {
    const org = await go.expect<Org>(201, "POST", "/organizations", {
      name: "Go Org",
      mspId: "GoOrgMSP",
      description: "made <by> the CLI & co",
      country: null,
      province: null,
      locality: null,
      streetAddress: null,
      postalCode: null,
      caCertValidFor: "",
      certValidFor: "",
      ...GO_EXTRA_FIELD,
    });
    expect(org.mspId).toBe("GoOrgMSP");
    // Go's HTML-safe escapes arrive as the characters themselves.
    expect(org.description).toBe("made <by> the CLI & co");
    const updated = await go.expect<Org>(200, "PUT", `/organizations/${org.id}`, {
      description: "changed",
      ...GO_EXTRA_FIELD,
    });
    expect(updated.description).toBe("changed");
    // An identity as the provider's identity resource makes it, then read back among the org's.
    await go.expect(201, "POST", `/organizations/${org.id}/identities`, {
      type: "client",
      name: "go-client-identity",
      description: "",
      certValidFor: "",
      ...GO_EXTRA_FIELD,
    });
    const ids = await go.do<unknown[]>("GET", `/organizations/${org.id}/identities?type=client`);
    expect(ids.status, ids.raw).toBe(200);
    expect(ids.raw).toContain("go-client-identity");
    expect(ids.raw).not.toMatch(/PRIVATE KEY/);
    const byMsp = await go.expect<Org>(200, "GET", "/organizations/by-mspid/GoOrgMSP");
    expect(byMsp.id).toBe(org.id);
    const list = await go.expect<{ items: Org[] }>(200, "GET", "/organizations?limit=10&offset=0");
    expect(list.items.map((o) => o.id)).toContain(org.id);
    await go.expect(204, "DELETE", `/organizations/${org.id}`);
    expect((await go.do("GET", `/organizations/${org.id}`)).status).toBe(404);
  });

  it("keys: create with a null certificate request, read it among all keys, delete (the provider's key resource)", async () => {
    const providers = await go.expect<{ id: number; isDefault: number }[]>(200, "GET", "/key-providers");
    const provider = providers.find((p) => p.isDefault === 1) ?? providers[0]!;
    const key = await go.expect<{ id: number; publicKey: string; privateKey?: string }>(201, "POST", "/keys", {
      name: "go-key",
      description: "",
      algorithm: "EC",
      curve: "P-256",
      providerId: provider.id,
      isCA: 0,
      certificate: null,
      ...GO_EXTRA_FIELD,
    });
    expect(key.publicKey).toMatch(/BEGIN PUBLIC KEY/);
    expect(key.privateKey).toBeUndefined();
    const all = await go.expect<{ id: number }[]>(200, "GET", "/keys/all");
    expect(all.map((k) => k.id)).toContain(key.id);
    await go.expect(204, "DELETE", `/keys/${key.id}`);
  });

  it("a backup target and schedule as the Terraform provider applies them: zero times for never, read back as sent", async () => {
    const target = await go.expect<{ id: number }>(201, "POST", "/backups/targets", {
      name: "go-local",
      type: "LOCAL",
      bucketPath: join(t.config.dataDir, "backups", "local", "go-client"),
      resticPassword: "a restic password for the go client",
      endpoint: "",
      region: "",
      accessKeyId: "",
      secretKey: "",
      bucketName: "",
      forcePathStyle: false,
      ...GO_EXTRA_FIELD,
    });
    const schedule = await go.expect<{ id: number; lastRunAt: string; nextRunAt: string }>(
      201,
      "POST",
      "/backups/schedules",
      {
        name: "go-nightly",
        description: "",
        cronExpression: "0 2 * * *",
        targetId: target.id,
        retentionDays: 7,
        enabled: true,
        ...GO_EXTRA_FIELD,
      },
    );
    // The provider keeps every attribute it reads; null would leave lastRunAt unknown and fail the apply.
    expect(schedule.lastRunAt).toBe(GO_ZERO_TIME);
    expect(Date.parse(schedule.nextRunAt)).toBeGreaterThan(Date.now());
    const disabled = await go.expect<{ enabled: boolean; nextRunAt: string }>(
      200,
      "PUT",
      `/backups/schedules/${schedule.id}`,
      {
        name: "go-nightly",
        description: "",
        cronExpression: "0 2 * * *",
        targetId: target.id,
        retentionDays: 7,
        enabled: false,
        ...GO_EXTRA_FIELD,
      },
    );
    expect(disabled).toMatchObject({ enabled: false, nextRunAt: GO_ZERO_TIME });
    const read = await go.expect<{ lastRunAt: string }>(200, "GET", `/backups/schedules/${schedule.id}`);
    expect(read.lastRunAt).toBe(GO_ZERO_TIME);
    await go.expect(204, "DELETE", `/backups/schedules/${schedule.id}`);
    await go.expect(204, "DELETE", `/backups/targets/${target.id}`);
  });

  it("a user, its role changed, and an API key the provider then authenticates with", async () => {
    const user = await go.expect<{ id: number; role: string }>(201, "POST", "/users", {
      username: "go-operator",
      password: "go-operator-password-1",
      role: "manager",
      ...GO_EXTRA_FIELD,
    });
    // auth.UpdateUserRequest carries the username too; upstream reads only the role here.
    const promoted = await go.expect<{ role: string }>(200, "PUT", `/users/${user.id}/role`, {
      role: "admin",
      username: "",
    });
    expect(promoted.role).toBe("admin");
    const operator = go.as({ username: "go-operator", password: "go-operator-password-1" });
    const made = await operator.expect<{ key: string; api_key: { id: number } }>(201, "POST", "/api-keys", {
      name: "terraform",
      description: "",
      role: "viewer",
      expires_in: "",
      permissions: null,
      ...GO_EXTRA_FIELD,
    });
    const withKey = go.as({ apiKey: made.key });
    await withKey.expect(200, "GET", "/organizations");
    // The key's role is what counts: a viewer's key can't create.
    expect((await withKey.do("POST", "/organizations", { name: "x", mspId: "XMSP" })).status).toBe(403);
    await operator.expect(204, "DELETE", `/api-keys/${made.api_key.id}`);
    expect((await withKey.do("GET", "/organizations")).status).toBe(401);
  });

  it("a template stored, applied, exported, imported and made the default, as a Go client sends them", async () => {
    const variable = (name: string, type: string, dflt: unknown) => ({
      name,
      type,
      description: "",
      required: dflt === null,
      default: dflt,
      validation: null,
    });
    const created = await go.expect<{ id: number; tags: string[] | null }>(201, "POST", "/templates", {
      name: "go-network",
      description: "",
      platform: "FABRIC",
      node_type: "fabric_network",
      version: "1.0.0",
      is_default: false,
      tags: null,
      variables: [variable("channel", "string", null), variable("orgs", "number", 2)],
      config: { channel: "{{channel}}", organizations: "{{orgs}}", policies: null },
      ...GO_EXTRA_FIELD,
    });
    const applied = await go.expect<Record<string, unknown>>(200, "POST", `/templates/${created.id}/apply`, {
      template_id: created.id,
      variables: { channel: "gochannel" },
      override_config: null,
      context: null,
      ...GO_EXTRA_FIELD,
    });
    expect(applied).toMatchObject({ channel: "gochannel", organizations: 2 });
    const exported = await go.expect<{ export_version: string; template: { name: string } }>(
      200,
      "GET",
      `/templates/${created.id}/export`,
    );
    const imported = await go.expect<{ id: number; name: string }>(201, "POST", "/templates/import", {
      ...exported,
      ...GO_EXTRA_FIELD,
    });
    expect(imported.id).not.toBe(created.id);
    await go.expect(200, "POST", `/templates/${imported.id}/set-default`);
    const dflt = await go.expect<{ id: number }>(200, "GET", "/templates/platforms/FABRIC/fabric_network/default");
    expect(dflt.id).toBe(imported.id);
    for (const id of [created.id, imported.id]) await go.expect(204, "DELETE", `/templates/${id}`);
  });

  it("the node's public key as another console fetches it, and a peer registration refused to a manager", async () => {
    const jwk = await go.expect<{ kty: string; crv: string; x: string; kid: string; d?: string }>(
      200,
      "GET",
      "/.well-known/node_jwk.json",
    );
    expect(jwk).toMatchObject({ kty: "OKP", crv: "Ed25519" });
    expect(Buffer.from(jwk.x, "base64url")).toHaveLength(32);
    expect(jwk.d).toBeUndefined();
    await go.expect(201, "POST", "/users", {
      username: "go-manager",
      password: "go-manager-password-1",
      role: "manager",
    });
    const manager = go.as({ username: "go-manager", password: "go-manager-password-1" });
    // Registering a peer decides where this console's signed messages go: an admin's call.
    const refused = await manager.do("POST", "/node/register-peer", {
      node_id: jwk.kid,
      public_key: jwk.x,
      endpoint: "https://peer.example:8100",
      metadata: null,
      ...GO_EXTRA_FIELD,
    });
    expect(refused.status).toBe(403);
  });

  it("the body-less calls the CLI makes: Content-Type set, nothing sent", async () => {
    // POST with `http.NewRequest("POST", url, nil)`: Content-Length 0 and the JSON content type.
    await go.expect(200, "POST", "/user-notifications/read-all");
    const count = await go.expect<{ count: number }>(200, "GET", "/user-notifications/unread/count");
    expect(count.count).toBe(0);
  });

  it.skipIf(!havePrometheus)("metrics as the provider deploys, extends, stops, starts and destroys it", async () => {
    const port = await reservePorts(1);
    try {
      const deployed = await go.do("POST", "/metrics/deploy", {
        deployment_mode: "",
        prometheus_port: port,
        prometheus_version: "v3.5.0",
        scrape_interval: 15,
        docker_config: null,
        ...GO_EXTRA_FIELD,
      });
      expect(deployed.status, deployed.raw).toBeLessThan(300);
      const status = await go.expect<{ status: string; version: string; port: number }>(200, "GET", "/metrics/status");
      expect(status).toMatchObject({ status: "running", version: "v3.5.0", port });
      await go.expect(200, "POST", "/metrics/job/add", {
        job_name: "go-extra",
        targets: ["127.0.0.1:9"],
        metrics_path: "",
        scrape_interval: "",
        ...GO_EXTRA_FIELD,
      });
      // Upstream answers a map of jobs by name.
      const jobs = await go.expect<Record<string, unknown>>(200, "GET", "/metrics/jobs");
      expect(Object.keys(jobs)).toContain("go-extra");
      // A filtered query with nothing set: nil filters, zero times (no range), zero limit (the default).
      const q = await go.expect<{ status: string; pagination: { limit: number } }>(
        200,
        "POST",
        "/metrics/query/filtered",
        { query: "up", filters: null, start: GO_ZERO_TIME, end: GO_ZERO_TIME, step: "", limit: 0, offset: 0 },
      );
      expect(q).toMatchObject({ status: "success", pagination: { limit: 100 } });
      // The admin's port check of the Prometheus it just deployed (timeout 0: the default).
      const probe = await go.expect<{ open: boolean }>(200, "POST", "/troubleshooting/check-port", {
        host: "127.0.0.1",
        port,
        timeout: 0,
        ...GO_EXTRA_FIELD,
      });
      expect(probe.open).toBe(true);
      await go.expect(200, "POST", "/metrics/stop");
      expect((await go.expect<{ status: string }>(200, "GET", "/metrics/status")).status).toBe("stopped");
      await go.expect(200, "POST", "/metrics/start");
      expect((await go.expect<{ status: string }>(200, "GET", "/metrics/status")).status).toBe("running");
    } finally {
      await go.do("POST", "/metrics/undeploy");
      releasePorts(port, 1);
    }
    expect((await go.expect<{ status: string }>(200, "GET", "/metrics/status")).status).toBe("not_deployed");
  });

  it.skipIf("skip" in bao)(
    "a managed Vault created as the provider sends it is running when the create answers",
    async () => {
      const created = await go.expect<{ id: number }>(201, "POST", "/key-providers", {
        name: "go-vault",
        type: "VAULT",
        isDefault: 0,
        config: {
          vault: { operation: "CREATE", address: "", token: "", mode: "", network: "", caCert: "", namespace: "" },
          awsKms: null,
        },
        ...GO_EXTRA_FIELD,
      });
      const status = await go.expect<{ container_running: boolean; sealed: boolean }>(
        200,
        "GET",
        `/key-providers/${created.id}/vault/status`,
      );
      expect(status).toMatchObject({ container_running: true, sealed: false });
      await go.expect(204, "DELETE", `/key-providers/${created.id}`);
    },
  );
});

interface Node {
  id: number;
  name: string;
  status: string;
  errorMessage?: string;
  endpoint: string;
}

interface Address {
  listenAddress: string;
  chaincodeAddress?: string;
  operationsListenAddress: string;
  externalEndpoint: string;
  adminAddress?: string;
}

describe.skipIf(!haveFabric)(
  `upstream's Go clients on a Fabric channel (${fabricDialect})`,
  { timeout: 300_000 },
  () => {
    let h: FabricApi;
    let go: GoClient;
    beforeAll(async () => {
      h = await fabricApi({ dialect: fabricDialect, portCount: 20 });
      await h.t.app.listen({ port: 0, host: "127.0.0.1" });
      const address = h.t.app.server.address();
      if (!address || typeof address === "string") throw new Error("the test app is not listening on TCP");
      go = new GoClient(`http://127.0.0.1:${address.port}`, { username: "admin", password: ADMIN_PASSWORD });
    });
    afterAll(async () => h?.close());

    /** types.FabricPeerConfig / types.FabricOrdererConfig as encoding/json writes them with nothing optional set. */
    const nodeConfig = (org: Org, a: Address) => ({
      name: "",
      type: "",
      organizationId: org.id,
      mspId: org.mspId,
      listenAddress: a.listenAddress,
      operationsListenAddress: a.operationsListenAddress,
      externalEndpoint: a.externalEndpoint,
      domainNames: null,
      env: null,
      addressOverrides: null,
      version: E2E_FABRIC_VERSION,
      mode: "service",
      autoRenewalEnabled: false,
    });

    const running = (node: Node): Promise<Node> =>
      waitFor(
        `${node.name} RUNNING`,
        async () => {
          const cur = await go.expect<Node>(200, "GET", `/nodes/${node.id}`);
          if (cur.status === "ERROR") throw new Error(`${node.name}: ${cur.errorMessage}`);
          return cur.status === "RUNNING" ? cur : undefined;
        },
        90_000,
      );

    it("creates nodes and a channel, joins it, and pulls the org's network config, as the CLI and the provider do", async () => {
      const orgBody = (name: string, mspId: string) => ({
        name,
        mspId,
        description: "",
        country: null,
        province: null,
        locality: null,
        streetAddress: null,
        postalCode: null,
        ...GO_EXTRA_FIELD,
      });
      const org = await go.expect<Org>(201, "POST", "/organizations", orgBody("Go Peers", "GoPeerMSP"));
      const ord = await go.expect<Org>(201, "POST", "/organizations", orgBody("Go Orderers", "GoOrdMSP"));
      const d = await go.expect<{ peers: Address[]; orderers: Address[] }>(
        200,
        "GET",
        "/nodes/defaults/fabric?peerCount=1&ordererCount=1",
      );
      const peer = await go.expect<Node>(201, "POST", "/nodes", {
        name: "go-peer0",
        blockchainPlatform: "FABRIC",
        fabricPeer: {
          ...nodeConfig(org, d.peers[0]!),
          chaincodeAddress: d.peers[0]!.chaincodeAddress,
          eventsAddress: "",
          ordererAddressOverrides: null,
        },
        fabricOrderer: null,
        besuNode: null,
        ...GO_EXTRA_FIELD,
      });
      const orderer = await go.expect<Node>(201, "POST", "/nodes", {
        name: "go-orderer0",
        blockchainPlatform: "FABRIC",
        fabricOrderer: { ...nodeConfig(ord, d.orderers[0]!), adminAddress: d.orderers[0]!.adminAddress },
        fabricPeer: null,
        besuNode: null,
        ...GO_EXTRA_FIELD,
      });
      await Promise.all([running(peer), running(orderer)]);

      // http.CreateFabricNetworkRequest with only what the CLI's flags set.
      const net = await go.expect<{ id: number; name: string }>(201, "POST", "/networks/fabric", {
        name: "gochannel",
        description: "",
        config: {
          peerOrganizations: [{ id: org.id, nodeIds: [peer.id] }],
          ordererOrganizations: [{ id: ord.id, nodeIds: [orderer.id] }],
          externalPeerOrgs: null,
          externalOrdererOrgs: null,
          applicationCapabilities: null,
          channelCapabilities: null,
          ordererCapabilities: null,
          applicationPolicies: null,
          ordererPolicies: null,
          channelPolicies: null,
          smartBFTConsenters: null,
          smartBFTOptions: null,
          etcdRaftOptions: null,
          batchSize: null,
          batchTimeout: "500ms",
          consensusType: "etcdraft",
        },
        ...GO_EXTRA_FIELD,
      });
      // Joins are POSTs without a body.
      await go.expect(200, "POST", `/networks/fabric/${net.id}/orderers/${orderer.id}/join`);
      await go.expect(200, "POST", `/networks/fabric/${net.id}/peers/${peer.id}/join`);
      const info = await waitFor(
        "the peer's view of the channel",
        async () => {
          const r = await go.do<{ height?: number }>("GET", `/networks/fabric/${net.id}/info`);
          return r.status === 200 && (r.body.height ?? 0) >= 1 ? r.body : undefined;
        },
        30_000,
      );
      expect(info.height).toBeGreaterThanOrEqual(1);

      // `fabric network-config pull`.
      const profile = await go.do<string>("GET", `/networks/fabric/${net.id}/organizations/${org.id}/network-config`);
      expect(profile.status, profile.raw).toBe(200);
      const yaml = parse(profile.raw) as { peers: Record<string, unknown>; orderers: Record<string, unknown> };
      expect(Object.keys(yaml.peers)).toHaveLength(1);
      expect(Object.keys(yaml.orderers)).toHaveLength(1);
      expect(profile.raw).not.toMatch(/PRIVATE KEY/);

      // The provider's reads of the nodes and the committed chaincodes (none yet).
      const nodes = await go.expect<{ items: Node[] }>(200, "GET", "/nodes?page=1&limit=10");
      expect(nodes.items.map((n) => n.name).sort()).toEqual(["go-orderer0", "go-peer0"]);
      const committed = await go.do("GET", `/networks/fabric/${net.id}/chaincodes/committed`);
      expect(committed.status, committed.raw).toBe(200);

      // One-shot deploy as upstream's SDK sends it: []byte as base64, nil slices, zero values meaning "as approved".
      const pkg = buildCcaasPackage({
        label: "gocc_1.0",
        connection: { address: `127.0.0.1:${h.ports + 19}`, dial_timeout: "10s", tls_required: false },
      });
      const deployed = await go.expect<{ definitionId: number; result: { success: boolean; chaincodeID: string } }>(
        200,
        "POST",
        "/sc/fabric/deploy",
        {
          installParams: { label: "gocc_1.0", packageBytes: pkg.bytes.toString("base64"), peer: null },
          approveParams: {
            channelID: "gochannel",
            name: "gocc",
            version: "1.0",
            sequence: 1,
            packageID: "",
            endorsementPolicy: "OR('GoPeerMSP.member')",
            initRequired: false,
            collectionsConfig: null,
            gateway: null,
          },
          commitParams: {
            channelID: "",
            name: "",
            version: "",
            sequence: 0,
            endorsementPolicy: "",
            initRequired: false,
            collectionsConfig: null,
            gateway: null,
          },
          ...GO_EXTRA_FIELD,
        },
      );
      expect(deployed.result).toMatchObject({ success: true, chaincodeID: pkg.packageId });
      // The package's server runs from the test chaincode; the invoke's transaction is read back from the peer.
      await go.expect(200, "POST", `/sc/fabric/definitions/${deployed.definitionId}/source`, {
        source_path: ASSET_NODE,
      });
      await go.expect(200, "POST", `/sc/fabric/definitions/${deployed.definitionId}/deploy`);
      const { chaincodes } = await go.expect<{ chaincodes: { id: number; name: string }[] }>(
        200,
        "GET",
        "/sc/fabric/chaincodes",
      );
      const cc = chaincodes.find((c) => c.name === "gocc")!;
      const wrote = await go.expect<{ transaction_id: string }>(200, "POST", `/sc/fabric/chaincodes/${cc.id}/invoke`, {
        function: "CreateAsset",
        args: ["g1", "teal"],
      });
      const tx = await go.expect<{ block: { transactions: { id: string; chaincodeId: string }[] } }>(
        200,
        "GET",
        `/networks/fabric/${net.id}/transactions/${wrote.transaction_id}`,
      );
      expect(tx.block.transactions[0]).toMatchObject({ id: wrote.transaction_id, chaincodeId: "gocc" });
      // reload-block: a POST without a body.
      await go.expect(200, "POST", `/networks/fabric/${net.id}/reload-block`);
    });
  },
);
