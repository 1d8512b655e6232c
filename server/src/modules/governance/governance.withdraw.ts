import type { z } from "zod";
import { ConflictError, ForbiddenError, NotFoundError, UpstreamError } from "../../http/errors.js";
import type { GovernanceRepo, ProposalRow, SignatureRow } from "./governance.repo.js";
import { GOVERNANCE_PATHS, type withdrawWire } from "./governance.inbound.js";
import type { GovernanceLinks } from "./governance.links.js";

/**
 * Withdrawing a signature that was already sent to another console (the proposer): the signer's
 * console tells every console it sent that signature to before deleting its own copy, and the
 * receiver deletes it only when that console is the one that sent it.
 */
export function createGovernanceWithdrawals(deps: { repo: GovernanceRepo; links: GovernanceLinks }) {
  const { repo, links } = deps;

  /** The connection ids this console sent signature `s` to (from the proposal's timeline). */
  async function sentTo(p: ProposalRow, s: SignatureRow): Promise<number[]> {
    const ids = new Set<number>();
    for (const e of await repo.events(p.id)) {
      if (e.event_type !== "signature_shared") continue;
      const d = JSON.parse(e.data_json) as { signature_id?: number; connection_id?: number };
      if (d.signature_id === s.id && typeof d.connection_id === "number") ids.add(d.connection_id);
    }
    return [...ids];
  }

  return {
    /**
     * Tells the consoles `s` was sent to that it is withdrawn. Runs before the local delete: a
     * refusal (409: the proposer already submitted) or an unreachable console keeps the signature
     * here, so the withdrawal can be retried. A receiver that no longer has it (404) is done.
     */
    async withdrawShared(p: ProposalRow, s: SignatureRow): Promise<void> {
      for (const id of await sentTo(p, s)) {
        const c = await links.connectionById(id);
        // A revoked connection accepts nothing more from us, and we nothing from it.
        if (!c || c.status === "revoked") continue;
        const remoteId = p.connection_id === c.id && p.remote_proposal_id ? p.remote_proposal_id : p.id;
        const reply = await links.send(c, GOVERNANCE_PATHS.withdraw, { proposal_id: remoteId, msp_id: s.msp_id });
        if (reply.status === 409) throw new ConflictError(`${c.node_id} refused the withdrawal: ${reply.message}`);
        if (reply.status !== 200 && reply.status !== 404) {
          throw new UpstreamError(`${c.node_id} refused the withdrawal: ${reply.message}`);
        }
        await repo.event(p.id, "signature_withdrawal_sent", {
          msp_id: s.msp_id,
          connection_id: c.id,
          to_node_id: c.node_id,
        });
      }
    },

    /** A console withdraws a signature it sent here; only that console may, and only before submission. */
    async receiveWithdraw(from: string, body: z.infer<typeof withdrawWire>) {
      const c = await links.sender(from);
      const p = await links.proposalFor(c, body.proposal_id);
      if (!p) throw new NotFoundError(`body.proposal_id: no proposal ${body.proposal_id} here`);
      if (p.status === "submitted") {
        throw new ConflictError(`proposal ${p.id} is already submitted with the signature of ${body.msp_id}`);
      }
      const s = (await repo.signatures(p.id)).find((x) => x.msp_id === body.msp_id);
      if (!s) throw new NotFoundError(`body.msp_id: proposal ${p.id} has no signature of ${body.msp_id}`);
      if (s.source !== "received" || s.connection_id !== c.id) {
        throw new ForbiddenError(`body.msp_id: the signature of ${body.msp_id} was not sent by this console`);
      }
      await repo.deleteSignature(p.id, s.id);
      await repo.event(p.id, "signature_withdrawn", { msp_id: s.msp_id, from_node_id: c.node_id });
      return { proposal_id: p.id, withdrawn: true };
    },
  };
}
