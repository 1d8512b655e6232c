import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedHeaders, strangerIdentity } from "../../test-support/federation.js";
import { bootConsole, dumpDatabase, type Console } from "../../test-support/sharing.js";
import { dialects } from "../../test-support/test-app.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Each signed inbound route of upstream's set with a body that would be accepted when signed. */
const ROUTES: { method: "GET" | "POST"; path: string; body?: (from: string) => object }[] = [
  {
    method: "POST",
    path: "/pro/receive",
    body: (from) => ({
      subType: "ShareChaincodeDefinition",
      sender_id: from,
      payload: Buffer.from("{}").toString("base64"),
    }),
  },
  {
    method: "POST",
    path: "/pro/receive/chaincode",
    body: () => ({ chaincodeId: "1", version: "1", sequence: 1, shareId: "s-1" }),
  },
  {
    method: "POST",
    path: "/pro/receive/network",
    body: () => ({ genesisBlock: "AAAA", name: "x", networkId: 1, platform: "FABRIC" }),
  },
  {
    method: "POST",
    path: "/pro/receive/key",
    body: () => ({ algorithm: "EC", name: "k", publicKey: "x", shareId: "s" }),
  },
  {
    method: "POST",
    path: "/pro/key/receive",
    body: () => ({ algorithm: "EC", name: "k", public_key: "x", share_id: "s" }),
  },
  {
    method: "POST",
    path: "/pro/receive/config-update",
    body: () => ({ channelName: "c", configUpdate: "AAAA", proposalId: "p" }),
  },
  { method: "POST", path: "/node/external-nodes", body: () => ({}) },
  { method: "POST", path: "/node/metrics-enabled", body: () => ({}) },
  { method: "GET", path: "/node/forward-metrics?match%5B%5D=up" },
];

/**
 * upstream's inbound routes refuse what the product's own /federation/* routes refuse, with the same
 * verifier: no signature, a key that is not the registered one, an unknown sender, a replay, an
 * altered body or query, a message for another console, and a revoked sender. Nothing is stored.
 */
describe.each(dialects())("upstream's inbound routes refuse forged requests (%s)", (dialect) => {
  let a: Console;
  let b: Console;
  const send = (headers: Record<string, string>, method: "GET" | "POST", path: string, body?: string) =>
    a.t.app.inject({ method, url: `/api/v1${path}`, headers, ...(body !== undefined ? { payload: body } : {}) });
  const signed = (o: { path: string; method: "GET" | "POST"; body?: string }, signer = b.id, from?: string) =>
    signedHeaders(signer, {
      to: a.id.nodeId,
      method: o.method,
      path: o.path,
      body: o.body ?? "",
      ...(from ? { from } : {}),
    });

  beforeAll(async () => {
    [a, b] = await Promise.all([bootConsole(dialect), bootConsole(dialect)]);
    const reg = await a.api("POST", "/node/register-peer", { peer_public_key: b.id.publicKey, peer_endpoint: b.url });
    expect(reg.statusCode, reg.body).toBe(200);
  });
  afterAll(async () => {
    await Promise.all([a?.t.close(), b?.t.close()]);
  });

  it.each(ROUTES)("$method $path: unsigned, wrong key, unknown sender, misaddressed are 401", async (r) => {
    const before = await dumpDatabase(a.t);
    const body = r.body ? JSON.stringify(r.body(b.id.nodeId)) : undefined;
    const json: Record<string, string> = body ? { "content-type": "application/json" } : {};
    const req = { method: r.method, path: r.path, ...(body ? { body } : {}) };
    const unsigned = await send(json, r.method, r.path, body);
    expect(unsigned.statusCode, unsigned.body).toBe(401);
    // Signed by another key in B's name.
    const stranger = strangerIdentity();
    const forged = await send(signed(req, stranger, b.id.nodeId), r.method, r.path, body);
    expect(forged.statusCode).toBe(401);
    expect(forged.json().message).toMatch(/unknown sender, or the signature is not valid/);
    const unknown = await send(signed(req, stranger), r.method, r.path, body);
    expect(unknown.statusCode).toBe(401);
    const elsewhere = await send(
      signedHeaders(b.id, { to: stranger.nodeId, method: r.method, path: r.path, body: body ?? "" }),
      r.method,
      r.path,
      body,
    );
    expect(elsewhere.statusCode).toBe(401);
    const stale = await send(
      signedHeaders(b.id, {
        to: a.id.nodeId,
        method: r.method,
        path: r.path,
        body: body ?? "",
        timestamp: Math.floor(Date.now() / 1000) - 600,
      }),
      r.method,
      r.path,
      body,
    );
    expect(stale.statusCode).toBe(401);
    // The audit log records the refusals and the ping loop reachability; nothing else may change.
    const strip = (s: string) =>
      s
        .split("\n")
        .filter((l) => !l.startsWith("audit_logs") && !l.startsWith("federation_connections"))
        .join("\n");
    expect(strip(await dumpDatabase(a.t))).toEqual(strip(before));
  });

  it("verifies the signature before it parses the body: unsigned malformed JSON is a 401, not a 400", async () => {
    const junk = `{"payload":[${"0,".repeat(10_000)}`;
    const res = await send({ "content-type": "application/json" }, "POST", "/pro/receive", junk);
    expect(res.statusCode).toBe(401);
    // Signed, the same bytes reach the parser and are refused for what they are.
    const signedJunk = await send(
      signed({ method: "POST", path: "/pro/receive", body: junk }),
      "POST",
      "/pro/receive",
      junk,
    );
    expect(signedJunk.statusCode).toBe(400);
  });

  it("refuses a replayed message and an altered body", async () => {
    const body = JSON.stringify({ chaincodeId: "7", version: "1.0", sequence: 1, shareId: "replay-1" });
    const path = "/pro/receive/chaincode";
    const headers = signed({ method: "POST", path, body });
    const first = await send(headers, "POST", path, body);
    expect(first.statusCode, first.body).toBe(200);
    const replay = await send(headers, "POST", path, body);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toMatch(/already used \(a replayed message\)/);
    const altered = JSON.stringify({ chaincodeId: "8", version: "1.0", sequence: 1, shareId: "replay-2" });
    const tampered = await send(signed({ method: "POST", path, body }), "POST", path, altered);
    expect(tampered.statusCode).toBe(401);
    const rows = await a.t.database.db.selectFrom("federation_shares").select("resource_id").execute();
    expect(rows).toEqual([{ resource_id: "7" }]);
  });

  it("covers forward-metrics' query in the signature: an altered match[] is 401", async () => {
    const headers = signed({ method: "GET", path: "/node/forward-metrics?match%5B%5D=up" });
    const res = await send(headers, "GET", "/node/forward-metrics?match%5B%5D=%7B__name__%3D~%22.%2B%22%7D");
    expect(res.statusCode).toBe(401);
    // Signed as sent, it reaches the grant check (A grants B nothing).
    const ok = await send(
      signed({ method: "GET", path: "/node/forward-metrics?match%5B%5D=up" }),
      "GET",
      "/node/forward-metrics?match%5B%5D=up",
    );
    expect(ok.statusCode, ok.body).toBe(403);
    expect((ok.json() as Json).details).toEqual({ reason: "metrics_federation_not_granted" });
  });

  it("refuses a body that names another sender than the signing one", async () => {
    const body = JSON.stringify({ chaincodeId: "9", version: "1", sequence: 1, shareId: "s-9", senderId: a.id.nodeId });
    const res = await send(
      signed({ method: "POST", path: "/pro/receive/chaincode", body }),
      "POST",
      "/pro/receive/chaincode",
      body,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^body\.senderId: is not the signing node/);
    const msg = JSON.stringify({ subType: "ShareKey", sender_id: a.id.nodeId, payload: [123, 125] });
    const env = await send(signed({ method: "POST", path: "/pro/receive", body: msg }), "POST", "/pro/receive", msg);
    expect(env.statusCode).toBe(400);
    expect(env.json().message).toMatch(/^body\.sender_id: /);
  });

  it("refuses a revoked sender with 403 once A disconnected it", async () => {
    expect((await a.api("DELETE", `/node/connected-peers/${b.id.nodeId}`)).statusCode).toBe(200);
    const body = JSON.stringify({ chaincodeId: "10", version: "1", sequence: 1, shareId: "s-10" });
    const res = await send(
      signed({ method: "POST", path: "/pro/receive/chaincode", body }),
      "POST",
      "/pro/receive/chaincode",
      body,
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().details).toEqual({ reason: "revoked" });
  });
});
