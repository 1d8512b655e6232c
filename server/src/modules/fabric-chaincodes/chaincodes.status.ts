import {
  checkCommitReadiness,
  queryChaincodeDefinition,
  queryInstalledChaincodes,
} from "../../fabric/chaincode/lifecycle.js";
import { ProposalError } from "../../fabric/peer-client.js";
import { ConflictError, errorMessage, InputError } from "../../http/errors.js";
import type { ChaincodePackaging } from "./chaincodes.package.js";
import type { StatusResponse } from "./chaincodes.schema.js";
import type { ChaincodeShared, ChaincodesDeps } from "./chaincodes.shared.js";

/** Where definitions stand, read from the peers: installed, approved, committed, and the running server. */
export function createChaincodeStatus(
  deps: ChaincodesDeps,
  s: ChaincodeShared,
  pkgs: Pick<ChaincodePackaging, "packageOf">,
) {
  const { repo, ctx, runtime } = deps;
  const { chaincode, definition, channelNodes, readPeer, adminOf, committed, lifecycleInput, fabricFailure } = s;
  const { packageOf } = pkgs;
  const api = {
    /** Where the definition stands, read from the peers: installed where, approved by whom, what is committed. */
    async status(definitionId: number): Promise<StatusResponse> {
      const { def, cc } = await definition(definitionId);
      const pkg = await packageOf(cc, def);
      const label = pkg.packageId.split(":")[0] ?? "";
      const { peers } = await channelNodes(cc.network_id);
      const peerStates = await Promise.all(
        peers.map(async (p) => {
          const base = { peer_id: p.id, peer_name: p.name, msp_id: p.mspId, status: p.status };
          if (p.status !== "RUNNING")
            return { ...base, installed: false, package_ids: [], error: `peer is ${p.status}` };
          try {
            const installed = await queryInstalledChaincodes(ctx.grpcEndpoint(p), await adminOf(p));
            const ids = installed.filter((i) => i.label === label).map((i) => i.packageId);
            return { ...base, installed: ids.includes(pkg.packageId), package_ids: ids };
          } catch (err) {
            return { ...base, installed: false, package_ids: [], error: errorMessage(err) };
          }
        }),
      );
      const reader = await readPeer(cc);
      let orgs: StatusResponse["orgs"] = [];
      let committedDef: StatusResponse["committed"] = null;
      let readinessError: string | undefined;
      if (reader) {
        const signer = await adminOf(reader);
        const c = await queryChaincodeDefinition(ctx.grpcEndpoint(reader), signer, cc.network_name, cc.name).catch(
          () => undefined,
        );
        if (c) committedDef = { sequence: c.sequence, version: c.version, endorsement_policy: c.endorsementPolicy };
        if (c && c.sequence >= def.sequence) {
          orgs = Object.entries(c.sequence === def.sequence ? c.approvals : {}).map(([msp_id, approved]) => ({
            msp_id,
            approved,
          }));
        } else {
          try {
            const a = await checkCommitReadiness(
              ctx.grpcEndpoint(reader),
              signer,
              cc.network_name,
              lifecycleInput(cc, def),
            );
            orgs = Object.entries(a).map(([msp_id, approved]) => ({ msp_id, approved }));
          } catch (err) {
            readinessError = err instanceof ProposalError ? err.peerMessage : errorMessage(err);
          }
        }
      } else {
        readinessError = `no running peer of channel '${cc.network_name}' to ask`;
      }
      const s = runtime.state(def.id);
      return {
        definition_id: def.id,
        channel: cc.network_name,
        package_id: pkg.packageId,
        peers: peerStates,
        orgs,
        committed: committedDef,
        next_sequence: (committedDef?.sequence ?? 0) + 1,
        ...(readinessError ? { readiness_error: readinessError } : {}),
        deploy: {
          status: ((await repo.definition(def.id))?.deploy_status ??
            def.deploy_status) as StatusResponse["deploy"]["status"],
          pid: s?.pid ?? null,
          restarts: s?.restarts ?? 0,
          error: def.deploy_error,
        },
      };
    },

    /**
     * Each org's approval of a definition, read from a running peer of the channel here
     * (CheckCommitReadiness, or the committed definition's approvals), and the committed sequence.
     * `{}` and null when no peer here can answer.
     */
    async approvals(definitionId: number): Promise<{ approvals: Record<string, boolean>; committed: number | null }> {
      const { def, cc } = await definition(definitionId);
      const reader = await readPeer(cc);
      if (!reader) return { approvals: {}, committed: null };
      try {
        const c = await committed(cc, reader);
        if (c && c.sequence >= def.sequence) {
          return { approvals: c.sequence === def.sequence ? c.approvals : {}, committed: c.sequence };
        }
        const a = await checkCommitReadiness(
          ctx.grpcEndpoint(reader),
          await adminOf(reader),
          cc.network_name,
          lifecycleInput(cc, def),
        );
        return { approvals: a, committed: c?.sequence ?? 0 };
      } catch {
        return { approvals: {}, committed: null };
      }
    },

    /** The committed sequence of a chaincode on a channel, read from one peer. */
    async sequence(peerId: number, chaincodeName: string, channelName: string) {
      const p = await ctx.node(peerId, "peerId");
      if (p.role !== "peer") throw new InputError(`peerId: node '${p.name}' is not a peer`, { field: "peerId" });
      try {
        const c = await queryChaincodeDefinition(ctx.grpcEndpoint(p), await adminOf(p), channelName, chaincodeName);
        return {
          chaincode_name: chaincodeName,
          channel_name: channelName,
          sequence: c?.sequence ?? 0,
          status: "success",
          message: c ? `version ${c.version} is committed` : "no definition committed",
        };
      } catch (err) {
        return fabricFailure("query the committed definition", err);
      }
    },

    /** MSP ids named by the endorsement policy of the chaincode's newest definition (for error messages). */
    async policyOrgs(chaincodeId: number): Promise<string[]> {
      const defs = await repo.definitionsOf([chaincodeId]);
      const policy = defs.at(-1)?.endorsement_policy ?? "";
      return [
        ...new Set(
          [...policy.matchAll(/['"]([A-Za-z0-9.-]+)\.(?:member|peer|admin|client|orderer)['"]/g)].map(
            (m) => m[1] as string,
          ),
        ),
      ];
    },

    /** The sequence committed on the channel for a chaincode (0: none yet). @throws when no peer can be asked */
    async committedSequence(chaincodeId: number): Promise<number> {
      const cc = await chaincode(chaincodeId);
      if (!(await readPeer(cc))) {
        throw new ConflictError(`channel '${cc.network_name}' has no running joined peer on this console to ask`);
      }
      return (await committed(cc))?.sequence ?? 0;
    },
  };
  return api;
}

export type ChaincodeStatus = ReturnType<typeof createChaincodeStatus>;
