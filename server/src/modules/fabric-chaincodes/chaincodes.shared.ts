import { join } from "node:path";
import { common } from "@hyperledger/fabric-protos";
import { nowIso } from "../../db/db.js";
import type { EventBus } from "../../events/bus.js";
import type { CollectionInput, DefinitionInput } from "../../fabric/chaincode/definition.js";
import { queryChaincodeDefinition, TransactionInvalidError } from "../../fabric/chaincode/lifecycle.js";
import { BroadcastError } from "../../fabric/broadcast.js";
import { channelSummary } from "../../fabric/configtx/read.js";
import { configFromBlock } from "../../fabric/deliver.js";
import type { GrpcEndpoint } from "../../fabric/grpc-connection.js";
import { ProposalError } from "../../fabric/peer-client.js";
import { AppError, ConflictError, errorMessage, InputError, NotFoundError, UpstreamError } from "../../http/errors.js";
import { dialAddress, type FabricContext, type FabricNodeInfo } from "../fabric-networks/fabric-networks.context.js";
import type { FabricNetworksRepo } from "../fabric-networks/fabric-networks.repo.js";
import type { KeysService } from "../keys/keys.service.js";
import type { Operations } from "../operations/operations.js";
import type { ChaincodeRow, ChaincodesRepo, DefinitionRow } from "./chaincodes.repo.js";
import type { DockerRuntime } from "../../runtime/docker/index.js";
import type { ChaincodeRuntime } from "./chaincodes.runtime.js";
import type { ChaincodeResponse, DefinitionResponse } from "./chaincodes.schema.js";

export interface ChaincodesDeps {
  repo: ChaincodesRepo;
  keys: Pick<KeysService, "createKey" | "row" | "exportPrivateKeyPem" | "removeOwned">;
  ctx: FabricContext;
  networks: Pick<FabricNetworksRepo, "members">;
  runtime: ChaincodeRuntime;
  bus: Pick<EventBus, "publish">;
  /** A free port for a chaincode server (not used by nodes nor `alsoReserved`). */
  freePort(preferred: number, alsoReserved: number[]): Promise<number>;
  /** `<dataDir>/chaincodes`. */
  dir: string;
  /** The console's Docker engine (a definition with docker_image runs there). */
  docker?: DockerRuntime;
  /** Peers of an org synced from other consoles (external nodes), to endorse a commit with. */
  externalPeers?: (mspId: string) => Promise<GrpcEndpoint[]>;
  /** Where long steps report their phases (build, start, ...) for the screens; none in unit tests. */
  operations?: Pick<Operations, "begin">;
}

/** Parses a stored JSON column, or gives `fallback` when it does not parse. */
export const json = <T>(s: string, fallback: T): T => {
  try {
    return JSON.parse(s) as T;
  } catch {
    return fallback;
  }
};

/** A step's timeline entry while the step runs (see `begin`). */
export interface StepEntry {
  finish(status: "success" | "failed", data?: Record<string, unknown>): Promise<void>;
}

/**
 * What every verb of the chaincode service shares: lookups that 404, the API's shapes of rows, the
 * channel's nodes as this console sees them, timeline events and the mapping of Fabric failures.
 */
export function createChaincodeShared(deps: ChaincodesDeps) {
  const { repo, ctx } = deps;
  const defDir = (id: number): string => join(deps.dir, String(id));

  function chaincodeResponse(row: ChaincodeRow, defs: DefinitionRow[]): ChaincodeResponse {
    const mine = defs.filter((d) => d.chaincode_id === row.id);
    const latest = mine.at(-1);
    return {
      id: row.id,
      name: row.name,
      network_id: row.network_id,
      network_name: row.network_name,
      network_platform: row.network_platform,
      created_at: row.created_at,
      definitions_count: mine.length,
      latest_definition: latest
        ? {
            id: latest.id,
            version: latest.version,
            sequence: latest.sequence,
            deploy_status: latest.deploy_status as DefinitionResponse["deploy_status"],
            origin: latest.origin as DefinitionResponse["origin"],
          }
        : null,
    };
  }

  function definitionResponse(d: DefinitionRow): DefinitionResponse {
    return {
      id: d.id,
      chaincode_id: d.chaincode_id,
      version: d.version,
      sequence: d.sequence,
      endorsement_policy: d.endorsement_policy,
      docker_image: d.docker_image,
      chaincode_address: d.chaincode_address,
      created_at: d.created_at,
      init_required: d.init_required === 1,
      collections: json(d.collections, []),
      source_type: d.source_type as DefinitionResponse["source_type"],
      source_path: d.source_path,
      tls: d.tls === 1,
      package_id: d.package_id,
      environment_variables: json(d.environment, {}),
      deploy_status: d.deploy_status as DefinitionResponse["deploy_status"],
      deploy_error: d.deploy_error,
      origin: d.origin as DefinitionResponse["origin"],
      updated_at: d.updated_at,
    };
  }

  /** The chaincode server's address: the one asked for, else a free port on this host. */
  async function chooseAddress(requested: string | undefined): Promise<string> {
    if (requested) return requested;
    const used = (await repo.allDefinitions())
      .map((d) => Number(d.chaincode_address.split(":").pop()))
      .filter((p) => Number.isInteger(p));
    return `127.0.0.1:${await deps.freePort(9100, used)}`;
  }

  async function chaincode(id: number): Promise<ChaincodeRow> {
    const row = await repo.byId(id);
    if (!row) throw new NotFoundError(`chaincode ${id} not found`);
    return row;
  }

  async function definition(id: number): Promise<{ def: DefinitionRow; cc: ChaincodeRow }> {
    const def = await repo.definition(id);
    if (!def) throw new NotFoundError(`chaincode definition ${id} not found`);
    return { def, cc: await chaincode(def.chaincode_id) };
  }

  const lifecycleInput = (cc: ChaincodeRow, d: DefinitionRow): DefinitionInput => ({
    name: cc.name,
    version: d.version,
    sequence: d.sequence,
    endorsementPolicy: d.endorsement_policy,
    initRequired: d.init_required === 1,
    collections: json<CollectionInput[]>(d.collections, []),
  });

  async function event(definitionId: number, type: string, data: Record<string, unknown>): Promise<void> {
    await repo.insertEvent({
      definition_id: definitionId,
      event_type: type,
      event_data: JSON.stringify(data),
      created_at: nowIso(),
    });
  }

  /**
   * Starts a step's timeline entry ("started") before the step reaches a peer or an orderer, so a
   * console that stops during it still leaves the entry (marked "interrupted" at the next start).
   * `finish` completes the same entry with the outcome and the step's duration.
   */
  async function begin(definitionId: number, type: string, data: Record<string, unknown>): Promise<StepEntry> {
    const started = Date.now();
    const row = await repo.insertEvent({
      definition_id: definitionId,
      event_type: type,
      event_data: JSON.stringify({ status: "started", ...data }),
      created_at: nowIso(),
    });
    return {
      async finish(status, more = {}) {
        const outcome = { ...data, ...more, status, duration_ms: Date.now() - started };
        await repo.updateEventData(row.id, JSON.stringify(outcome));
      },
    };
  }

  /**
   * Marks the steps left "started" by a console that stopped before they ended (entries written
   * before `before`, this start) as "interrupted": the step may or may not have gone through, and
   * retrying it is safe (approve and commit answer "already" when it did).
   */
  async function markInterrupted(before: string): Promise<number> {
    let n = 0;
    for (const e of await repo.startedEvents(before)) {
      const data = json<Record<string, unknown>>(e.event_data, {});
      if (data.status !== "started") continue;
      // Builds before this version wrote "started" and the outcome as two entries: such a build ended.
      const later = (await repo.events(e.definition_id)).some((x) => x.id > e.id && x.event_type === e.event_type);
      if (e.event_type === "build" && later) continue;
      const note = "the console stopped during this step; it may or may not have completed: retry it";
      await repo.updateEventData(e.id, JSON.stringify({ ...data, status: "interrupted", error: note }));
      n++;
    }
    return n;
  }

  /** Peers and orderers of the chaincode's channel that have joined it, with their node info. */
  async function channelNodes(networkId: number): Promise<{ peers: FabricNodeInfo[]; orderers: FabricNodeInfo[] }> {
    const members = (await deps.networks.members(networkId)).filter((m) => m.status === "joined");
    const infos = await Promise.all(
      members.map(async (m) => {
        const n = await ctx.tryNode(m.node_id);
        return n ? ctx.toInfo(n) : undefined;
      }),
    );
    const ok = infos.filter((i): i is FabricNodeInfo => Boolean(i));
    return { peers: ok.filter((i) => i.role === "peer"), orderers: ok.filter((i) => i.role === "orderer") };
  }

  /** A peer of the channel by id (400 naming `field` when it is not a joined peer). */
  async function channelPeer(cc: ChaincodeRow, peerId: number, field: string): Promise<FabricNodeInfo> {
    const n = await ctx.node(peerId, field);
    if (n.role !== "peer") throw new InputError(`${field}: node '${n.name}' is not a peer`, { field });
    const { peers } = await channelNodes(cc.network_id);
    if (!peers.some((p) => p.id === peerId)) {
      throw new InputError(`${field}: peer '${n.name}' has not joined channel '${cc.network_name}'`, { field });
    }
    return n;
  }

  /**
   * Where to send lifecycle transactions: a joined orderer of this console, else (a channel joined
   * through another console) the orderer endpoints and TLS CAs the channel's genesis block publishes.
   */
  async function ordererEndpoint(cc: ChaincodeRow): Promise<GrpcEndpoint> {
    const { orderers } = await channelNodes(cc.network_id);
    const o = orderers.find((x) => x.status === "RUNNING") ?? orderers[0];
    if (o) return ctx.grpcEndpoint(o);
    const row = await ctx.network(cc.network_id);
    const fromBlock = (() => {
      try {
        const summary = channelSummary(configFromBlock(common.Block.deserializeBinary(ctx.genesisOf(row))));
        const org = summary.orderer.find((x) => x.endpoints.length > 0);
        return org ? { address: dialAddress(org.endpoints[0]!), tlsRootCert: org.tlsCaCerts.join("\n") } : undefined;
      } catch {
        return undefined;
      }
    })();
    if (!fromBlock) throw new ConflictError(`channel '${cc.network_name}' has no joined orderer on this console`);
    return fromBlock;
  }

  /** Any running joined peer of the channel (for reads), preferring `mspId`'s. */
  async function readPeer(cc: ChaincodeRow, mspId?: string): Promise<FabricNodeInfo | undefined> {
    const { peers } = await channelNodes(cc.network_id);
    const running = peers.filter((p) => p.status === "RUNNING");
    return running.find((p) => p.mspId === mspId) ?? running[0];
  }

  async function adminOf(n: FabricNodeInfo) {
    return (await ctx.org(n.organizationId, "organizationId")).admin();
  }

  /** What the channel has committed under this chaincode's name (undefined: nothing yet, or no peer to ask). */
  async function committed(cc: ChaincodeRow, via?: FabricNodeInfo) {
    const p = via ?? (await readPeer(cc));
    if (!p) return undefined;
    return queryChaincodeDefinition(ctx.grpcEndpoint(p), await adminOf(p), cc.network_name, cc.name);
  }

  /** Turns peer/orderer failures into the API's errors, keeping the node's own words. */
  function fabricFailure(what: string, err: unknown): never {
    if (err instanceof AppError) throw err;
    if (err instanceof ProposalError) throw new InputError(`${what}: ${err.peerMessage || err.message}`);
    if (err instanceof TransactionInvalidError) throw new ConflictError(`${what}: ${err.message}`);
    if (err instanceof BroadcastError) throw new UpstreamError(`${what}: ${err.message}`);
    throw new UpstreamError(`${what}: ${errorMessage(err)}`);
  }

  async function assertNextSequence(cc: ChaincodeRow, sequence: number, field = "sequence"): Promise<void> {
    const c = await committed(cc).catch(() => undefined);
    const next = (c?.sequence ?? 0) + 1;
    if (sequence !== next) {
      throw new InputError(
        `${field}: channel '${cc.network_name}' has ${c ? `sequence ${c.sequence} committed` : "no definition committed"} for '${cc.name}'; the next definition must use sequence ${next}, not ${sequence}`,
        { field, nextSequence: next },
      );
    }
  }

  return {
    defDir,
    chaincodeResponse,
    definitionResponse,
    chooseAddress,
    chaincode,
    definition,
    lifecycleInput,
    event,
    begin,
    markInterrupted,
    channelNodes,
    channelPeer,
    ordererEndpoint,
    readPeer,
    adminOf,
    committed,
    fabricFailure,
    assertNextSequence,
  };
}

export type ChaincodeShared = ReturnType<typeof createChaincodeShared>;
