import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";
import { ConflictError, InputError } from "../../http/errors.js";
import { chaincodeProposalWire } from "../governance/chaincode-proposals.wire.js";
import { proposalWire, signatureWire } from "../governance/governance.inbound.js";
import type { GovernanceUpstream } from "../governance/governance.upstream.js";
import type { ChaincodeSharing } from "./chaincode-sharing.js";
import type { ExternalNodesService } from "./external-nodes.service.js";
import { signatureHeaders, type SignedRoutes } from "./federation.inbound.routes.js";
import type { FederationService } from "./federation.service.js";
import type { KeySharing } from "./key-sharing.js";
import type { NetworkShares } from "./sharing.receive.js";
import { MAX_SHARE_BODY_BYTES, wireKeyShare, wireNetworkShare } from "./sharing.wire.js";
import { keyShareOf, legacyKeyShareOf, networkShareOf } from "./upstream.map.js";
import type { UpstreamNodeService } from "./upstream.service.js";
import { registerNodeRoutes } from "./upstream.node-inbound.js";
import {
  MAX_MESSAGE_BYTES,
  bytesOf,
  messageReceipt,
  receiveChaincodeBody,
  receiveConfigUpdateBody,
  receiveKeyBody,
  receiveKeyLegacyBody,
  receiveKeyLegacyResponse,
  receiveNetworkBody,
  sameSender,
  upstreamMessage,
  upstreamResponse,
  type MessageSubType,
} from "./upstream.wire.js";

const tags = ["Federation"];

/** upstream's signed routes (below /api/v1): public in the permission table, 401 to an unsigned call. */
export const UPSTREAM_SIGNED_PATHS: ReadonlySet<string> = new Set([
  "/pro/receive",
  "/pro/receive/network",
  "/pro/receive/key",
  "/pro/key/receive",
  "/pro/receive/chaincode",
  "/pro/receive/config-update",
  "/node/external-nodes",
  "/node/metrics-enabled",
  "/node/forward-metrics",
]);

export interface UpstreamInboundDeps {
  svc: Pick<FederationService, "touchAndGet">;
  external: Pick<ExternalNodesService, "inventory">;
  networks: Pick<NetworkShares, "receive">;
  keys: Pick<KeySharing, "receive">;
  chaincodes: Pick<ChaincodeSharing, "receive">;
  node: Pick<UpstreamNodeService, "metricsEnabled" | "forwardMetrics">;
  governance?: GovernanceUpstream | undefined;
}

/**
 * Parses a message payload with the subType's schema; a refusal names the field inside the payload. As
 * for bodies (http/go-nulls.ts), a Go `null` where the schema wants an optional value reads as absent.
 */
function payloadAs<T extends z.ZodType>(schema: T, bytes: Buffer): z.infer<T> {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new InputError("body.payload: is not JSON");
  }
  for (let round = 0; ; round++) {
    const r = schema.safeParse(json);
    if (r.success) return r.data;
    const nulls = r.error.issues.filter(
      (i) => i.code === "invalid_type" && i.path.length > 0 && valueAt(json, i.path) === null,
    );
    if (round >= 8 || nulls.length === 0) {
      const issue = r.error.issues[0];
      throw new InputError(`body.payload.${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}`);
    }
    for (const i of nulls) {
      const parent = valueAt(json, i.path.slice(0, -1));
      if (parent && typeof parent === "object" && !Array.isArray(parent))
        delete (parent as Record<PropertyKey, unknown>)[i.path[i.path.length - 1]!];
    }
  }
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let v = root;
  for (const k of path) {
    if (!v || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/**
 * upstream's console-to-console routes, served inside the signed context of /federation/* (same
 * verifier: headers, recipient, window, known sender, signature, revocation, nonce) and dispatched
 * to the same receivers (docs/federation-upstream.md).
 */
export function upstreamInboundRoutes(deps: UpstreamInboundDeps): SignedRoutes {
  const governance = (): GovernanceUpstream => {
    if (!deps.governance) throw new ConflictError("governance is not available on this console");
    return deps.governance;
  };

  /** One handler per subType: what /pro/receive dispatches to. */
  async function dispatch(from: string, subType: MessageSubType, payload: Buffer): Promise<unknown> {
    switch (subType) {
      case "ShareNetwork":
      case "ShareBesuNetwork": {
        const body = payloadAs(wireNetworkShare, payload);
        const want = subType === "ShareNetwork" ? "fabric" : "besu";
        if (body.platform !== want) throw new InputError(`body.payload.platform: ${subType} carries a ${want} network`);
        return deps.networks.receive(await deps.svc.touchAndGet(from), body);
      }
      case "ShareKey":
        return deps.keys.receive(await deps.svc.touchAndGet(from), payloadAs(wireKeyShare, payload));
      case "ShareConfigUpdate":
        return governance().receiveProposal(from, payloadAs(proposalWire, payload));
      case "ShareSignature":
        return governance().receiveSignature(from, payloadAs(signatureWire, payload));
      case "ShareChaincodeDefinition":
        return governance().receiveChaincodeProposal(from, payloadAs(chaincodeProposalWire, payload));
    }
  }

  return (f: FastifyInstance, sender: (req: FastifyRequest) => string) => {
    const r = f.withTypeProvider<ZodTypeProvider>();
    registerNodeRoutes(f, sender, deps);
    r.post(
      "/pro/receive",
      {
        bodyLimit: MAX_MESSAGE_BYTES,
        config: { access: "public", audit: "federation.message_received" },
        schema: {
          operationId: "receiveGovernanceMessage",
          tags,
          summary: "Console to console: upstream's message envelope, dispatched by subType (signed)",
          description:
            "The payload is the JSON of the message this console's own route for that subType takes: ShareNetwork and ShareBesuNetwork as POST /federation/shares/network, ShareKey as /federation/shares/key, ShareConfigUpdate as /federation/governance/proposals, ShareSignature as /federation/governance/signatures, ShareChaincodeDefinition as /federation/governance/chaincode-proposals.",
          headers: signatureHeaders,
          body: upstreamMessage,
          response: { 200: messageReceipt },
        },
      },
      async (req) => {
        sameSender("body.sender_id", req.body.sender_id, sender(req));
        req.auditInfo.details = { sub_type: req.body.subType, message_id: req.body.id ?? null };
        const res = await dispatch(sender(req), req.body.subType, bytesOf(req.body.payload));
        req.auditInfo.details = { ...req.auditInfo.details, result: res as Record<string, unknown> };
        return { success: true };
      },
    );
    r.post(
      "/pro/receive/network",
      {
        bodyLimit: MAX_SHARE_BODY_BYTES,
        config: { access: "public", audit: "federation.share_received" },
        schema: {
          operationId: "receiveNetworkShare",
          tags,
          summary: "Console to console: a network shared in upstream's shape; stored as pending (signed)",
          headers: signatureHeaders,
          body: receiveNetworkBody,
          response: { 200: upstreamResponse },
        },
      },
      async (req) => {
        sameSender("body.peerNodeId", req.body.peerNodeId, sender(req));
        req.auditInfo.details = { kind: `${req.body.platform.toLowerCase()}_network`, name: req.body.name };
        const res = await deps.networks.receive(await deps.svc.touchAndGet(sender(req)), networkShareOf(req.body));
        req.auditInfo.details = { ...req.auditInfo.details, share_id: res.shareId };
        return { message: "network share received", data: res };
      },
    );
    r.post(
      "/pro/receive/key",
      {
        config: { access: "public", audit: "federation.share_received" },
        schema: {
          operationId: "receiveKeyShare",
          tags,
          summary: "Console to console: a public key shared in upstream's shape (signed)",
          headers: signatureHeaders,
          body: receiveKeyBody,
          response: { 200: upstreamResponse },
        },
      },
      async (req) => {
        sameSender("body.senderId", req.body.senderId, sender(req));
        req.auditInfo.details = { kind: "key", name: req.body.name };
        const res = await deps.keys.receive(await deps.svc.touchAndGet(sender(req)), keyShareOf(req.body));
        req.auditInfo.details = { ...req.auditInfo.details, share_id: res.shareId };
        return { message: "key share received", data: res };
      },
    );
    r.post(
      "/pro/key/receive",
      {
        config: { access: "public", audit: "federation.share_received" },
        schema: {
          operationId: "receiveKey",
          tags,
          summary: "Console to console: a public key in upstream's pro.ReceiveKeyRequest shape (signed)",
          headers: signatureHeaders,
          body: receiveKeyLegacyBody,
          response: { 200: receiveKeyLegacyResponse },
        },
      },
      async (req) => {
        req.auditInfo.details = { kind: "key", name: req.body.name };
        const res = await deps.keys.receive(await deps.svc.touchAndGet(sender(req)), legacyKeyShareOf(req.body));
        req.auditInfo.details = { ...req.auditInfo.details, share_id: res.shareId };
        return { success: true, key_id: res.shareId };
      },
    );
    r.post(
      "/pro/receive/chaincode",
      {
        config: { access: "public", audit: "federation.share_received" },
        schema: {
          operationId: "receiveChaincodeShare",
          tags,
          summary: "Console to console: a chaincode definition shared with this console (signed)",
          headers: signatureHeaders,
          body: receiveChaincodeBody,
          response: { 200: upstreamResponse },
        },
      },
      async (req) => {
        sameSender("body.senderId", req.body.senderId, sender(req));
        req.auditInfo.details = { kind: "chaincode", chaincode_id: req.body.chaincodeId, version: req.body.version };
        const res = await deps.chaincodes.receive(await deps.svc.touchAndGet(sender(req)), req.body);
        req.auditInfo.details = { ...req.auditInfo.details, share_id: res.shareId };
        return { message: "chaincode share received", data: res };
      },
    );
    r.post(
      "/pro/receive/config-update",
      {
        bodyLimit: MAX_SHARE_BODY_BYTES,
        config: { access: "public", audit: "governance.proposal_received" },
        schema: {
          operationId: "receiveConfigUpdateShare",
          tags,
          summary: "Console to console: a config-update proposal in upstream's shape (signed)",
          description:
            "Upstream's shape carries the update but not the config it was computed against, so this console reads the channel's config from its own nodes: 409 when it has no running node of the channel.",
          headers: signatureHeaders,
          body: receiveConfigUpdateBody,
          response: { 200: upstreamResponse },
        },
      },
      async (req) => {
        sameSender("body.senderId", req.body.senderId, sender(req));
        req.auditInfo.resource = `proposal:${req.body.proposalId}`;
        const g = governance();
        const config = await g.channelConfig(req.body.channelName);
        if (!config) {
          throw new ConflictError(
            `body.channelName: this console has no running node of channel ${req.body.channelName} to read the config the update applies to`,
          );
        }
        const meta = req.body.metadata ?? {};
        const res = await g.receiveProposal(sender(req), {
          proposal_id: req.body.proposalId,
          channel_name: req.body.channelName,
          proposal_type: (meta.proposalType ?? "config_update").slice(0, 64),
          operations: [],
          update_b64: bytesOf(req.body.configUpdate).toString("base64"),
          config_b64: Buffer.from(config.serializeBinary()).toString("base64"),
          config_sequence: config.getSequence(),
          preview_json: "{}",
          created_by: (meta.createdBy ?? "").slice(0, 255),
        });
        return { message: "config update proposal received", data: res };
      },
    );
  };
}
