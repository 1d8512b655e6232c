import { createPrivateKey, type KeyObject } from "node:crypto";
import type { DB } from "../../db/db.js";
import { createGatewayPool } from "../../fabric/chaincode/gateway-pool.js";
import {
  ChaincodeCallError,
  decodeResult,
  openGateway,
  type GatewayConnection,
} from "../../fabric/chaincode/gateway.js";
import type { GrpcEndpoint } from "../../fabric/grpc-connection.js";
import { fabricMessageSigner } from "../../fabric/sign.js";
import { ConflictError, InputError, UpstreamError } from "../../http/errors.js";
import type { KeysService } from "../keys/keys.service.js";
import { organizationOfKey } from "../organizations/organizations.repo.js";
import type { FabricContext, FabricNodeInfo } from "../fabric-networks/fabric-networks.context.js";
import type { CallBody } from "./chaincodes.schema.js";
import { nameShimParameters } from "./metadata-names.js";
import type { ChaincodesService } from "./chaincodes.service.js";

type Chaincode = Awaited<ReturnType<ChaincodesService["chaincode"]>>;
/** Who calls, through which peer and endpoint, with which certificate (null: read it when connecting). */
interface Who {
  keyId: number;
  mspId: string;
  peer: FabricNodeInfo;
  endpoint: GrpcEndpoint;
  certPem: string | null;
}

/**
 * Invoking and querying chaincode through a peer's Gateway service (fabric-gateway), signed by a
 * key of a channel org. Gateway connections are kept per peer and key (gateway-pool.ts), so repeated
 * calls reuse one gRPC channel and one loaded key.
 */
export function createChaincodeCalls(deps: {
  db: DB;
  ctx: FabricContext;
  keys: Pick<KeysService, "row" | "sign" | "exportPrivateKeyPem">;
  chaincodes: Pick<ChaincodesService, "chaincode" | "channelNodes" | "policyOrgs">;
}) {
  const pool = createGatewayPool<GatewayConnection>();
  /**
   * Who calls and through which peer, per chaincode and key, for a moment: a burst of calls does
   * not read the channel's members, nodes and keys again for each one. Short enough that a peer
   * going down or a new member is seen within a second.
   */
  const contexts = new Map<string, { until: number; value: Promise<{ cc: Chaincode; who: Who }> }>();
  const CONTEXT_TTL_MS = 1000;

  async function resolve(chaincodeId: number, keyId: string | undefined): Promise<{ cc: Chaincode; who: Who }> {
    const cc = await deps.chaincodes.chaincode(chaincodeId);
    const who = await identity(cc, keyId);
    // The certificate the calls sign with, read with the rest: a renewal is seen within the second.
    // A key that can't be read is reported where it was before (opening the connection).
    const certPem = (await deps.keys.row(who.keyId).catch(() => null))?.certificate ?? null;
    return { cc, who: { ...who, endpoint: deps.ctx.grpcEndpoint(who.peer), certPem } };
  }
  function context(chaincodeId: number, keyId: string | undefined) {
    const k = `${chaincodeId}:${keyId ?? ""}`;
    const hit = contexts.get(k);
    if (hit && hit.until > Date.now()) return hit.value;
    const value = resolve(chaincodeId, keyId);
    contexts.set(k, { until: Date.now() + CONTEXT_TTL_MS, value });
    value.catch(() => contexts.delete(k));
    return value;
  }

  async function identity(cc: { network_id: number; network_name: string }, keyIdText: string | undefined) {
    const { peers } = await deps.chaincodes.channelNodes(cc.network_id);
    const running = peers.filter((p) => p.status === "RUNNING");
    if (running.length === 0) {
      throw new ConflictError(`channel '${cc.network_name}' has no running peer on this console to call through`);
    }
    if (keyIdText === undefined || keyIdText === "") {
      // The admin of the first org with a running peer on the channel.
      const peer = running[0] as FabricNodeInfo;
      const org = await deps.ctx.org(peer.organizationId, "organizationId");
      const keyId = org.row.admin_sign_key_id;
      if (!keyId) throw new InputError(`key_id: organization ${org.mspId} has no admin identity; give key_id`);
      return { keyId, mspId: org.mspId, peer };
    }
    const keyId = Number(keyIdText);
    if (!Number.isInteger(keyId) || keyId < 1 || keyId > 2 ** 31 - 1) {
      throw new InputError(`key_id: "${keyIdText}" is not a key id`, { field: "key_id" });
    }
    const orgId = await organizationOfKey(deps.db, keyId);
    if (!orgId) {
      throw new InputError(`key_id: key ${keyId} belongs to no organization of this console`, { field: "key_id" });
    }
    const org = await deps.ctx.org(orgId, "key_id");
    const peer = running.find((p) => p.mspId === org.mspId) ?? running[0];
    if (!running.some((p) => p.mspId === org.mspId) && !peers.some((p) => p.mspId === org.mspId)) {
      // Signing as an org outside the channel would be refused by every peer.
      const inChannel = new Set(peers.map((p) => p.mspId));
      if (!inChannel.has(org.mspId)) {
        throw new InputError(
          `key_id: key ${keyId} belongs to ${org.mspId}, which has no peer in channel '${cc.network_name}'`,
          {
            field: "key_id",
          },
        );
      }
    }
    return { keyId, mspId: org.mspId, peer: peer as FabricNodeInfo };
  }

  /**
   * The warm connection for a peer and key. Its fingerprint is what the connection was opened for
   * (see createGatewayPool): read with the call's context, so a moved node, a new TLS root or a
   * renewed certificate opens a new one within the context's second.
   */
  async function gateway(who: Who): Promise<GatewayConnection> {
    const { peer, keyId, mspId, endpoint } = who;
    const certPem = who.certPem ?? (await deps.keys.row(keyId)).certificate;
    if (!certPem) throw new InputError(`key_id: key ${keyId} has no certificate`, { field: "key_id" });
    const fingerprint = [
      endpoint.address,
      endpoint.serverNameOverride ?? "",
      endpoint.tlsRootCert,
      mspId,
      certPem,
    ].join("\n");
    return pool.get(`${peer.id}:${keyId}`, fingerprint, async () => {
      // Keys the provider can export sign in process (OpenSSL, no database read per call); others
      // (KMS, Vault transit) sign digests through their provider.
      let local: KeyObject | undefined;
      try {
        local = createPrivateKey(await deps.keys.exportPrivateKeyPem(keyId));
      } catch {
        local = undefined;
      }
      const id = { mspId, certPem };
      return openGateway(
        endpoint,
        local && local.asymmetricKeyType === "ec"
          ? { ...id, signMessage: fabricMessageSigner(local) }
          : { ...id, signDigest: (digest) => deps.keys.sign(keyId, digest, { prehashed: true, encoding: "der" }) },
      );
    });
  }

  async function call(chaincodeId: number, body: CallBody, kind: "invoke" | "query") {
    const { cc, who } = await context(chaincodeId, body.key_id);
    if (body.channel && body.channel !== cc.network_name) {
      throw new InputError(
        `channel: chaincode '${cc.name}' is on channel '${cc.network_name}', not '${body.channel}'`,
        {
          field: "channel",
        },
      );
    }
    const gw = await gateway(who);
    const transient = body.transient
      ? Object.fromEntries(Object.entries(body.transient).map(([k, v]) => [k, Uint8Array.from(v)]))
      : undefined;
    const request = {
      channel: cc.network_name,
      chaincode: cc.name,
      fn: body.function,
      args: body.args,
      ...(transient ? { transient } : {}),
    };
    try {
      if (kind === "query") {
        const r = await gw.evaluate(request);
        return {
          status: "success",
          message: "query evaluated",
          result: decodeResult(r.result),
          transaction_id: r.txId,
        };
      }
      const r = await gw.submit(request);
      return {
        status: "success",
        message: `transaction committed in block ${r.blockNumber}`,
        result: decodeResult(r.result),
        transaction_id: r.txId,
      };
    } catch (err) {
      if (err instanceof ChaincodeCallError) {
        const details = { stage: err.kind, transactionId: err.txId, peers: err.details };
        let hint = "";
        if (err.kind === "endorse" || err.kind === "evaluate") {
          // Name the policy's orgs that have no running peer on the channel here (the usual cause
          // of an unmet endorsement policy).
          const { peers } = await deps.chaincodes.channelNodes(cc.network_id);
          const up = new Set(peers.filter((p) => p.status === "RUNNING").map((p) => p.mspId));
          const missing = (await deps.chaincodes.policyOrgs(chaincodeId)).filter((m) => !up.has(m));
          if (missing.length) {
            hint = `; the endorsement policy needs ${missing.join(", ")}, which has no running peer on channel '${cc.network_name}' here`;
          }
        }
        if (err.kind === "connect" || /UNAVAILABLE|ECONNREFUSED|failed to connect/i.test(err.message)) {
          throw new UpstreamError(`${kind}: ${err.message}${hint}`, details);
        }
        throw new InputError(`${kind} ${body.function}: ${err.message}${hint}`, details);
      }
      throw err;
    }
  }

  return {
    invoke: (chaincodeId: number, body: CallBody) => call(chaincodeId, body, "invoke"),
    query: (chaincodeId: number, body: CallBody) => call(chaincodeId, body, "query"),
    async metadata(chaincodeId: number) {
      const r = await call(chaincodeId, { function: "org.hyperledger.fabric:GetMetadata", args: [] }, "query");
      const live = await deps.db
        .selectFrom("fabric_chaincode_definitions")
        .select(["source_path", "source_type"])
        .where("chaincode_id", "=", chaincodeId)
        .where("deploy_status", "=", "running")
        .orderBy("sequence", "desc")
        .executeTakeFirst();
      const source = live?.source_type === "node" ? live.source_path : null;
      return { status: r.status, message: "contract metadata", result: await nameShimParameters(r.result, source) };
    },
    close(): void {
      contexts.clear();
      pool.close();
    },
  };
}

export type ChaincodeCalls = ReturnType<typeof createChaincodeCalls>;
