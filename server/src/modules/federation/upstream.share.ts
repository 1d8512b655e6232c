import { ConflictError, InputError, NotFoundError, UpstreamError, errorMessage } from "../../http/errors.js";
import type { GovernanceUpstream } from "../governance/governance.upstream.js";
import type { ConnectionRow } from "./federation.repo.js";
import type { RecipientResult } from "./sharing.schema.js";
import { resolveRecipients } from "./sharing.send.js";
import { bytesOf } from "./upstream.wire.js";

export interface ConfigProposalShareInput {
  proposalId: string;
  recipients: number[];
  channelName?: string | undefined;
  configUpdate?: string | number[] | undefined;
  expiresAt?: string | undefined;
  metadata?: Record<string, string> | undefined;
}

/**
 * upstream's POST /pro/sharing/config-proposal over governance's own share: the proposal is one of
 * this console's (by id), the channel and update bytes, when given, must be the proposal's, and each
 * recipient gets it through the same signed route as POST /pro/networks/proposals/{id}/share.
 */
export function createConfigProposalSharing(deps: {
  governance: () => GovernanceUpstream | undefined;
  connections: () => Promise<ConnectionRow[]>;
}) {
  return {
    async share(body: ConfigProposalShareInput, by: string) {
      const g = deps.governance();
      if (!g) throw new ConflictError("governance is not available on this console");
      const p = await g.proposal(body.proposalId);
      if (!p) throw new NotFoundError(`body.proposalId: proposal ${body.proposalId} not found`);
      if (body.channelName && body.channelName !== p.channel_name) {
        throw new InputError(`body.channelName: proposal ${p.id} is for channel ${p.channel_name}`);
      }
      if (body.configUpdate !== undefined) {
        const sent = bytesOf(body.configUpdate);
        if (sent.length > 0 && !sent.equals(Buffer.from(p.update_b64, "base64"))) {
          throw new InputError(`body.configUpdate: is not the update of proposal ${p.id}`);
        }
      }
      if (body.expiresAt && Number.isNaN(Date.parse(body.expiresAt)))
        throw new InputError("body.expiresAt: must be an RFC 3339 time");
      if (body.recipients.length === 0) throw new InputError("body.recipients: at least one connection id");
      const conns = await resolveRecipients(deps.connections, body.recipients, (i) => `body.recipients[${i}]`);
      const results: RecipientResult[] = [];
      for (const c of conns) {
        if (c.status === "revoked") {
          results.push({
            recipient: c.id,
            nodeId: c.node_id,
            status: "failed",
            error: `the connection with ${c.node_id} is revoked`,
          });
          continue;
        }
        try {
          await g.shareProposal(p.id, c.id, by);
          results.push({ recipient: c.id, nodeId: c.node_id, status: "sent", error: null });
        } catch (err) {
          // A pending-only or missing proposal fails every recipient alike: say so once.
          if (err instanceof ConflictError || err instanceof NotFoundError) throw err;
          results.push({ recipient: c.id, nodeId: c.node_id, status: "failed", error: errorMessage(err) });
        }
      }
      if (!results.some((r) => r.status === "sent")) {
        throw new UpstreamError(
          `proposal ${p.id} was not shared: ${results.map((r) => `${r.nodeId}: ${r.error ?? ""}`).join("; ")}`,
        );
      }
      return {
        shareId: p.id,
        proposalId: p.id,
        channelName: p.channel_name,
        configUpdate: p.update_b64,
        recipients: body.recipients,
        expiresAt: body.expiresAt ?? "",
        metadata: body.metadata ?? {},
        status: "sent",
        results,
      };
    },
  };
}
