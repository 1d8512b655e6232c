import { randomBytes } from "node:crypto";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import {
  ConflictError,
  ForbiddenError,
  InputError,
  NotFoundError,
  UpstreamError,
  errorMessage,
} from "../../http/errors.js";
import type { FederationClient, FederationReply } from "./federation.client.js";
import {
  NODE_ID_PATTERN,
  b64url,
  decodeJws,
  fromB64url,
  nodeIdOf,
  publicKeyFromB64url,
  signJws,
  verifyEd25519,
} from "./federation.crypto.js";
import type { IdentityService } from "./federation.identity.js";
import type { PeerGrants } from "./federation.metrics.js";
import { REPLAY_WINDOW_MS } from "./federation.verify.js";
import type { ConnectionRow, FederationRepo } from "./federation.repo.js";
import type { ConnectedPeer, IdentityResponse } from "./federation.schema.js";
import { handshakeResponse, type HandshakeBody } from "./federation.wire.js";

const DEFAULT_EXPIRY_HOURS = 24;

const invitationClaims = lazySchema(() =>
  z.object({
    iss: z.string().regex(NODE_ID_PATTERN, "must be a console node id"),
    endpoint: z
      .string()
      .max(2048)
      .regex(/^https?:\/\/[^\s]+$/, "must be an http(s) URL"),
    pub: z.string().max(64),
    nonce: z.string().regex(/^[A-Za-z0-9_-]{22}$/, "must be a 128-bit base64url nonce"),
    iat: z.number().int(),
    exp: z.number().int(),
    bidirectional: z.boolean().optional(),
  }),
);

function toPeer(row: ConnectionRow, grantsUs: boolean | undefined): ConnectedPeer {
  return {
    id: row.id,
    node_id: row.node_id,
    peer_endpoint: row.endpoint,
    peer_public_key: row.public_key,
    status: row.status as ConnectedPeer["status"],
    metrics_federation: row.metrics_federation === 1,
    peer_grants_metrics: grantsUs ?? null,
    analytics_enabled: false,
    last_seen_at: row.last_seen_at,
    last_error: row.last_error,
  };
}

/** A refusal from the other console, as our own error: its 409 stays a 409, other 4xx become 400s. */
export function remoteRefusal(what: string, reply: FederationReply): Error {
  const message = `${what}: ${reply.message}`;
  if (reply.status === 409) return new ConflictError(message);
  if (reply.status >= 400 && reply.status < 500) return new InputError(message);
  return new UpstreamError(message);
}

/**
 * Identity, invitations and connections (docs/federation.md); inbound requests are checked by
 * federation.verify.ts before any of this runs. Network calls happen outside transactions; the
 * invitation is consumed and the connection registered in one.
 */
export function createFederationService(deps: {
  repo: FederationRepo;
  identity: IdentityService;
  client: FederationClient;
  /** What each connected console last said about granting us metrics federation. */
  peerGrants?: Pick<PeerGrants, "get">;
  now?: () => number;
}) {
  const { repo, identity, client } = deps;
  const now = deps.now ?? Date.now;
  const iso = (ms = now()): string => new Date(ms).toISOString();

  async function mustConnection(nodeId: string): Promise<ConnectionRow> {
    const row = await repo.connection(nodeId);
    if (!row) throw new NotFoundError(`no connected console with node id ${nodeId}`);
    return row;
  }

  return {
    nodeId: async (): Promise<string> => (await identity.identity()).nodeId,

    async describe(): Promise<IdentityResponse> {
      const me = await identity.identity();
      return { node_id: me.nodeId, public_key: me.publicKey, endpoint: await identity.endpoint() };
    },

    async generateInvitation(o: {
      bidirectional: boolean;
      expiresInHours?: number | undefined;
      createdBy: string | null;
    }): Promise<{ jwt: string; nonce: string; expiresAt: string }> {
      const endpoint = await identity.requireEndpoint();
      const me = await identity.identity();
      const nonce = b64url(randomBytes(16));
      const iat = Math.floor(now() / 1000);
      const exp = iat + (o.expiresInHours ?? DEFAULT_EXPIRY_HOURS) * 3600;
      await repo.insertInvitation({
        nonce,
        bidirectional: o.bidirectional ? 1 : 0,
        expires_at: iso(exp * 1000),
        used_at: null,
        used_by_node_id: null,
        created_by: o.createdBy,
        created_at: iso(iat * 1000),
      });
      const claims = { iss: me.nodeId, endpoint, pub: me.publicKey, nonce, iat, exp, bidirectional: o.bidirectional };
      return { jwt: signJws(claims, me.privateKey), nonce, expiresAt: iso(exp * 1000) };
    },

    /**
     * Verifies an invitation (signature by the key it carries, iss derived from that key, expiry),
     * then asks the inviter to register us with a signed handshake carrying the invitation nonce;
     * only when it agrees is the inviter registered here.
     */
    async acceptInvitation(jwt: string): Promise<{ nodeId: string; endpoint: string; message: string }> {
      const decoded = decodeJws(jwt);
      if (typeof decoded === "string") throw new InputError(`invitation_jwt: ${decoded}`);
      if (decoded.header.alg !== "EdDSA") throw new InputError("invitation_jwt: the header's alg must be EdDSA");
      const parsed = invitationClaims.safeParse(decoded.claims);
      if (!parsed.success) {
        const i = parsed.error.issues[0];
        throw new InputError(`invitation_jwt: claim ${i?.path.join(".") ?? "?"} ${i?.message ?? "is invalid"}`);
      }
      const c = parsed.data;
      const key = publicKeyFromB64url(c.pub);
      if (!key) throw new InputError("invitation_jwt: claim pub is not a raw Ed25519 public key (base64url)");
      if (!verifyEd25519(key, decoded.signingInput, decoded.signature)) {
        throw new InputError(
          "invitation_jwt: the signature does not match the invitation's contents: it was altered or is not from the console it names",
        );
      }
      if (nodeIdOf(fromB64url(c.pub) as Buffer) !== c.iss) {
        throw new InputError("invitation_jwt: claim iss is not the node id of the key in claim pub");
      }
      if (c.exp * 1000 <= now()) throw new InputError(`invitation_jwt: the invitation expired at ${iso(c.exp * 1000)}`);
      if (c.iat * 1000 > now() + REPLAY_WINDOW_MS) {
        throw new InputError(`invitation_jwt: it was issued in the future (${iso(c.iat * 1000)}); check both clocks`);
      }
      const me = await identity.identity();
      if (c.iss === me.nodeId) throw new InputError("invitation_jwt: this console generated the invitation itself");
      const myEndpoint = await identity.requireEndpoint();
      const body: HandshakeBody = {
        invitation_nonce: c.nonce,
        node_id: me.nodeId,
        public_key: me.publicKey,
        endpoint: myEndpoint,
      };
      const reply = await client.send({
        endpoint: c.endpoint,
        to: c.iss,
        method: "POST",
        path: "/federation/handshake",
        body,
      });
      if (reply.status !== 200) throw remoteRefusal(`the inviting console refused the invitation`, reply);
      const ok = handshakeResponse.safeParse(reply.data);
      if (!ok.success || ok.data.node_id !== c.iss) {
        throw new UpstreamError(`the console at ${c.endpoint} answered the handshake as another node than ${c.iss}`);
      }
      await repo.upsertConnection({ node_id: c.iss, endpoint: c.endpoint, public_key: c.pub, now: iso() });
      return { nodeId: c.iss, endpoint: c.endpoint, message: `connected with ${c.iss} at ${c.endpoint}` };
    },

    /**
     * The inviter's side of the handshake (the signature with the key in the body is already
     * verified): consumes the invitation in one conditional UPDATE and registers the sender in the
     * same transaction; a refusal changes nothing.
     */
    async receiveHandshake(body: HandshakeBody): Promise<{ node_id: string }> {
      const me = await identity.identity();
      const at = iso();
      await repo.transaction(async (trx) => {
        if (!(await repo.consumeInvitation(body.invitation_nonce, body.node_id, at, trx))) {
          const inv = await repo.invitationByNonce(body.invitation_nonce, trx);
          if (!inv) throw new ForbiddenError("the invitation is not one this console issued");
          if (inv.used_at) throw new ConflictError(`the invitation was already used (at ${inv.used_at})`);
          throw new InputError(`the invitation expired at ${inv.expires_at}`);
        }
        await repo.upsertConnection(
          { node_id: body.node_id, endpoint: body.endpoint, public_key: body.public_key, now: at },
          trx,
        );
      });
      return { node_id: me.nodeId };
    },

    async listPeers(): Promise<ConnectedPeer[]> {
      return (await repo.listConnections()).map((row) => toPeer(row, deps.peerGrants?.get(row.node_id)));
    },

    /** Connection that may be talked to: known and not revoked. */
    async usableConnection(nodeId: string): Promise<ConnectionRow> {
      const row = await mustConnection(nodeId);
      if (row.status === "revoked") throw new ConflictError(`the connection with ${nodeId} is revoked`);
      return row;
    },

    /**
     * Tells the other console (best effort, signed) and marks the connection revoked here; from
     * then on either side refuses the other's messages.
     */
    async disconnect(nodeId: string): Promise<{ message: string; notified: boolean }> {
      const row = await mustConnection(nodeId);
      if (row.status === "revoked")
        return { message: `the connection with ${nodeId} was already revoked`, notified: false };
      let notified = false;
      let why = "";
      try {
        const reply = await client.send({
          endpoint: row.endpoint,
          to: nodeId,
          method: "POST",
          path: "/federation/revoke",
          timeoutMs: 5000,
        });
        notified = reply.status === 200;
        if (!notified) why = reply.message;
      } catch (err) {
        why = errorMessage(err);
      }
      await repo.revoke(nodeId, iso(), "revoked by this console");
      return {
        message: notified
          ? `disconnected from ${nodeId}; it revoked the connection too`
          : `disconnected from ${nodeId}; it could not be told (${why}) and will be refused from now on`,
        notified,
      };
    },

    async receiveRevoke(sender: string): Promise<void> {
      await repo.revoke(sender, iso(), "revoked by the other console");
    },

    async touch(sender: string): Promise<void> {
      await repo.setReachability(sender, true, iso(), null);
    },

    /** Marks a verified sender connected and returns its connection. */
    async touchAndGet(sender: string): Promise<ConnectionRow> {
      await repo.setReachability(sender, true, iso(), null);
      return mustConnection(sender);
    },

    /** Forgets message nonces older than twice the window (older timestamps are refused anyway). */
    pruneNonces: (): Promise<void> => repo.pruneNonces(iso(now() - 2 * REPLAY_WINDOW_MS)),
  };
}

export type FederationService = ReturnType<typeof createFederationService>;
