import { randomUUID } from "node:crypto";
import { common } from "@hyperledger/fabric-protos";
import type { z } from "zod";
import type { EventBus } from "../../events/bus.js";
import { ConfigtxInputError, verifyConfigSignature } from "../../fabric/configtx/index.js";
import { ConflictError, InputError, NotFoundError } from "../../http/errors.js";
import type { ConnectionRow } from "../federation/federation.repo.js";
import type { GovernanceRepo, ProposalRow } from "./governance.repo.js";
import { configOf, configSignature } from "./governance.wire.js";
import { GOVERNANCE_PATHS, type proposalWire, type signatureWire, type statusWire } from "./governance.inbound.js";
import { governanceLinks, type FederationPlumbing } from "./governance.links.js";
import { createGovernanceWithdrawals } from "./governance.withdraw.js";

export type { FederationPlumbing } from "./governance.links.js";

const bytes = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "base64"));

/**
 * Proposals and signatures travelling between consoles: the sender posts them signed over the
 * federation transport; the receiver stores a proposal (mapped to its network by channel name)
 * and stores a signature only after verifying it against the org's MSP in the channel config.
 */
export function createGovernanceSharing(deps: {
  repo: GovernanceRepo;
  federation: () => FederationPlumbing;
  networkIdByChannel(name: string): Promise<number | null>;
  /** This console's own view of the channel config; null when it has no running node to ask. */
  channelConfig(networkId: number): Promise<common.Config | null>;
  bus: Pick<EventBus, "publish">;
}) {
  const { repo } = deps;
  const links = governanceLinks(deps.federation, repo);
  const { connection, post, sender: senderConnection } = links;

  /**
   * Compares the config the proposer sent with this console's own view of the channel: a newer
   * sequence here means the proposal is already overtaken (stale on arrival); the same sequence
   * with other bytes means the proposer counts and verifies against a config that isn't the
   * channel's (refused). Answers this console's newer sequence when it is stale on arrival, else null.
   */
  async function checkAgainstOwn(networkId: number | null, sent: common.Config): Promise<number | null> {
    const own = networkId ? await deps.channelConfig(networkId) : null;
    if (!own) return null;
    if (own.getSequence() > sent.getSequence()) return own.getSequence();
    if (
      own.getSequence() === sent.getSequence() &&
      Buffer.compare(Buffer.from(own.serializeBinary()), Buffer.from(sent.serializeBinary())) !== 0
    ) {
      throw new InputError(
        `body.config_b64: the config sent (sequence ${sent.getSequence()}) does not match this console's channel config`,
      );
    }
    return null;
  }

  return {
    ...createGovernanceWithdrawals({ repo, links }),
    async shareProposal(id: string, connectionId: number, by: string): Promise<void> {
      const p = await repo.byId(id);
      if (!p) throw new NotFoundError(`proposal ${id} not found`);
      if (p.status !== "pending")
        throw new ConflictError(`proposal ${id} is ${p.status}; only a pending proposal can be shared`);
      const c = await connection(connectionId);
      await post(c, GOVERNANCE_PATHS.proposal, {
        proposal_id: p.id,
        channel_name: p.channel_name,
        proposal_type: p.proposal_type,
        operations: JSON.parse(p.operations_json) as unknown,
        update_b64: p.update_b64,
        config_b64: p.config_b64,
        config_sequence: p.config_sequence,
        preview_json: p.preview_json,
        created_by: p.created_by,
      });
      await repo.event(p.id, "proposal_shared", { connection_id: c.id, to_node_id: c.node_id, by });
      deps.bus.publish("proposal.shared", {
        channel_name: p.channel_name,
        network_id: p.network_id ?? 0,
        proposal_id: p.id,
        to_node_id: c.node_id,
      });
    },

    /** Sends one of this console's signatures to the proposer (or any connected console holding the proposal). */
    async shareSignature(id: string, signatureId: number, connectionId: number, by: string): Promise<void> {
      const p = await repo.byId(id);
      if (!p) throw new NotFoundError(`proposal ${id} not found`);
      const s = await repo.signature(id, signatureId);
      if (!s) throw new InputError(`body.signature_id: proposal ${id} has no signature ${signatureId}`);
      const c = await connection(connectionId);
      // The recipient knows the proposal by its own id: ours when it came from that console.
      const remoteId = p.connection_id === c.id && p.remote_proposal_id ? p.remote_proposal_id : p.id;
      await post(c, GOVERNANCE_PATHS.signature, {
        proposal_id: remoteId,
        msp_id: s.msp_id,
        signature_header_b64: s.signature_header_b64,
        signature_b64: s.signature_b64,
        signed_by: s.signed_by,
      });
      await repo.event(p.id, "signature_shared", {
        signature_id: s.id,
        msp_id: s.msp_id,
        connection_id: c.id,
        to_node_id: c.node_id,
        by,
      });
      deps.bus.publish("signature.shared", {
        channel_name: p.channel_name,
        network_id: p.network_id ?? 0,
        proposal_id: p.id,
        signer_msp_id: s.msp_id,
      });
    },

    /**
     * Tells every console the proposal was shared with that it was submitted (best effort: a
     * console that misses it sees its copy go stale with the next config block).
     */
    async notifySubmitted(p: ProposalRow, txId: string): Promise<void> {
      if (p.origin_node_id !== null) return;
      const sharedWith = new Set(
        (await repo.events(p.id))
          .filter((e) => e.event_type === "proposal_shared")
          .map((e) => (JSON.parse(e.data_json) as { connection_id?: number }).connection_id)
          .filter((id): id is number => typeof id === "number"),
      );
      const conns = (await Promise.all([...sharedWith].map((id) => links.connectionById(id)))).filter(
        (c): c is ConnectionRow => c !== undefined && c.status !== "revoked",
      );
      await Promise.all(
        conns.map(async (c) => {
          const ok = await post(c, GOVERNANCE_PATHS.status, {
            proposal_id: p.id,
            status: "submitted",
            tx_id: txId,
          }).then(
            () => true,
            () => false,
          );
          await repo.event(p.id, ok ? "status_sent" : "status_send_failed", {
            connection_id: c.id,
            to_node_id: c.node_id,
          });
        }),
      );
    },

    async receiveStatus(from: string, body: z.infer<typeof statusWire>) {
      const c = await senderConnection(from);
      const p = await repo.byRemote(c.id, body.proposal_id);
      if (!p) throw new NotFoundError(`body.proposal_id: no proposal ${body.proposal_id} from this console`);
      if (p.status !== "submitted") {
        await repo.update(p.id, { status: "submitted", tx_id: body.tx_id, updated_at: new Date().toISOString() });
        await repo.event(p.id, "proposal_submitted", { by_node_id: c.node_id, tx_id: body.tx_id });
      }
      return { proposal_id: p.id };
    },

    async receiveProposal(from: string, body: z.infer<typeof proposalWire>) {
      const c = await senderConnection(from);
      /** proposal.received for the copy stored here (first arrival or a recomputed one). */
      const announce = (p: { id: string; channel_name: string; network_id: number | null }) =>
        deps.bus.publish("proposal.received", {
          channel_name: p.channel_name,
          from_user: body.created_by,
          from_node_id: c.node_id,
          network_id: p.network_id ?? 0,
          proposal_id: p.id,
        });
      let update: common.ConfigUpdate;
      let sent: common.Config;
      try {
        update = common.ConfigUpdate.deserializeBinary(bytes(body.update_b64));
        sent = common.Config.deserializeBinary(bytes(body.config_b64));
      } catch {
        throw new InputError("body.update_b64: not a marshalled ConfigUpdate and Config");
      }
      if (sent.getSequence() !== body.config_sequence) {
        throw new InputError(
          `body.config_sequence: ${body.config_sequence} is not the sequence of the config sent (${sent.getSequence()})`,
        );
      }
      if (update.getChannelId() !== body.channel_name) {
        throw new InputError(
          `body.update_b64: the update is for channel ${update.getChannelId()}, not ${body.channel_name}`,
        );
      }
      const known = await repo.byRemote(c.id, body.proposal_id);
      if (known && (known.update_b64 === body.update_b64 || known.status === "submitted")) {
        return { proposal_id: known.id };
      }
      const networkId = known ? known.network_id : await deps.networkIdByChannel(body.channel_name);
      const newer = await checkAgainstOwn(networkId, sent);
      const status = newer === null ? "pending" : "stale";
      if (known) {
        // The proposer recomputed it: new bytes, so the signatures made here for the old ones are void.
        await repo.deleteSignatures(known.id);
        await repo.update(known.id, {
          operations_json: JSON.stringify(body.operations),
          update_b64: body.update_b64,
          preview_json: body.preview_json,
          config_b64: body.config_b64,
          config_sequence: body.config_sequence,
          status,
          updated_at: new Date().toISOString(),
        });
        await repo.event(known.id, "proposal_recomputed", {
          from_node_id: c.node_id,
          config_sequence: body.config_sequence,
        });
        if (newer !== null) await repo.event(known.id, "proposal_stale", { config_sequence: newer, on_arrival: true });
        announce(known);
        return { proposal_id: known.id };
      }
      const now = new Date().toISOString();
      const row = await repo.insertReceived({
        id: randomUUID(),
        network_id: networkId,
        channel_name: body.channel_name,
        proposal_type: body.proposal_type,
        operations_json: JSON.stringify(body.operations),
        update_b64: body.update_b64,
        preview_json: body.preview_json,
        config_b64: body.config_b64,
        config_sequence: body.config_sequence,
        status,
        tx_id: null,
        origin_node_id: c.node_id,
        connection_id: c.id,
        remote_proposal_id: body.proposal_id,
        created_by: body.created_by,
        created_at: now,
        updated_at: now,
      });
      const p = row ?? (await repo.byRemote(c.id, body.proposal_id));
      if (!p) throw new ConflictError("the proposal could not be stored");
      if (row) {
        await repo.event(p.id, "proposal_received", { from_node_id: c.node_id, from_user: body.created_by });
        if (newer !== null) await repo.event(p.id, "proposal_stale", { config_sequence: newer, on_arrival: true });
        announce(p);
      }
      return { proposal_id: p.id };
    },

    async receiveSignature(from: string, body: z.infer<typeof signatureWire>) {
      const c = await senderConnection(from);
      const p: ProposalRow | undefined = await links.proposalFor(c, body.proposal_id);
      if (!p) throw new NotFoundError(`body.proposal_id: no proposal ${body.proposal_id} here`);
      if (p.status !== "pending") throw new ConflictError(`proposal ${p.id} is ${p.status}`);
      try {
        verifyConfigSignature(configOf(p), bytes(p.update_b64), configSignature(body), body.msp_id);
      } catch (err) {
        if (err instanceof ConfigtxInputError) throw new InputError(`body.signature_b64: ${err.message}`);
        throw err;
      }
      await repo.putSignature({
        proposal_id: p.id,
        msp_id: body.msp_id,
        signature_header_b64: body.signature_header_b64,
        signature_b64: body.signature_b64,
        signed_by: body.signed_by ? `${body.signed_by}@${c.node_id}` : c.node_id,
        source: "received",
        connection_id: c.id,
        created_at: new Date().toISOString(),
      });
      await repo.event(p.id, "signature_received", { msp_id: body.msp_id, from_node_id: c.node_id });
      deps.bus.publish("signature.received", {
        channel_name: p.channel_name,
        from_node_id: c.node_id,
        network_id: p.network_id ?? 0,
        proposal_id: p.id,
        signer_msp_id: body.msp_id,
      });
      return { proposal_id: p.id };
    },
  };
}

export type GovernanceSharing = ReturnType<typeof createGovernanceSharing>;
