import { commitDecision } from "../../fabric/chaincode/approved.js";
import { checkCommitReadiness, commitDefinition, TransactionInvalidError } from "../../fabric/chaincode/lifecycle.js";
import type { GrpcEndpoint } from "../../fabric/grpc-connection.js";
import { ProposalError } from "../../fabric/peer-client.js";
import { ConflictError, errorMessage } from "../../http/errors.js";
import type { ChaincodeShared, ChaincodesDeps } from "./chaincodes.shared.js";

/**
 * Commits a definition on the channel, idempotently: a definition already committed at its
 * sequence with the same parameters answers success with `already: "committed"` and sends
 * nothing; the same sequence committed with other parameters is a 409 naming what differs. Every
 * commit leaves one timeline entry, written before anything is sent.
 */
export function createChaincodeCommit(deps: ChaincodesDeps, s: ChaincodeShared) {
  const { ctx } = deps;
  const { definition, channelPeer, channelNodes, ordererEndpoint, adminOf, begin, lifecycleInput, committed } = s;
  const { fabricFailure } = s;
  return {
    async commit(definitionId: number, peerId: number, user: string): Promise<Record<string, string>> {
      const { def, cc } = await definition(definitionId);
      const p = await channelPeer(cc, peerId, "peer_id");
      const entry = await begin(def.id, "commit", { user, peer_id: p.id, peer_name: p.name, msp_id: p.mspId });
      const input = lifecycleInput(cc, def);
      /** The committed definition decides, read again when the commit's own answer leaves a doubt. */
      const decide = async () => commitDecision(input, await committed(cc, p).catch(() => undefined));
      const already = async (): Promise<Record<string, string>> => {
        await entry.finish("success", { already: "committed" });
        return {
          status: "success",
          message: `sequence ${def.sequence} of '${cc.name}' is already committed on '${cc.network_name}' with this definition; nothing was sent`,
          already: "committed",
        };
      };
      let details: Record<string, unknown> = {};
      try {
        const decision = await decide();
        if (decision.kind === "already") return await already();
        if (decision.kind === "conflict") {
          throw new ConflictError(
            `sequence ${def.sequence} of '${cc.name}' is already committed on '${cc.network_name}' with other parameters than definition ${def.id}: ${decision.differences.join(", ")}`,
            { differences: decision.differences },
          );
        }
        if (decision.kind === "superseded") {
          throw new ConflictError(
            `sequence ${def.sequence} of '${cc.name}' is behind: '${cc.network_name}' has sequence ${decision.committedSequence} committed`,
          );
        }
        const orderer = await ordererEndpoint(cc);
        const signer = await adminOf(p);
        const approvals = await checkCommitReadiness(ctx.grpcEndpoint(p), signer, cc.network_name, input).catch(
          (err: unknown) => fabricFailure("check commit readiness", err),
        );
        const orgs = Object.keys(approvals);
        const missing = orgs.filter((o) => !approvals[o]);
        const needed = Math.floor(orgs.length / 2) + 1;
        if (orgs.length - missing.length < needed) {
          const message = `not enough approvals to commit: ${orgs.length - missing.length} of ${orgs.length} orgs approved, ${needed} needed (the channel's LifecycleEndorsement is a majority by default); not approved: ${missing.join(", ")}`;
          details = { approvals };
          throw new ConflictError(message, { approvals, missing });
        }
        const { peers } = await channelNodes(cc.network_id);
        const endorsers: { mspId: string; endpoint: GrpcEndpoint }[] = [
          { mspId: p.mspId, endpoint: ctx.grpcEndpoint(p) },
        ];
        for (const org of orgs) {
          if (!approvals[org] || endorsers.some((e) => e.mspId === org)) continue;
          const q = peers.find((x) => x.mspId === org && x.status === "RUNNING");
          // An org whose peers run on another console: its peer synced from there (docs/governance.md).
          const endpoint = q ? ctx.grpcEndpoint(q) : (await deps.externalPeers?.(org))?.[0];
          if (endpoint) endorsers.push({ mspId: org, endpoint });
        }
        let txId: string;
        try {
          ({ txId } = await commitDefinition({
            peers: endorsers.map((e) => e.endpoint),
            orderer,
            signer,
            channelId: cc.network_name,
            definition: input,
          }));
        } catch (err) {
          // Another commit of the same definition got there first (a retry racing the original).
          if (err instanceof TransactionInvalidError && (await decide()).kind === "already") {
            return await already();
          }
          throw err;
        }
        await entry.finish("success", { endorsed_by: endorsers.map((e) => e.mspId), tx_id: txId });
        deps.bus.publish("chaincode.committed", {
          chaincode_id: cc.id,
          chaincode_name: cc.name,
          version: def.version,
          sequence: def.sequence,
          network_id: cc.network_id,
        });
        return { status: "success", message: `committed sequence ${def.sequence}`, transaction_id: txId };
      } catch (err) {
        const error = err instanceof ProposalError ? err.peerMessage : errorMessage(err);
        await entry.finish("failed", { error, ...details });
        return fabricFailure("commit", err);
      }
    },
  };
}
