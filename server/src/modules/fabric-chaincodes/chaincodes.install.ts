import { installChaincode } from "../../fabric/chaincode/lifecycle.js";
import { ProposalError } from "../../fabric/peer-client.js";
import { errorMessage, UpstreamError } from "../../http/errors.js";
import type { ChaincodePackaging } from "./chaincodes.package.js";
import type { ChaincodeShared, ChaincodesDeps } from "./chaincodes.shared.js";
import { operationPhase } from "../operations/operation-scope.js";

/** Installs a definition's ccaas package on peers of the channel (each peer its own timeline entry). */
export function createChaincodeInstall(
  deps: ChaincodesDeps,
  s: ChaincodeShared,
  pkgs: Pick<ChaincodePackaging, "packageOf">,
) {
  const { ctx } = deps;
  const { definition, channelPeer, adminOf, begin } = s;
  return {
    /** Installing a package a peer already has is a success (`already_installed`), as the peer allows. */
    async install(definitionId: number, peerIds: number[], user: string): Promise<Record<string, string>> {
      const { def, cc } = await definition(definitionId);
      const peers = await Promise.all(peerIds.map((id, i) => channelPeer(cc, id, `peer_ids[${i}]`)));
      const pkg = await pkgs.packageOf(cc, def);
      operationPhase("install");
      const failures: string[] = [];
      await Promise.all(
        peers.map(async (p) => {
          const entry = await begin(def.id, "install", {
            user,
            peer_id: p.id,
            peer_name: p.name,
            msp_id: p.mspId,
            package_id: pkg.packageId,
          });
          try {
            const r = await installChaincode(ctx.grpcEndpoint(p), await adminOf(p), pkg.bytes);
            await entry.finish("success", { package_id: r.packageId, already_installed: r.alreadyInstalled });
          } catch (err) {
            const message = err instanceof ProposalError ? err.peerMessage : errorMessage(err);
            failures.push(`${p.name}: ${message}`);
            await entry.finish("failed", { error: message });
          }
        }),
      );
      if (failures.length) {
        throw new UpstreamError(
          `install failed on ${failures.length} of ${peers.length} peers: ${failures.join("; ")}`,
          { packageId: pkg.packageId },
        );
      }
      return { status: "success", message: `installed on ${peers.length} peer(s)`, package_id: pkg.packageId };
    },
  };
}
