import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { InputError } from "../../http/errors.js";
import { MAX_JSON_DEPTH, findNul, jsonDepthExceeds } from "../../http/json-body.js";
import type { ExternalNodesService } from "./external-nodes.service.js";
import type { FederationService } from "./federation.service.js";
import type { InboundVerifier } from "./federation.verify.js";
import type { KeySharing } from "./key-sharing.js";
import type { NetworkShares } from "./sharing.receive.js";
import type { NetworkShareSender } from "./sharing.send.js";
import {
  MAX_SHARE_BODY_BYTES,
  wireKeyShare,
  wireNetworkShare,
  wireShareAnswer,
  wireShareReceipt,
} from "./sharing.wire.js";
import {
  HEADERS,
  ackResponse,
  handshakeBody,
  handshakeResponse,
  pingResponse,
  wireInventory,
} from "./federation.wire.js";

const tags = ["Federation"];
const PREFIX = "/api/v1";
/** Routes whose signature covers the query string as sent too (their input is in it: GET /node/forward-metrics). */
const SIGNED_QUERY_PATHS = new Set(["/node/forward-metrics"]);

export const signatureHeaders = lazySchema(() =>
  z
    .object({
      [HEADERS.from]: z.string().max(64).optional().describe("Sender's node id"),
      [HEADERS.to]: z.string().max(64).optional().describe("Recipient's node id"),
      [HEADERS.timestamp]: z.string().max(16).optional().describe("Unix seconds when it was signed"),
      [HEADERS.nonce]: z.string().max(64).optional().describe("128-bit random, base64url, never reused"),
      [HEADERS.signature]: z
        .string()
        .max(128)
        .optional()
        .describe("Ed25519 signature of the canonical string, base64url"),
    })
    .describe("The request's signature (docs/federation.md); checked before the handler runs"),
);

/**
 * More signed routes, registered by another file inside the same verified context: `sender` gives the
 * verified sender of a request.
 */
export type SignedRoutes = (f: FastifyInstance, sender: (req: FastifyRequest) => string) => void;

/**
 * /federation/*: what consoles call on each other. No user is involved ("public" in the permission
 * table): every request is authenticated by its Ed25519 signature instead, checked in a preValidation hook
 * over the raw body bytes, which this encapsulated context's JSON parser keeps.
 */
export function registerFederationInboundRoutes(
  api: FastifyInstance,
  svc: FederationService,
  external: ExternalNodesService,
  verifier: InboundVerifier,
  sharing: { networks: NetworkShares; keys: KeySharing; answers: NetworkShareSender },
  more: SignedRoutes[] = [],
): void {
  const raw = new WeakMap<FastifyRequest, Buffer>();
  const senders = new WeakMap<FastifyRequest, string>();
  const sender = (req: FastifyRequest): string => senders.get(req) ?? "";

  void api.register(async (f) => {
    f.removeContentTypeParser("application/json");
    // Fastify's own parser (prototype-poisoning protection) over the text; the bytes are kept for the signature.
    const parse = f.getDefaultJsonParser("error", "error");
    /** The route as signed: its pattern below /api/v1, with the query for the routes that sign it. */
    const signedPath = (req: FastifyRequest): string => {
      const route = (req.routeOptions.url ?? "").replace(PREFIX, "");
      const q = req.url.indexOf("?");
      return SIGNED_QUERY_PATHS.has(route) && q >= 0 ? route + req.url.slice(q) : route;
    };
    const verify = async (req: FastifyRequest, rawBody: Buffer, handshakeKey?: string): Promise<void> => {
      const from = await verifier.verify({
        method: req.method,
        path: signedPath(req),
        headers: req.headers,
        rawBody,
        ...(handshakeKey !== undefined ? { handshakeKey } : {}),
      });
      senders.set(req, from);
      req.auditInfo.resource = `federation_peer:${from}`;
    };
    f.addContentTypeParser("application/json", { parseAs: "buffer" }, (req, body, done) => {
      const buf = body as Buffer;
      raw.set(req, buf);
      const parseBody = (): void => {
        const text = buf.toString("utf8");
        if (text.trim() === "") return done(null, undefined);
        if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) return done(new InputError("body: JSON nests too deep"), undefined);
        parse(req, text, (err, value) => {
          if (err) return done(err, undefined);
          const nul = findNul(value);
          if (nul) return done(new InputError(`${nul}: must not contain the NUL character`), undefined);
          done(null, value);
        });
      };
      // The handshake's key is inside its body, so it is parsed first; any other body is parsed only once
      // its signature holds (an unsigned request can't make the console parse megabytes of JSON).
      if (signedPath(req) === "/federation/handshake") return parseBody();
      verify(req, buf).then(parseBody, (err: unknown) => done(err as Error, undefined));
    });
    // After parsing, before validation: an unsigned request is refused as such, not for its body. Bodies other
    // than the handshake's were verified while parsed; requests without a JSON body are verified here.
    f.addHook("preValidation", async (req) => {
      if (senders.has(req)) return;
      const body = req.body as { public_key?: unknown } | undefined;
      await verify(
        req,
        raw.get(req) ?? Buffer.alloc(0),
        signedPath(req) === "/federation/handshake"
          ? typeof body?.public_key === "string"
            ? body.public_key
            : ""
          : undefined,
      );
    });

    const r = f.withTypeProvider<ZodTypeProvider>();
    r.post(
      "/federation/handshake",
      {
        config: { access: "public", audit: "federation.handshake" },
        schema: {
          operationId: "federationHandshake",
          tags,
          summary: "Console to console: accept an invitation of this console (signed with the key in the body)",
          headers: signatureHeaders,
          body: handshakeBody,
          response: { 200: handshakeResponse },
        },
      },
      async (req) => {
        if (req.body.node_id !== sender(req)) throw new InputError("body.node_id: is not the signing node");
        req.auditInfo.details = { peer_endpoint: req.body.endpoint };
        return svc.receiveHandshake(req.body);
      },
    );
    r.get(
      "/federation/ping",
      {
        config: { access: "public" },
        schema: {
          operationId: "federationPing",
          tags,
          summary: "Console to console: liveness of a connection (signed)",
          headers: signatureHeaders,
          response: { 200: pingResponse },
        },
      },
      async (req) => {
        const from = await svc.touchAndGet(sender(req));
        return {
          node_id: await svc.nodeId(),
          time: new Date().toISOString(),
          metrics_federation: from.metrics_federation === 1,
        };
      },
    );
    r.get(
      "/federation/nodes",
      {
        config: { access: "public" },
        schema: {
          operationId: "federationNodes",
          tags,
          summary: "Console to console: this console's organizations and nodes, public material only (signed)",
          headers: signatureHeaders,
          response: { 200: wireInventory },
        },
      },
      async (req) => {
        await svc.touch(sender(req));
        return external.inventory();
      },
    );
    r.post(
      "/federation/revoke",
      {
        config: { access: "public", audit: "federation.revoke_received" },
        schema: {
          operationId: "federationRevoke",
          tags,
          summary: "Console to console: the sender disconnected; it is refused from now on (signed)",
          headers: signatureHeaders,
          response: { 200: ackResponse },
        },
      },
      async (req) => {
        await svc.receiveRevoke(sender(req));
        return { message: "connection revoked" };
      },
    );
    r.post(
      "/federation/shares/network",
      {
        bodyLimit: MAX_SHARE_BODY_BYTES,
        config: { access: "public", audit: "federation.share_received" },
        schema: {
          operationId: "federationReceiveNetworkShare",
          tags,
          summary: "Console to console: a network shared with this console; stored as pending (signed)",
          headers: signatureHeaders,
          body: wireNetworkShare,
          response: { 200: wireShareReceipt },
        },
      },
      async (req) => {
        req.auditInfo.details = { kind: `${req.body.platform}_network`, name: req.body.name };
        const from = await svc.touchAndGet(sender(req));
        const res = await sharing.networks.receive(from, req.body);
        req.auditInfo.details = { ...req.auditInfo.details, share_id: res.shareId };
        return res;
      },
    );
    r.post(
      "/federation/shares/key",
      {
        config: { access: "public", audit: "federation.share_received" },
        schema: {
          operationId: "federationReceiveKeyShare",
          tags,
          summary: "Console to console: a public key shared with this console (signed)",
          headers: signatureHeaders,
          body: wireKeyShare,
          response: { 200: wireShareReceipt },
        },
      },
      async (req) => {
        req.auditInfo.details = { kind: "key", name: req.body.name };
        const from = await svc.touchAndGet(sender(req));
        const res = await sharing.keys.receive(from, req.body);
        req.auditInfo.details = { ...req.auditInfo.details, share_id: res.shareId };
        return res;
      },
    );
    r.post(
      "/federation/shares/answer",
      {
        config: { access: "public", audit: "federation.share_answer_received" },
        schema: {
          operationId: "federationReceiveShareAnswer",
          tags,
          summary: "Console to console: a recipient accepted or rejected a network this console shared (signed)",
          headers: signatureHeaders,
          body: wireShareAnswer,
          response: { 200: wireShareReceipt },
        },
      },
      async (req) => {
        req.auditInfo.details = { share_id: req.body.shareId, status: req.body.status };
        const from = await svc.touchAndGet(sender(req));
        return sharing.answers.receiveAnswer(from, req.body);
      },
    );
    for (const add of more) add(f, sender);
  });
}
