import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { nowIso } from "../../db/db.js";
import { ConflictError, errorMessage, InputError, NotFoundError } from "../../http/errors.js";
import type { ChaincodesService } from "../fabric-chaincodes/chaincodes.service.js";
import type { DefinitionResponse } from "../fabric-chaincodes/chaincodes.schema.js";
import type { FabricContext } from "../fabric-networks/fabric-networks.context.js";
import type { ChaincodeDefinitionWithChaincode, ChaincodeProposal } from "./chaincode-proposals.routes.js";
import type { ChaincodeProposalRow, ChaincodeProposalsRepo } from "./chaincode-proposals.repo.js";
import type { createChaincodeProposalBody } from "./chaincode-proposals.schema.js";

/** The chaincode lifecycle this module drives (the chaincode service's, never a second path). */
export type ProposalChaincodes = Pick<
  ChaincodesService,
  | "list"
  | "create"
  | "listDefinitions"
  | "createDefinition"
  | "uploadSource"
  | "build"
  | "install"
  | "deploy"
  | "approve"
  | "channelNodes"
  | "approvals"
>;

type Status = ChaincodeProposal["status"];
type SourceType = ChaincodeProposal["sourceType"];
const SOURCE_TYPES: SourceType[] = ["docker", "node", "go", "executable", "none"];
/** Statuses an accept may start from (a failed accept is retried; the proposer accepts its own). */
const ACCEPTABLE = ["received", "failed", "proposed"];

export const sourceTypeOf = (d: Pick<DefinitionResponse, "source_type" | "docker_image">): SourceType =>
  SOURCE_TYPES.includes(d.source_type as SourceType)
    ? (d.source_type as SourceType)
    : d.docker_image
      ? "docker"
      : "none";

/** The API shape of a row (`approvals` filled by the caller that asked a peer). */
export function proposalResponse(
  r: ChaincodeProposalRow,
  approvals: Record<string, boolean> = {},
  def?: DefinitionResponse,
): ChaincodeProposal {
  return {
    id: r.id,
    chaincodeDefId: r.def_id,
    name: r.name,
    networkId: r.network_id,
    channelName: r.channel_name,
    version: r.version,
    sequence: r.sequence,
    endorsementPolicy: r.endorsement_policy,
    dockerImage: r.docker_image,
    chaincodeAddress: def?.chaincode_address ?? r.chaincode_address,
    status: r.status as Status,
    connectionId: r.connection_id,
    sharedBy: r.shared_by,
    sharedByNodeId: r.shared_by_node_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    initRequired: r.init_required === 1,
    // Proposed here: the definition's source as it is now (uploaded after the proposal was made).
    sourceType:
      def && r.connection_id === 0
        ? sourceTypeOf(def)
        : ((SOURCE_TYPES.includes(r.source_type as SourceType) ? r.source_type : "none") as SourceType),
    sourceSha256: r.source_sha256,
    definitionId: r.definition_id,
    chaincodeId: r.chaincode_id,
    error: r.error,
    approvals,
    sharedWith: JSON.parse(r.shared_with) as number[],
  };
}

/**
 * Chaincode-definition proposals (docs/governance.md, "Chaincode proposals"): made here from a new or
 * existing definition, or received from another console; accepting one creates the definition here
 * and installs, runs and approves it for this console's orgs through the chaincode service.
 */
export function createChaincodeProposals(deps: {
  repo: ChaincodeProposalsRepo;
  chaincodes: ProposalChaincodes;
  fabric: Pick<FabricContext, "network">;
}) {
  const { repo, chaincodes } = deps;

  async function row(id: number): Promise<ChaincodeProposalRow> {
    const r = await repo.byId(id);
    if (!r) throw new NotFoundError(`chaincode proposal ${id} not found`);
    return r;
  }

  async function chaincodeNamed(name: string, networkId: number) {
    return (await chaincodes.list()).chaincodes.find((c) => c.name === name && c.network_id === networkId);
  }

  async function definitionOf(r: Pick<ChaincodeProposalRow, "chaincode_id" | "definition_id">) {
    if (!r.chaincode_id || !r.definition_id) return undefined;
    const defs = await chaincodes.listDefinitions(r.chaincode_id).catch(() => ({ definitions: [] }));
    return defs.definitions.find((d) => d.id === r.definition_id);
  }

  async function withChaincode(
    r: ChaincodeProposalRow,
    approvals: Record<string, boolean> = {},
  ): Promise<ChaincodeDefinitionWithChaincode> {
    const def = await definitionOf(r);
    return {
      proposal: proposalResponse(r, approvals, def),
      ...(def && r.chaincode_id ? { chaincode: { id: r.chaincode_id, name: r.name, networkId: r.network_id } } : {}),
      ...(def
        ? {
            definition: {
              id: def.id,
              chaincodeId: def.chaincode_id,
              dockerImage: def.docker_image,
              endorsementPolicy: def.endorsement_policy,
              proposalId: r.id,
              sequence: def.sequence,
              version: def.version,
            },
          }
        : {}),
    };
  }

  /** The local definition of an accept: the proposal's own, or one matching its fields, or a new one. */
  async function ensureDefinition(r: ChaincodeProposalRow): Promise<DefinitionResponse> {
    const cc =
      (await chaincodeNamed(r.name, r.network_id)) ??
      (await chaincodes.create({ name: r.name, network_id: r.network_id }));
    const defs = (await chaincodes.listDefinitions(cc.id)).definitions;
    const same = (d: DefinitionResponse): boolean =>
      d.sequence === r.sequence &&
      d.version === r.version &&
      d.endorsement_policy === r.endorsement_policy &&
      d.init_required === (r.init_required === 1);
    const def =
      defs.find((d) => d.id === r.definition_id) ??
      defs.find(same) ??
      (await chaincodes.createDefinition(cc.id, {
        version: r.version,
        sequence: r.sequence,
        endorsement_policy: r.endorsement_policy,
        init_required: r.init_required === 1,
        ...(r.docker_image ? { docker_image: r.docker_image } : {}),
        ...(r.docker_image && r.source_type === "docker" ? { source_type: "docker" as const } : {}),
      }));
    await repo.update(r.id, {
      chaincode_id: cc.id,
      definition_id: def.id,
      chaincode_address: def.chaincode_address,
      updated_at: nowIso(),
    });
    return def;
  }

  return {
    async create(body: z.infer<typeof createChaincodeProposalBody>, user: string): Promise<ChaincodeProposal> {
      const network = await deps.fabric.network(body.network_id).catch((err: unknown) => {
        if (err instanceof NotFoundError)
          throw new InputError(`body.network_id: Fabric network ${body.network_id} not found`);
        throw err;
      });
      if (body.channel_name !== undefined && body.channel_name !== "" && body.channel_name !== network.name) {
        throw new InputError(
          `body.channel_name: network ${network.id} is channel '${network.name}', not '${body.channel_name}'`,
        );
      }
      let cc = await chaincodeNamed(body.name, network.id);
      let def: DefinitionResponse;
      if (body.definition_id !== undefined) {
        const found =
          cc && (await chaincodes.listDefinitions(cc.id)).definitions.find((d) => d.id === body.definition_id);
        if (!cc || !found) {
          throw new InputError(
            `body.definition_id: chaincode '${body.name}' on channel '${network.name}' has no definition ${body.definition_id}`,
          );
        }
        def = found;
        const mismatch: [string, unknown, unknown][] = [
          ["version", body.version, def.version],
          ["sequence", body.sequence, def.sequence],
          ["endorsement_policy", body.endorsement_policy ?? def.endorsement_policy, def.endorsement_policy],
          ["init_required", body.init_required ?? def.init_required, def.init_required],
          ["docker_image", body.docker_image ?? def.docker_image, def.docker_image],
        ];
        const bad = mismatch.find(([, given, has]) => given !== has);
        if (bad) {
          throw new InputError(
            `body.${bad[0]}: definition ${def.id} has ${JSON.stringify(bad[2])}, not ${JSON.stringify(bad[1])}`,
          );
        }
      } else {
        cc ??= await chaincodes.create({ name: body.name, network_id: network.id });
        def = await chaincodes.createDefinition(cc.id, {
          version: body.version,
          sequence: body.sequence,
          ...(body.endorsement_policy !== undefined ? { endorsement_policy: body.endorsement_policy } : {}),
          ...(body.init_required !== undefined ? { init_required: body.init_required } : {}),
          ...(body.docker_image ? { docker_image: body.docker_image, source_type: "docker" as const } : {}),
          ...(body.chaincode_address ? { chaincode_address: body.chaincode_address } : {}),
        });
      }
      const now = nowIso();
      const r = await repo.insert({
        def_id: `${body.name.slice(0, 48)}-${randomBytes(6).toString("hex")}`,
        name: body.name,
        network_id: network.id,
        channel_name: network.name,
        version: def.version,
        sequence: def.sequence,
        endorsement_policy: def.endorsement_policy,
        docker_image: def.docker_image,
        chaincode_address: def.chaincode_address,
        init_required: def.init_required ? 1 : 0,
        source_type: sourceTypeOf(def),
        source_sha256: "",
        source_archive: null,
        status: "proposed",
        error: "",
        connection_id: 0,
        shared_by: "",
        shared_by_node_id: "",
        created_by: user,
        chaincode_id: cc.id,
        definition_id: def.id,
        shared_with: "[]",
        created_at: now,
        updated_at: now,
      });
      return proposalResponse(r, {}, def);
    },

    async list(networkId?: number): Promise<ChaincodeProposal[]> {
      return (await repo.list(networkId)).map((r) => proposalResponse(r));
    },

    /** With each org's approval read from a peer here; `committed` once the channel has its sequence. */
    async get(id: number): Promise<ChaincodeDefinitionWithChaincode> {
      let r = await row(id);
      let approvals: Record<string, boolean> = {};
      if (r.definition_id && r.network_id) {
        const a = await chaincodes.approvals(r.definition_id).catch(() => undefined);
        approvals = a?.approvals ?? {};
        if (
          a?.committed !== null &&
          a?.committed !== undefined &&
          a.committed >= r.sequence &&
          r.status !== "committed"
        ) {
          r = (await repo.update(r.id, { status: "committed", error: "", updated_at: nowIso() })) ?? r;
        }
      }
      return withChaincode(r, approvals);
    },

    async accept(id: number, user: string): Promise<ChaincodeDefinitionWithChaincode> {
      const r = await row(id);
      if (r.status === "accepting") throw new ConflictError(`chaincode proposal ${id} is already being accepted`);
      if (!ACCEPTABLE.includes(r.status)) {
        throw new ConflictError(
          `chaincode proposal ${id} is ${r.status}; only a received, proposed or failed one can be accepted`,
        );
      }
      if (!r.network_id) {
        throw new ConflictError(`this console has no network for channel ${r.channel_name}`);
      }
      if (!(await repo.claim(r.id, ACCEPTABLE, "accepting", nowIso()))) {
        throw new ConflictError(`chaincode proposal ${id} is already being accepted`);
      }
      try {
        const { peers } = await chaincodes.channelNodes(r.network_id);
        const running = peers.filter((p) => p.status === "RUNNING");
        if (running.length === 0) {
          throw new ConflictError(
            `channel '${r.channel_name}' has no running peer on this console; start one and join it first`,
          );
        }
        const def = await ensureDefinition(r);
        if (r.docker_image && (def.source_type === "docker" || def.source_type === "none") && !r.source_archive) {
          // An image-only proposal: the process runtime refuses it with its own message.
          await chaincodes.deploy(def.id, undefined, user);
        }
        if ((def.source_type === "none" || !def.source_path) && r.source_archive) {
          const type = (["executable", "go", "node"] as const).find((t) => t === r.source_type) ?? "auto";
          await chaincodes.uploadSource(def.id, await readFile(r.source_archive), type, user);
        }
        await chaincodes.build(def.id, user);
        await chaincodes.install(
          def.id,
          running.map((p) => p.id),
          user,
        );
        await chaincodes.deploy(def.id, undefined, user, { built: true });
        const byOrg = new Map<string, number>();
        for (const p of running) if (!byOrg.has(p.mspId)) byOrg.set(p.mspId, p.id);
        for (const peerId of byOrg.values()) await chaincodes.approve(def.id, peerId, user);
        const done = await repo.update(r.id, { status: "accepted", error: "", updated_at: nowIso() });
        return withChaincode(done ?? r);
      } catch (err) {
        await repo.update(r.id, { status: "failed", error: errorMessage(err).slice(0, 4000), updated_at: nowIso() });
        throw err;
      }
    },

    row,
    definitionOf,
  };
}

export type ChaincodeProposals = ReturnType<typeof createChaincodeProposals>;
