import {
  approveForMyOrg,
  checkCommitReadiness,
  commitDefinition,
  installChaincode,
} from "../../fabric/chaincode/lifecycle.js";
import type { GrpcEndpoint } from "../../fabric/grpc-connection.js";
import { ProposalError } from "../../fabric/peer-client.js";
import { ConflictError, errorMessage, UpstreamError } from "../../http/errors.js";
import type { ChaincodePackaging } from "./chaincodes.package.js";
import type { ChaincodeShared, ChaincodesDeps } from "./chaincodes.shared.js";

/** The _lifecycle steps on this console's peers: install, approve for an org, commit on the channel. */
export function createChaincodeLifecycle(
  deps: ChaincodesDeps,
  s: ChaincodeShared,
  pkgs: Pick<ChaincodePackaging, "packageOf">,
) {
  const { ctx } = deps;
  const {
    definition,
    channelPeer,
    channelNodes,
    ordererEndpoint,
    adminOf,
    event,
    lifecycleInput,
    committed,
    fabricFailure,
  } = s;
  const { packageOf } = pkgs;
  const api = {
    async install(definitionId: number, peerIds: number[], user: string): Promise<Record<string, string>> {
      const { def, cc } = await definition(definitionId);
      const peers = await Promise.all(peerIds.map((id, i) => channelPeer(cc, id, `peer_ids[${i}]`)));
      const pkg = await packageOf(cc, def);
      const failures: string[] = [];
      await Promise.all(
        peers.map(async (p) => {
          const started = Date.now();
          try {
            const r = await installChaincode(ctx.grpcEndpoint(p), await adminOf(p), pkg.bytes);
            await event(def.id, "install", {
              status: "success",
              user,
              peer_id: p.id,
              peer_name: p.name,
              msp_id: p.mspId,
              package_id: r.packageId,
              already_installed: r.alreadyInstalled,
              duration_ms: Date.now() - started,
            });
          } catch (err) {
            const message = err instanceof ProposalError ? err.peerMessage : errorMessage(err);
            failures.push(`${p.name}: ${message}`);
            await event(def.id, "install", {
              status: "failed",
              user,
              peer_id: p.id,
              peer_name: p.name,
              msp_id: p.mspId,
              error: message,
            });
          }
        }),
      );
      if (failures.length) {
        throw new UpstreamError(
          `install failed on ${failures.length} of ${peers.length} peers: ${failures.join("; ")}`,
          {
            packageId: pkg.packageId,
          },
        );
      }
      return { status: "success", message: `installed on ${peers.length} peer(s)`, package_id: pkg.packageId };
    },

    async approve(definitionId: number, peerId: number, user: string): Promise<Record<string, string>> {
      const { def, cc } = await definition(definitionId);
      const p = await channelPeer(cc, peerId, "peer_id");
      const orderer = await ordererEndpoint(cc);
      const pkg = await packageOf(cc, def);
      const signer = await adminOf(p);
      const started = Date.now();
      try {
        const { txId } = await approveForMyOrg({
          peer: ctx.grpcEndpoint(p),
          orderer,
          signer,
          channelId: cc.network_name,
          definition: lifecycleInput(cc, def),
          packageId: pkg.packageId,
        });
        await event(def.id, "approve", {
          status: "success",
          user,
          peer_id: p.id,
          peer_name: p.name,
          msp_id: p.mspId,
          tx_id: txId,
          duration_ms: Date.now() - started,
        });
        return { status: "success", message: `approved for ${p.mspId}`, transaction_id: txId, msp_id: p.mspId };
      } catch (err) {
        await event(def.id, "approve", {
          status: "failed",
          user,
          peer_id: p.id,
          msp_id: p.mspId,
          error: err instanceof ProposalError ? err.peerMessage : errorMessage(err),
        });
        return fabricFailure(`approve for ${p.mspId}`, err);
      }
    },

    async commit(definitionId: number, peerId: number, user: string): Promise<Record<string, string>> {
      const { def, cc } = await definition(definitionId);
      const p = await channelPeer(cc, peerId, "peer_id");
      const orderer = await ordererEndpoint(cc);
      const signer = await adminOf(p);
      const input = lifecycleInput(cc, def);
      const c = await committed(cc, p).catch(() => undefined);
      if (c && c.sequence >= def.sequence) {
        throw new ConflictError(
          `sequence ${def.sequence} of '${cc.name}' is already committed on '${cc.network_name}'`,
        );
      }
      const approvals = await checkCommitReadiness(ctx.grpcEndpoint(p), signer, cc.network_name, input).catch(
        (err: unknown) => fabricFailure("check commit readiness", err),
      );
      const orgs = Object.keys(approvals);
      const missing = orgs.filter((o) => !approvals[o]);
      const needed = Math.floor(orgs.length / 2) + 1;
      if (orgs.length - missing.length < needed) {
        const message = `not enough approvals to commit: ${orgs.length - missing.length} of ${orgs.length} orgs approved, ${needed} needed (the channel's LifecycleEndorsement is a majority by default); not approved: ${missing.join(", ")}`;
        await event(def.id, "commit", { status: "failed", user, error: message, approvals });
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
      const started = Date.now();
      try {
        const { txId } = await commitDefinition({
          peers: endorsers.map((e) => e.endpoint),
          orderer,
          signer,
          channelId: cc.network_name,
          definition: input,
        });
        await event(def.id, "commit", {
          status: "success",
          user,
          peer_id: p.id,
          msp_id: p.mspId,
          endorsed_by: endorsers.map((e) => e.mspId),
          tx_id: txId,
          duration_ms: Date.now() - started,
        });
        deps.bus.publish("chaincode.committed", {
          chaincode_id: cc.id,
          chaincode_name: cc.name,
          version: def.version,
          sequence: def.sequence,
          network_id: cc.network_id,
        });
        return { status: "success", message: `committed sequence ${def.sequence}`, transaction_id: txId };
      } catch (err) {
        await event(def.id, "commit", {
          status: "failed",
          user,
          peer_id: p.id,
          error: err instanceof ProposalError ? err.peerMessage : errorMessage(err),
        });
        return fabricFailure("commit", err);
      }
    },
  };
  return api;
}

export type ChaincodeLifecycle = ReturnType<typeof createChaincodeLifecycle>;
