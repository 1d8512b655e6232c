import { randomUUID } from "node:crypto";
import {
  channelMspIds,
  evaluateUpdatePolicies,
  signConfigUpdate,
  type ModPolicyVerdict,
} from "../../fabric/configtx/index.js";
import { ConflictError, InputError, NotFoundError } from "../../http/errors.js";
import type { FabricChange } from "../fabric-networks/fabric-networks.change.js";
import type { ConfigOperation, ConfigOperationInput } from "../fabric-networks/fabric-networks.change.schema.js";
import type { FabricContext } from "../fabric-networks/fabric-networks.context.js";
import type { GovernanceRepo, ProposalRow, SignatureRow } from "./governance.repo.js";
import { changeLines, configChanges } from "./governance.diff.js";
import { configOf, envelopeWith, updateOf } from "./governance.wire.js";

const b64 = (u: Uint8Array): string => Buffer.from(u).toString("base64");

/**
 * Channel config-update proposals (docs/governance.md): computed against the channel's current
 * config, signed org by org (here or on other consoles), submitted once the mod_policies are met.
 */
export function createGovernanceService(deps: {
  repo: GovernanceRepo;
  change: Pick<FabricChange, "prepare" | "readCurrent" | "newestConfig" | "broadcastSigned" | "heldOrgs">;
  ctx: Pick<FabricContext, "network" | "orgByMspId">;
  /** Called after a submit went through (tells the consoles it was shared with). */
  onSubmitted?: (p: ProposalRow, txId: string) => Promise<void>;
  /**
   * Called before a signature is deleted here (tells the consoles it was sent to); throwing keeps
   * the signature, so the withdrawal can be retried.
   */
  beforeWithdraw?: (p: ProposalRow, s: SignatureRow) => Promise<void>;
}) {
  const { repo, change, ctx } = deps;

  async function row(id: string): Promise<ProposalRow> {
    const r = await repo.byId(id);
    if (!r) throw new NotFoundError(`proposal ${id} not found`);
    return r;
  }

  /** The policy verdict of the stored signatures, against the config the update was computed from. */
  function verdict(p: ProposalRow, sigs: SignatureRow[]): ModPolicyVerdict {
    return evaluateUpdatePolicies(
      configOf(p),
      updateOf(p),
      sigs.map((s) => s.msp_id),
    );
  }

  /**
   * Marks a pending proposal stale when the channel's config sequence moved on since it was
   * computed (read from an orderer, else a peer of the channel). A lagging peer may still be
   * behind the proposal: only a newer sequence makes it stale. `strict` rethrows when the config
   * can't be read.
   */
  async function refresh(p: ProposalRow, strict: boolean): Promise<ProposalRow> {
    if (p.status !== "pending" || p.network_id === null) return p;
    try {
      const network = await ctx.network(p.network_id);
      const current = await change.newestConfig(network);
      if (current.getSequence() <= p.config_sequence) return p;
      const now = new Date().toISOString();
      await repo.event(p.id, "proposal_stale", { config_sequence: current.getSequence() });
      return (await repo.update(p.id, { status: "stale", updated_at: now })) ?? p;
    } catch (err) {
      if (strict) throw err;
      return p;
    }
  }

  async function view(p: ProposalRow) {
    const sigs = await repo.signatures(p.id);
    const v = verdict(p, sigs);
    return {
      id: p.id,
      network_id: p.network_id ?? 0,
      channel_name: p.channel_name,
      proposal_type: p.proposal_type,
      status: p.status as "pending" | "stale" | "submitted",
      operations: JSON.parse(p.operations_json) as ConfigOperation[],
      preview_json: p.preview_json,
      ...proposalDiff(p),
      config_sequence: p.config_sequence,
      stale: p.status === "stale",
      origin_node_id: p.origin_node_id ?? "",
      tx_id: p.tx_id ?? "",
      created_at: p.created_at,
      created_by: p.created_by,
      signatures: sigs.map(signatureView),
      policy: {
        rule: v.policies.map((x) => `${x.path}: ${x.rule}`).join("; "),
        required: v.required,
        signed: v.signed,
        missing: v.missing,
        satisfied: v.satisfied,
        summary: v.summary,
      },
    };
  }

  async function prepareRow(networkId: number, operations: ConfigOperationInput[]) {
    const prep = await change.prepare(networkId, operations);
    return {
      network: prep.network,
      fields: {
        channel_name: prep.network.name,
        operations_json: JSON.stringify(prep.operations),
        update_b64: b64(prep.update.serializeBinary()),
        preview_json: JSON.stringify(prep.preview),
        config_b64: b64(prep.current.serializeBinary()),
        config_sequence: prep.current.getSequence(),
      },
    };
  }

  return {
    view,
    row,
    async create(input: { network_id: number; proposal_type: string; operations: ConfigOperationInput[] }, by: string) {
      const { network, fields } = await prepareRow(input.network_id, input.operations);
      const now = new Date().toISOString();
      const p = await repo.insert({
        id: randomUUID(),
        network_id: network.id,
        proposal_type: input.proposal_type,
        ...fields,
        status: "pending",
        tx_id: null,
        origin_node_id: null,
        connection_id: null,
        remote_proposal_id: null,
        created_by: by,
        created_at: now,
        updated_at: now,
      });
      await repo.event(p.id, "proposal_created", { by, config_sequence: p.config_sequence });
      return view(p);
    },
    list: async (networkId?: number) => {
      const rows = await repo.list(networkId);
      return Promise.all(rows.map(view));
    },
    get: async (id: string) => view(await refresh(await row(id), false)),
    events: async (id: string) => {
      await row(id);
      return (await repo.events(id)).map((e) => ({
        id: e.id,
        proposal_id: e.proposal_id,
        event_type: e.event_type,
        data: e.data_json,
        created_at: e.created_at,
      }));
    },
    signatures: async (id: string) => (await repo.signatures((await row(id)).id)).map(signatureView),

    /** Signs with the admin identity of `mspId`'s org held on this console. */
    async sign(id: string, mspId: string, by: string) {
      let p = await row(id);
      if (p.network_id === null) {
        throw new InputError(`this console has no network for channel ${p.channel_name}; import it to sign`);
      }
      // A console without a running orderer of the channel (peers only) can still sign: the
      // orderer refuses a stale update at submit anyway, so the check here is best effort.
      p = await refresh(p, false);
      assertPending(p);
      if (!channelMspIds(configOf(p)).has(mspId)) {
        throw new InputError(`body.msp_id: ${mspId} is not an organization of channel ${p.channel_name}`);
      }
      const org = await ctx.orgByMspId(mspId);
      if (!org) throw new InputError(`body.msp_id: this console holds no admin identity of ${mspId}`);
      const sig = signConfigUpdate(envelopeWith(p, []), await org.admin());
      const s = await repo.putSignature({
        proposal_id: p.id,
        msp_id: mspId,
        signature_header_b64: b64(sig.getSignatureHeader_asU8()),
        signature_b64: b64(sig.getSignature_asU8()),
        signed_by: by,
        source: "local",
        connection_id: null,
        created_at: new Date().toISOString(),
      });
      await repo.event(p.id, "signature_added", { msp_id: mspId, by });
      return s;
    },

    async withdraw(id: string, signatureId: number, by: string) {
      const p = await row(id);
      if (p.status === "submitted") throw new ConflictError(`proposal ${id} is already submitted`);
      const s = await repo.signature(id, signatureId);
      if (!s) throw new NotFoundError(`signature ${signatureId} of proposal ${id} not found`);
      await deps.beforeWithdraw?.(p, s);
      await repo.deleteSignature(id, signatureId);
      await repo.event(id, "signature_withdrawn", { msp_id: s.msp_id, by });
      return s;
    },

    /** Recomputes the update against the current config; old signatures cover other bytes, so they go. */
    async recompute(id: string, by: string) {
      const p = await row(id);
      if (p.status === "submitted") throw new ConflictError(`proposal ${id} is already submitted`);
      // Every console must sign the same bytes: only the proposer recomputes, then shares it again.
      if (p.origin_node_id !== null) {
        throw new ConflictError(
          `proposal ${id} came from console ${p.origin_node_id}; it recomputes the proposal and shares it again`,
        );
      }
      if (p.network_id === null) {
        throw new InputError(`this console has no network for channel ${p.channel_name}`);
      }
      const { fields } = await prepareRow(p.network_id, JSON.parse(p.operations_json) as ConfigOperationInput[]);
      await repo.deleteSignatures(id);
      const updated = await repo.update(id, { ...fields, status: "pending", updated_at: new Date().toISOString() });
      await repo.event(id, "proposal_recomputed", { by, config_sequence: fields.config_sequence });
      return view(updated ?? p);
    },

    /** Broadcasts the update with every stored signature, once the mod_policies are met. */
    async submit(id: string, by: string) {
      let p = await row(id);
      if (p.network_id === null) {
        throw new InputError(`this console has no network for channel ${p.channel_name}`);
      }
      if (p.status === "submitted") throw new ConflictError(`proposal ${id} is already submitted`);
      const networkId = p.network_id;
      // First what any running node of the channel says (a console without an orderer still
      // learns that its copy is stale: 409, not "no orderer"), then the orderer it submits to.
      p = await refresh(p, false);
      assertPending(p);
      const network = await ctx.network(networkId);
      const at = await change.readCurrent(network);
      if (at.current.getSequence() !== p.config_sequence) {
        p = await refresh(p, true);
      }
      assertPending(p);
      const sigs = await repo.signatures(id);
      const v = evaluateUpdatePolicies(
        at.current,
        updateOf(p),
        sigs.map((s) => s.msp_id),
      );
      if (!v.satisfied) {
        throw new InputError(
          `the channel's modification policy is not met (${v.summary}); signatures missing from: ${v.missing.join(", ")}`,
        );
      }
      const held = await change.heldOrgs(at.current);
      if (!held[0])
        throw new InputError(`this console holds no organization of channel ${p.channel_name} to submit with`);
      const envelope = envelopeWith(p, sigs);
      const res = await change.broadcastSigned(network, at, envelope, await held[0].admin());
      await repo.update(id, { status: "submitted", tx_id: res.txId, updated_at: new Date().toISOString() });
      await repo.event(id, "proposal_submitted", { by, tx_id: res.txId, block_number: res.blockNumber });
      await deps.onSubmitted?.(p, res.txId);
      return { proposal_id: id, tx_id: res.txId };
    },
  };
}

function assertPending(p: ProposalRow): void {
  if (p.status === "stale") {
    throw new ConflictError(
      `proposal ${p.id} is stale: the channel config changed since it was computed (sequence ${p.config_sequence}); recompute it`,
    );
  }
  if (p.status !== "pending") throw new ConflictError(`proposal ${p.id} is ${p.status}`);
}

/**
 * What the update changes, from the config it was computed against and the exact bytes everyone
 * signs (not from the stored operations), so a received copy shows what its signature approves.
 */
function proposalDiff(p: ProposalRow) {
  const changes = configChanges(configOf(p), updateOf(p));
  return { diff: changeLines(changes), changes };
}

function signatureView(s: SignatureRow) {
  return { id: s.id, proposal_id: s.proposal_id, msp_id: s.msp_id, signed_at: s.created_at, signed_by: s.signed_by };
}

export type GovernanceService = ReturnType<typeof createGovernanceService>;
