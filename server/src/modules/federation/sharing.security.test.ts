import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedHeaders, strangerIdentity } from "../../test-support/federation.js";
import { bootConsole, channelBlock, connect, type Console } from "../../test-support/sharing.js";
import { dialects } from "../../test-support/test-app.js";
import { waitFor } from "../../test-support/wait.js";
import type { Identity } from "./federation.identity.js";

/**
 * Share messages B refuses, each leaving B's shares and notifications as they were: forged,
 * replayed, from a disconnected console, and with contents that don't hold up (a tampered
 * genesis, a name or chain id the genesis doesn't carry, bad bootnodes, private key material).
 */
describe.each(dialects())("refused share messages (%s)", (dialect) => {
  let a: Console;
  let b: Console;
  let c: Console;
  let genesis: string;
  let besuGenesis: string;

  const NETWORK = "/federation/shares/network";
  const KEY = "/federation/shares/key";
  /** Sends a share to B as `signer` would over the wire. */
  const toB = (signer: Identity, path: string, payload: object, headers?: Record<string, string>) => {
    const body = JSON.stringify(payload);
    return b.t.app.inject({
      method: "POST",
      url: `/api/v1${path}`,
      headers: headers ?? signedHeaders(signer, { to: b.id.nodeId, method: "POST", path, body }),
      payload: body,
    });
  };
  const state = async () => ({
    shares: await b.t.database.db.selectFrom("federation_shares").selectAll().orderBy("id").execute(),
    notifications: await b.t.database.db
      .selectFrom("user_notifications")
      .select(["event_type", "event_data"])
      .execute(),
  });
  const fabricShare = (over: object = {}) => ({
    shareId: randomUUID(),
    networkId: 1,
    name: "secchannel",
    platform: "fabric",
    genesisBlock: genesis,
    orderers: [],
    sharedBy: "mallory",
    ...over,
  });

  beforeAll(async () => {
    [a, b, c] = await Promise.all([bootConsole(dialect), bootConsole(dialect), bootConsole(dialect)]);
    await connect(a, b);
    await connect(c, b);
    expect((await b.api("DELETE", `/node/connected-peers/${c.id.nodeId}`)).statusCode).toBe(200);
    genesis = await channelBlock(a, "secchannel", "SecOrgMSP");
    const key = await a.api("POST", "/keys", { name: "sec-val", algorithm: "EC", curve: "secp256k1" });
    const net = await a.api("POST", "/networks/besu", {
      name: "sec-besu",
      config: { chainId: 4242, initialValidatorsKeyIds: [key.json().id] },
    });
    expect(net.statusCode, net.body).toBe(200);
    besuGenesis = Buffer.from(net.json().genesisConfig as string).toString("base64");
  });
  afterAll(async () => {
    await Promise.all([a?.t.close(), b?.t.close(), c?.t.close()]);
  });

  it("refuses a share signed by an unknown key, and one from a disconnected console", async () => {
    const before = await state();
    const forged = await toB(strangerIdentity(), NETWORK, fabricShare());
    expect(forged.statusCode).toBe(401);
    expect(forged.json().message).toMatch(/unknown sender/);
    // A's node id, but signed with another key.
    const impostor = { ...strangerIdentity(), nodeId: a.id.nodeId };
    expect((await toB(impostor, NETWORK, fabricShare())).statusCode).toBe(401);
    const revoked = await toB(c.id, NETWORK, fabricShare());
    expect(revoked.statusCode).toBe(403);
    expect(revoked.json().message).toMatch(/revoked/);
    expect(await state()).toEqual(before);
  });

  it("stores a share once and refuses its replay; a second delivery of the same share id adds nothing", async () => {
    const payload = fabricShare();
    const body = JSON.stringify(payload);
    const headers = signedHeaders(a.id, { to: b.id.nodeId, method: "POST", path: NETWORK, body });
    const first = await toB(a.id, NETWORK, payload, headers);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ shareId: expect.any(String), status: "pending" });
    // The notification is stored off the event bus, after the answer: wait for it before the snapshot.
    const after = await waitFor(
      "the first delivery's notification",
      async () => {
        const s = await state();
        return s.notifications.length > 0 ? s : undefined;
      },
      10_000,
    );
    expect(after.shares).toHaveLength(1);
    expect(after.notifications.map((n) => n.event_type)).toEqual(["network.received"]);
    const replay = await toB(a.id, NETWORK, payload, headers);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toMatch(/already used/);
    // Same share id, freshly signed (a retry after a lost answer): the stored share, nothing new.
    const again = await toB(a.id, NETWORK, payload);
    expect(again.statusCode).toBe(200);
    expect(again.json().shareId).toBe(first.json().shareId);
    expect(await state()).toEqual(after);
  });

  it("refuses contents that don't hold up with a 400 naming the field", async () => {
    const before = await state();
    const cases: [string, object, RegExp][] = [
      [NETWORK, fabricShare({ genesisBlock: Buffer.from("not a block").toString("base64") }), /^body\.genesisBlock: /],
      [NETWORK, fabricShare({ genesisBlock: "%%%%" }), /^body\.genesisBlock: /],
      [NETWORK, fabricShare({ name: "otherchannel" }), /^body\.name: 'otherchannel' is not the block's channel/],
      [NETWORK, fabricShare({ platform: "besu", chainId: 4242, name: "x" }), /^body\.genesisBlock: /],
      [
        NETWORK,
        fabricShare({ platform: "besu", name: "sec-besu", genesisBlock: besuGenesis, chainId: 1 }),
        /^body\.chainId: 1 is not the genesis chain id 4242/,
      ],
      [
        NETWORK,
        fabricShare({ platform: "besu", name: "sec-besu", genesisBlock: besuGenesis, chainId: 4242, bootnodes: ["x"] }),
        /^body\.bootnodes\[0\]/,
      ],
      [NETWORK, fabricShare({ shareId: "nope" }), /shareId/],
    ];
    for (const [path, payload, message] of cases) {
      const res = await toB(a.id, path, payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(await state()).toEqual(before);
  });

  it("refuses an oversized share, and an answer about a share that was not sent to the answering console", async () => {
    const before = await state();
    const huge = await toB(a.id, NETWORK, fabricShare({ genesisBlock: "A".repeat(9 * 1024 * 1024) }));
    expect(huge.statusCode).toBe(413);
    const answer = await toB(a.id, "/federation/shares/answer", { shareId: randomUUID(), status: "accepted" });
    expect(answer.statusCode).toBe(404);
    expect(answer.json().message).toMatch(/^body\.shareId: no network share/);
    expect(await state()).toEqual(before);
  });

  it("refuses private key material in a key share", async () => {
    const before = await state();
    const key = (
      (await a.api("GET", "/keys?page=1&pageSize=50")).json().items as { id: number; name: string; publicKey: string }[]
    ).find((k) => k.name === "sec-val")!;
    const share = (over: object) => ({
      shareId: randomUUID(),
      keyId: String(key.id),
      name: "k",
      algorithm: "EC",
      curve: "secp256k1",
      keySize: null,
      format: "PEM",
      publicKey: key.publicKey,
      sharedBy: null,
      ...over,
    });
    const privatePem =
      "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n";
    const cases: [object, RegExp][] = [
      [share({ publicKey: privatePem }), /^body\.publicKey: private key material is refused/],
      [share({ publicKey: JSON.stringify({ kty: "EC", crv: "P-256", x: "a", y: "b", d: "c" }) }), /private key/],
      [share({ publicKey: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n" }), /^body\.publicKey: /],
      [share({ curve: "P-256" }), /^body\.curve: /],
      [share({ ethereumAddress: "0x0000000000000000000000000000000000000001" }), /^body\.ethereumAddress: /],
    ];
    for (const [payload, message] of cases) {
      const res = await toB(a.id, KEY, payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(await state()).toEqual(before);
    const ok = await toB(a.id, KEY, share({}));
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
