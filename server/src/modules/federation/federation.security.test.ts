import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiOf,
  forgeInvitation,
  identityOf,
  listenAndSetEndpoint,
  signedHeaders,
  strangerIdentity,
  tamper,
  type Api,
} from "../../test-support/federation.js";
import { auditRowOf, managerCallers } from "../../test-support/callers.js";
import { createTestApp, dialects, type TestApp } from "../../test-support/test-app.js";
import { waitFor } from "../../test-support/wait.js";
import type { Identity } from "./federation.identity.js";

/**
 * Every refusal between consoles, each with nothing changed on either side: tampered, forged,
 * expired, reused and concurrently used invitations; replayed, unknown, stale, misaddressed and
 * altered messages; messages after a disconnect; and the status of a console that went away.
 */

interface Console {
  t: TestApp;
  api: Api;
  url: string;
  id: Identity;
}

async function boot(dialect: "sqlite" | "postgres"): Promise<Console> {
  const t = await createTestApp(dialect, { CHAINLAUNCH_FEDERATION_PING_SECONDS: "0.2" });
  const url = await listenAndSetEndpoint(t);
  return { t, api: apiOf(t), url, id: await identityOf(t) };
}

const invite = async (c: Console): Promise<string> => {
  const res = await c.api("POST", "/node/generate-invitation", { bidirectional: true });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().invitation_jwt as string;
};
const accept = (c: Console, jwt: string) => c.api("POST", "/node/accept-invitation", { invitation_jwt: jwt });
/**
 * What a refusal must leave alone: the connections (who, with which key and endpoint, revoked or
 * not) and the invitations of each console. Reachability is left out: the ping loop keeps changing it.
 */
const state = async (...cs: Console[]) =>
  Promise.all(
    cs.map(async (c) => ({
      connections: (
        await c.t.database.db
          .selectFrom("federation_connections")
          .select(["node_id", "status", "public_key", "endpoint"])
          .orderBy("node_id")
          .execute()
      ).map(({ status, ...rest }) => ({ ...rest, revoked: status === "revoked" })),
      invitations: await c.t.database.db
        .selectFrom("federation_invitations")
        .select(["nonce", "used_at", "used_by_node_id"])
        .orderBy("nonce")
        .execute(),
    })),
  );
const statusOn = async (c: Console, nodeId: string): Promise<string | undefined> =>
  ((await c.api("GET", "/node/connected-peers")).json().connected_peers as { node_id: string; status: string }[]).find(
    (p) => p.node_id === nodeId,
  )?.status;

describe.each(dialects())("federation security (%s)", (dialect) => {
  let a: Console;
  let b: Console;
  let c: Console;
  let cClosed = false;
  /** Sends a signed request to A as it arrives over the wire. */
  const toA = (headers: Record<string, string>, method: "GET" | "POST", path: string, body?: string) =>
    a.t.app.inject({ method, url: `/api/v1${path}`, headers, ...(body ? { payload: body } : {}) });

  beforeAll(async () => {
    [a, b, c] = await Promise.all([boot(dialect), boot(dialect), boot(dialect)]);
  });
  afterAll(async () => {
    await Promise.all([a?.t.close(), b?.t.close(), cClosed ? undefined : c?.t.close()]);
  });

  it("refuses a tampered invitation before contacting anyone", async () => {
    const jwt = await invite(a);
    const before = await state(a, b);
    for (const forged of [tamper(jwt, { endpoint: "http://127.0.0.1:1" }), tamper(jwt, { exp: 4102444800 })]) {
      const res = await accept(b, forged);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/signature does not match.*altered/);
    }
    // Signed by another key but naming A: the key and iss disagree.
    const stranger = strangerIdentity();
    const res = await accept(b, forgeInvitation(stranger, { iss: a.id.nodeId, endpoint: a.url }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/iss is not the node id/);
    expect(await state(a, b)).toEqual(before);
  });

  it("refuses an expired invitation, checked by the accepter and by the inviter", async () => {
    const before = await state(a, b);
    const stale = forgeInvitation(a.id, { endpoint: a.url, exp: Math.floor(Date.now() / 1000) - 60 });
    const local = await accept(b, stale);
    expect(local.statusCode).toBe(400);
    expect(local.json().message).toMatch(/expired/);
    expect(await state(a, b)).toEqual(before);

    // Still valid by its claims, but expired in the inviter's own records.
    const jwt = await invite(a);
    await a.t.database.db
      .updateTable("federation_invitations")
      .set({ expires_at: "2000-01-01T00:00:00.000Z" })
      .execute();
    const mid = await state(a, b);
    const remote = await accept(b, jwt);
    expect(remote.statusCode).toBe(400);
    expect(remote.json().message).toMatch(/inviting console refused.*expired/);
    expect(await state(a, b)).toEqual(mid);
  });

  it("lets exactly one of two concurrent accepts win, and refuses the invitation once used", async () => {
    const jwt = await invite(a);
    const [rb, rc] = await Promise.all([accept(b, jwt), accept(c, jwt)]);
    const codes = [rb.statusCode, rc.statusCode].sort();
    expect(codes, `${rb.body} ${rc.body}`).toEqual([200, 409]);
    const loser = rb.statusCode === 409 ? rb : rc;
    expect(loser.json().message).toMatch(/already used/);
    const winner = rb.statusCode === 200 ? b : c;
    const other = winner === b ? c : b;
    expect(await statusOn(a, winner.id.nodeId)).toBe("connected");
    expect(await statusOn(a, other.id.nodeId)).toBeUndefined();
    expect(await statusOn(other, a.id.nodeId)).toBeUndefined();

    const before = await state(a, b, c);
    const reused = await accept(other, jwt);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().message).toMatch(/already used/);
    expect(await state(a, b, c)).toEqual(before);
    // B ends up connected for the message tests below.
    if (winner !== b) expect((await accept(b, await invite(a))).statusCode).toBe(200);
    expect(await statusOn(a, b.id.nodeId)).toBe("connected");
  });

  it("accepts a signed message once and refuses its replay", async () => {
    const headers = signedHeaders(b.id, { to: a.id.nodeId, method: "GET", path: "/federation/ping" });
    const first = await toA(headers, "GET", "/federation/ping");
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().node_id).toBe(a.id.nodeId);
    const replay = await toA(headers, "GET", "/federation/ping");
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toMatch(/nonce was already used/);
  });

  it("refuses unknown, forged, stale, misaddressed, altered and unsigned messages and changes nothing", async () => {
    const before = await state(a);
    const stranger = strangerIdentity();
    const ping = { to: a.id.nodeId, method: "GET", path: "/federation/ping" } as const;
    const cases: [string, Record<string, string>, RegExp][] = [
      ["unknown key", signedHeaders(stranger, ping), /unknown sender/],
      ["B's id, another key", signedHeaders(stranger, { ...ping, from: b.id.nodeId }), /signature is not valid/],
      [
        "stale timestamp",
        signedHeaders(b.id, { ...ping, timestamp: Math.floor(Date.now() / 1000) - 600 }),
        /timestamp is more than 5 minutes/,
      ],
      ["another recipient", signedHeaders(b.id, { ...ping, to: c.id.nodeId }), /addressed to/],
      ["no signature", {}, /must carry/],
    ];
    for (const [what, headers, message] of cases) {
      const res = await toA(headers, "GET", "/federation/ping");
      expect(res.statusCode, what).toBe(401);
      expect(res.json().message, what).toMatch(message);
      // No refusal names a node id: not A's, nor the one a forger claims, nor the one it addressed.
      for (const id of [a.id.nodeId, b.id.nodeId, c.id.nodeId, stranger.nodeId])
        expect(res.body, what).not.toContain(id);
    }
    // An unknown sender and a known one with a bad signature get the same answer.
    const unknown = await toA(signedHeaders(stranger, ping), "GET", "/federation/ping");
    const impostor = await toA(signedHeaders(stranger, { ...ping, from: b.id.nodeId }), "GET", "/federation/ping");
    expect(unknown.json().message).toBe(impostor.json().message);
    // A guess at the recipient's id learns nothing either.
    const guess = await toA(
      signedHeaders(stranger, { ...ping, to: `cl-${"0".repeat(32)}` }),
      "GET",
      "/federation/ping",
    );
    expect(guess.statusCode).toBe(401);
    expect(guess.body).not.toContain(a.id.nodeId);
    // A signed revoke whose path is changed, and a handshake whose body is changed after signing.
    const revoke = signedHeaders(b.id, { to: a.id.nodeId, method: "POST", path: "/federation/ping" });
    expect((await toA(revoke, "POST", "/federation/revoke")).statusCode).toBe(401);
    const body = {
      invitation_nonce: "A".repeat(22),
      node_id: b.id.nodeId,
      public_key: b.id.publicKey,
      endpoint: b.url,
    };
    const hs = signedHeaders(b.id, {
      to: a.id.nodeId,
      method: "POST",
      path: "/federation/handshake",
      body: JSON.stringify(body),
    });
    const altered = await toA(hs, "POST", "/federation/handshake", JSON.stringify({ ...body, endpoint: "http://x" }));
    expect(altered.statusCode).toBe(401);
    expect(altered.json().message).toMatch(/signature is not valid/);
    // Properly signed, but not an invitation of A.
    const hs2 = signedHeaders(b.id, {
      to: a.id.nodeId,
      method: "POST",
      path: "/federation/handshake",
      body: JSON.stringify(body),
    });
    const unknownInvite = await toA(hs2, "POST", "/federation/handshake", JSON.stringify(body));
    expect(unknownInvite.statusCode).toBe(403);
    expect(await state(a)).toEqual(before);
  });

  it("disconnecting revokes on both sides; afterwards messages are refused both ways", async () => {
    expect(await statusOn(b, a.id.nodeId)).toBe("connected");
    const res = await a.api("DELETE", `/node/connected-peers/${b.id.nodeId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toMatch(/revoked the connection too/);
    expect(await statusOn(a, b.id.nodeId)).toBe("revoked");
    expect(await statusOn(b, a.id.nodeId)).toBe("revoked");

    const before = await state(a, b);
    const ping = await toA(
      signedHeaders(b.id, { to: a.id.nodeId, method: "GET", path: "/federation/ping" }),
      "GET",
      "/federation/ping",
    );
    expect(ping.statusCode).toBe(403);
    expect(ping.json().message).toMatch(/revoked/);
    expect(ping.body).not.toContain(b.id.nodeId);
    // Only the revoked console's own key learns that it is revoked: a forger naming B gets the plain 401.
    const forged = await toA(
      signedHeaders(strangerIdentity(), {
        from: b.id.nodeId,
        to: a.id.nodeId,
        method: "GET",
        path: "/federation/ping",
      }),
      "GET",
      "/federation/ping",
    );
    expect(forged.statusCode).toBe(401);
    expect(forged.json().message).not.toMatch(/revoked/);
    const sync = await b.api("POST", "/node/sync-external-nodes", { peer_node_id: a.id.nodeId });
    expect(sync.statusCode).toBe(409);
    expect(sync.json().message).toMatch(/revoked/);
    const live = await a.api("GET", `/node/connected-peers/${b.id.nodeId}/nodes`);
    expect(live.statusCode).toBe(409);
    // The ping loop leaves revoked connections alone.
    await new Promise((r) => setTimeout(r, 500));
    expect(await state(a, b)).toEqual(before);
    expect((await a.api("DELETE", `/node/connected-peers/cl-${"0".repeat(32)}`)).statusCode).toBe(404);
  });

  it("never quotes what a self-made invitation's endpoint answered (manager session and API key)", async () => {
    // A manager can sign an invitation with a key of their own and name any endpoint: here a loopback
    // service that answers JSON that is not a console's error envelope.
    const leak = createServer((_req, res) => {
      res.writeHead(403, { "content-type": "application/json" }).end(JSON.stringify({ message: "SECRET-BODY" }));
    });
    await new Promise<void>((r) => leak.listen(0, "127.0.0.1", r));
    const endpoint = `http://127.0.0.1:${(leak.address() as AddressInfo).port}`;
    try {
      for (const caller of await managerCallers(a.t, `fedmgr${Date.now() % 100000}`)) {
        const res = await a.t.app.inject({
          method: "POST",
          url: "/api/v1/node/accept-invitation",
          headers: caller.headers,
          payload: { invitation_jwt: forgeInvitation(strangerIdentity(), { endpoint }) },
        });
        expect(res.statusCode, `${caller.label}: ${res.body}`).toBe(400);
        expect(res.json().message).toMatch(/HTTP 403 Forbidden/);
        expect(res.body).not.toContain("SECRET-BODY");
        expect(await auditRowOf(a.t, res)).toMatchObject({ type: "federation.invitation_accept", outcome: "FAILURE" });
      }
    } finally {
      leak.close();
    }
  });

  it("shows a console that went away as unreachable", async () => {
    if ((await statusOn(a, c.id.nodeId)) !== "connected") {
      expect((await accept(c, await invite(a))).statusCode).toBe(200);
    }
    expect(await statusOn(a, c.id.nodeId)).toBe("connected");
    await c.t.close();
    cClosed = true;
    // A ping that lands while C is shutting down gets C's 503; the pings after it can't reach C at all.
    const peer = await waitFor(
      "C unreachable on A, with a ping that could not reach it",
      async () => {
        const p = (await a.api("GET", "/node/connected-peers"))
          .json()
          .connected_peers.find((x: { node_id: string }) => x.node_id === c.id.nodeId);
        return p && /could not reach/.test(p.last_error ?? "") ? p : undefined;
      },
      10_000,
    );
    expect(await statusOn(a, c.id.nodeId)).toBe("unreachable");
    expect(peer.last_error).toMatch(/could not reach the console at /);
  });
});
