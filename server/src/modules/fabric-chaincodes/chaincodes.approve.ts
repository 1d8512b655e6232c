import { approveDecision, queryApprovedDefinition } from "../../fabric/chaincode/approved.js";
import { approveForMyOrg, TransactionInvalidError } from "../../fabric/chaincode/lifecycle.js";
import { ProposalError } from "../../fabric/peer-client.js";
import { ConflictError, errorMessage } from "../../http/errors.js";
import type { ChaincodePackaging } from "./chaincodes.package.js";
import type { ChaincodeShared, ChaincodesDeps } from "./chaincodes.shared.js";

/** `_lifecycle`'s answer to an approval identical to the org's current one. */
const UNCHANGED_RE =
  /attempted to redefine (?:uncommitted|the current committed) sequence \(\d+\) for namespace \S+( with unchanged content)?$/;

/**
 * Approves a definition for the org of one of its peers, idempotently: what the org already
 * approved (QueryApprovedChaincodeDefinition at the same sequence) is compared with the
 * definition first, and an identical approval answers success with `already: "approved"` and
 * sends nothing. Every approve leaves one timeline entry, written before anything is sent.
 */
export function createChaincodeApprove(
  deps: ChaincodesDeps,
  s: ChaincodeShared,
  pkgs: Pick<ChaincodePackaging, "packageOf">,
) {
  const { ctx } = deps;
  const { definition, channelPeer, ordererEndpoint, adminOf, begin, lifecycleInput, committed, fabricFailure } = s;
  return {
    async approve(definitionId: number, peerId: number, user: string): Promise<Record<string, string>> {
      const { def, cc } = await definition(definitionId);
      const p = await channelPeer(cc, peerId, "peer_id");
      let pkg = { packageId: def.package_id ?? "" };
      const entry = await begin(def.id, "approve", { user, peer_id: p.id, peer_name: p.name, msp_id: p.mspId });
      const already = async (): Promise<Record<string, string>> => {
        await entry.finish("success", { already: "approved", package_id: pkg.packageId });
        return {
          status: "success",
          message: `already approved for ${p.mspId} (sequence ${def.sequence}); nothing was sent`,
          already: "approved",
          msp_id: p.mspId,
        };
      };
      try {
        pkg = await pkgs.packageOf(cc, def);
        const signer = await adminOf(p);
        const input = lifecycleInput(cc, def);
        const peer = ctx.grpcEndpoint(p);
        const approvedNow = () =>
          queryApprovedDefinition(peer, signer, cc.network_name, cc.name, def.sequence).catch(() => undefined);
        const [approved, c] = await Promise.all([approvedNow(), committed(cc, p).catch(() => undefined)]);
        const decision = approveDecision(input, pkg.packageId, approved, c?.sequence ?? 0);
        if (decision.kind === "already") return await already();
        if (decision.kind === "conflict") {
          throw new ConflictError(
            `sequence ${def.sequence} of '${cc.name}' is committed on '${cc.network_name}' with other parameters than definition ${def.id}: ${decision.differences.join(", ")}; create a definition with sequence ${(c?.sequence ?? def.sequence) + 1} instead`,
            { differences: decision.differences },
          );
        }
        const orderer = await ordererEndpoint(cc);
        try {
          const { txId } = await approveForMyOrg({
            peer,
            orderer,
            signer,
            channelId: cc.network_name,
            definition: input,
            packageId: pkg.packageId,
          });
          const replaced = decision.kind === "replace" ? decision.differences : undefined;
          await entry.finish("success", { tx_id: txId, package_id: pkg.packageId, ...(replaced ? { replaced } : {}) });
          return {
            status: "success",
            message: replaced
              ? `approved for ${p.mspId}, replacing its approval of sequence ${def.sequence} that differed in: ${replaced.join(", ")}`
              : `approved for ${p.mspId}`,
            transaction_id: txId,
            msp_id: p.mspId,
          };
        } catch (err) {
          // Another approve of the same definition got there first (a retry racing the original).
          const raced =
            (err instanceof ProposalError && UNCHANGED_RE.test(err.peerMessage)) ||
            (err instanceof TransactionInvalidError &&
              approveDecision(input, pkg.packageId, await approvedNow(), 0).kind === "already");
          if (raced) return await already();
          throw err;
        }
      } catch (err) {
        await entry.finish("failed", {
          error: err instanceof ProposalError ? err.peerMessage : errorMessage(err),
        });
        return fabricFailure(`approve for ${p.mspId}`, err);
      }
    },
  };
}
