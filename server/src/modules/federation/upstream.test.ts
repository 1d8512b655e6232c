import { createPublicKey, type JsonWebKey } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiOf, signedHeaders } from "../../test-support/federation.js";
import { bootConsole, channelBlock, connectionId, type Console } from "../../test-support/sharing.js";
import { createUser, dialects } from "../../test-support/test-app.js";
import { orgMsp, signedPost } from "../../test-support/upstream.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const CHANNEL = "upccchannel";

/**
 * upstream's route set between two real consoles over HTTP, registered through upstream's
 * /node/register-peer with each other's JWK: the JWK, registration and its refusals, the signed
 * inventory and metrics answers, and a chaincode shared through /pro/sharing/chaincode showing in
 * /pro/shared-chaincodes on the other side.
 */
describe.each(dialects())("upstream's federation routes (%s)", (dialect) => {
  let a: Console;
  let b: Console;
  let bOnA: number;

  beforeAll(async () => {
    [a, b] = await Promise.all([bootConsole(dialect), bootConsole(dialect)]);
  });
  afterAll(async () => {
    await Promise.all([a?.t.close(), b?.t.close()]);
  });

  it("serves the node's public key as a JWK without credentials, and no private part", async () => {
    const res = await b.t.app.inject({ method: "GET", url: "/api/v1/.well-known/node_jwk.json" });
    expect(res.statusCode, res.body).toBe(200);
    const jwk = res.json() as Json;
    expect(jwk).toEqual({ kty: "OKP", crv: "Ed25519", x: b.id.publicKey, kid: b.id.nodeId, use: "sig", alg: "EdDSA" });
    expect(createPublicKey({ key: jwk as JsonWebKey, format: "jwk" }).asymmetricKeyType).toBe("ed25519");
  });

  it("registers each console with the other through /node/register-peer, from the fetched JWK", async () => {
    for (const [here, there] of [
      [a, b],
      [b, a],
    ] as const) {
      const jwk = (await fetch(`${there.url}/api/v1/.well-known/node_jwk.json`).then((r) => r.json())) as Json;
      // Go-shaped: nulls, unknown fields, the key as a JWK text.
      const res = await here.api("POST", "/node/register-peer", {
        node_id: jwk.kid,
        node_name: null,
        node_type: "chainlaunch",
        peer_endpoint: there.url,
        peer_public_key: JSON.stringify({ kty: "OKP", crv: "Ed25519", x: jwk.x }),
        analytics_enabled: false,
        extra_field: { any: 1 },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ message: "peer registered", node_id: there.id.nodeId, status: "connected" });
    }
    bOnA = await connectionId(a, b);
    const audit = await a.t.database.db
      .selectFrom("audit_logs")
      .select(["event_outcome", "affected_resource"])
      .where("event_type", "=", "federation.peer_register")
      .execute();
    expect(audit).toEqual([{ event_outcome: "SUCCESS", affected_resource: `federation_peer:${b.id.nodeId}` }]);
    // The connection is usable by the product's own routes: B's inventory, fetched signed.
    const live = await a.api("GET", `/node/connected-peers/${b.id.nodeId}/nodes`);
    expect(live.statusCode, live.body).toBe(200);
  });

  it("refuses a key that is not the node id's, private material, and a bad endpoint, naming the field", async () => {
    const bad = [
      [{ node_id: a.id.nodeId, peer_public_key: b.id.publicKey, peer_endpoint: b.url }, /^body\.node_id: /],
      [{ peer_public_key: "-----BEGIN PRIVATE KEY-----x", peer_endpoint: b.url }, /^body\.peer_public_key: private/],
      [{ peer_public_key: "abcd", peer_endpoint: b.url }, /^body\.peer_public_key: /],
      [{ peer_public_key: b.id.publicKey, peer_endpoint: "ftp://x" }, /^body\.peer_endpoint: /],
      [{ peer_public_key: b.id.publicKey, peer_endpoint: "http://u:p@x" }, /^body\.peer_endpoint: /],
      [{ peer_public_key: a.id.publicKey, peer_endpoint: b.url }, /own key/],
    ] as const;
    for (const [body, message] of bad) {
      const res = await a.api("POST", "/node/register-peer", body);
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json().message).toMatch(message);
    }
  });

  it("register-peer is admin-only: managers and viewers get 403 and nothing changes", async () => {
    const before = await a.t.database.db
      .selectFrom("federation_connections")
      .select(["node_id", "endpoint", "public_key"])
      .orderBy("node_id")
      .execute();
    for (const role of ["manager", "viewer"] as const) {
      const api = apiOf(a.t, await createUser(a.t, `up-${role}`, role));
      const res = await api("POST", "/node/register-peer", {
        peer_public_key: b.id.publicKey,
        peer_endpoint: "http://evil.example",
      });
      expect(res.statusCode, res.body).toBe(403);
    }
    expect(
      await a.t.database.db
        .selectFrom("federation_connections")
        .select(["node_id", "endpoint", "public_key"])
        .orderBy("node_id")
        .execute(),
    ).toEqual(before);
  });

  it("answers /node/external-nodes and /node/metrics-enabled to a signed peer, Go-shaped bodies included", async () => {
    const org = await orgMsp(a, "UpOrgMSP");
    const nodes = await signedPost(b, a, "/node/external-nodes", {
      node_id: b.id.nodeId,
      nonce: "x",
      signature: null,
      timestamp: 0,
    });
    expect(nodes.statusCode, nodes.body).toBe(200);
    expect((nodes.json() as Json).organizations).toContainEqual(
      expect.objectContaining({ mspId: "UpOrgMSP", signCertificate: org.signCertificate }),
    );
    const empty = await a.t.app.inject({
      method: "POST",
      url: "/api/v1/node/metrics-enabled",
      headers: {
        ...signedHeaders(b.id, { to: a.id.nodeId, method: "POST", path: "/node/metrics-enabled" }),
        "content-type": "application/json",
      },
    });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toEqual({ metrics_enabled: false });
    const other = await signedPost(b, a, "/node/external-nodes", { node_id: a.id.nodeId });
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toMatch(/^body\.node_id: is not the signing node/);
  });

  it("a chaincode shared through /pro/sharing/chaincode shows in /pro/shared-chaincodes on both sides", async () => {
    const imported = await a.api("POST", "/networks/fabric/import", {
      genesisFile: await channelBlock(a, CHANNEL, "UpCcMSP"),
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const networkA = imported.json().networkId as number;
    const cc = await a.api("POST", "/sc/fabric/chaincodes", { name: "upcc", network_id: networkA });
    expect(cc.statusCode, cc.body).toBe(200);
    const ccId = String((cc.json() as Json).chaincode.id);
    const res = await a.api("POST", "/pro/sharing/chaincode", {
      chaincodeId: ccId,
      version: "1.0",
      sequence: 1,
      dockerImage: "example/upcc:1.0",
      recipients: [bOnA],
      metadata: { team: "ops" },
      expiresAt: "0001-01-01T00:00:00Z",
    });
    expect(res.statusCode, res.body).toBe(201);
    const sent = res.json() as Json;
    expect(sent).toMatchObject({ chaincodeId: ccId, version: "1.0", sequence: 1, status: "sent", recipients: [bOnA] });
    const received = (await b.api("GET", "/pro/shared-chaincodes")).json().chaincodes as Json[];
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      direction: "received",
      resourceType: "chaincode",
      resourceId: ccId,
      sharedBy: "admin",
      sharedByNodeId: a.id.nodeId,
      dataJson: { name: "upcc", channelName: CHANNEL, version: "1.0", sequence: 1, dockerImage: "example/upcc:1.0" },
    });
    const one = await b.api("GET", `/pro/shared-chaincodes/${received[0]?.id as string}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().chaincode.id).toBe(received[0]?.id);
    const mine = (await a.api("GET", "/pro/shared-chaincodes?direction=sent")).json().chaincodes as Json[];
    expect(mine).toEqual([
      expect.objectContaining({ id: sent.shareId, recipients: [bOnA], status: "sent", expiresAt: null }),
    ]);
    expect((await b.api("GET", "/pro/shared-chaincodes/nope")).statusCode).toBe(404);
    const viewer = apiOf(b.t, await createUser(b.t, "ccviewer", "viewer"));
    expect((await viewer("GET", "/pro/shared-chaincodes")).statusCode).toBe(200);
    const aViewer = apiOf(a.t, await createUser(a.t, "ccviewer", "viewer"));
    expect(
      (
        await aViewer("POST", "/pro/sharing/chaincode", {
          chaincodeId: ccId,
          version: "1",
          sequence: 1,
          recipients: [bOnA],
        })
      ).statusCode,
    ).toBe(403);
    const missing = await a.api("POST", "/pro/sharing/chaincode", {
      chaincodeId: "99999",
      version: "1",
      sequence: 1,
      recipients: [bOnA],
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toMatch(/^body\.chaincodeId: /);
  });
});
