import { nowIso } from "../../db/db.js";
import { queryCommittedDefinitions, type CommittedDefinition } from "../../fabric/chaincode/committed.js";
import { ConflictError, errorMessage } from "../../http/errors.js";
import type { FabricNodeInfo } from "../fabric-networks/fabric-networks.context.js";
import type { AdoptResult } from "./chaincodes.repo.js";
import type { CommittedChaincode, CommittedResponse, DefinitionResponse } from "./chaincodes.schema.js";
import type { ChaincodeShared, ChaincodesDeps } from "./chaincodes.shared.js";

/**
 * Chaincodes committed on a channel outside this console (the `peer` CLI, another console): read
 * from a peer of the channel and adopted, so they appear with their definitions and can be
 * upgraded through the normal lifecycle (a definition with the next sequence).
 *
 * Adoption only ever inserts. A chaincode the console has no record of gets one; a record without
 * a definition at the committed sequence (a name registered to query and invoke it, or a console
 * that has not seen the latest upgrade) gets a definition with the committed parameters, no source
 * (`source_type` none) and origin "adopted". A definition already at that sequence, whoever made
 * it, is left untouched, so a definition the console drives is never overwritten.
 */
export function createChaincodeAdoption(deps: ChaincodesDeps, s: ChaincodeShared) {
  const { repo, ctx } = deps;

  /** Records one committed definition unless the console has a definition at its sequence. */
  async function adoptOne(
    network: { id: number; name: string },
    reader: FabricNodeInfo,
    c: CommittedDefinition,
    user: string,
  ): Promise<AdoptResult> {
    // Most calls find everything recorded: look before choosing a port for a new definition.
    const known = (await repo.list(network.id)).find((r) => r.name === c.name);
    if (known) {
      const at = (await repo.definitionsOf([known.id])).find((d) => d.sequence === c.sequence);
      if (at) return { chaincodeId: known.id, definitionId: at.id, adopted: false, origin: at.origin };
    }
    const now = nowIso();
    const where = { peer_id: reader.id, peer_name: reader.name, msp_id: reader.mspId };
    const result = await repo.adopt({
      networkId: network.id,
      name: c.name,
      definition: {
        version: c.version,
        sequence: c.sequence,
        endorsement_policy: c.endorsementPolicy,
        init_required: c.initRequired ? 1 : 0,
        collections: JSON.stringify(c.collections),
        docker_image: "",
        // A port of its own, so the code can be uploaded, installed and run here later.
        chaincode_address: await s.chooseAddress(undefined),
        source_type: "none",
        source_path: null,
        tls: 0,
        tls_key_id: null,
        package_id: null,
        environment: "{}",
        deploy_status: "none",
        deploy_error: null,
        created_at: now,
        updated_at: now,
      },
      events: [
        {
          event_type: "adopted",
          event_data: JSON.stringify({
            status: "success",
            user,
            version: c.version,
            sequence: c.sequence,
            ...where,
            message: `committed on '${network.name}' outside this console; recorded from what peer '${reader.name}' reports`,
          }),
          created_at: now,
        },
        {
          event_type: "commit",
          event_data: JSON.stringify({ status: "success", outside: true, sequence: c.sequence, ...where }),
          created_at: now,
        },
      ],
    });
    if (result.adopted) {
      deps.bus.publish("chaincode.adopted", {
        chaincode_id: result.chaincodeId,
        chaincode_name: c.name,
        version: c.version,
        sequence: c.sequence,
        network_id: network.id,
      });
    }
    return result;
  }

  return {
    /**
     * Every chaincode committed on the network's channel (`_lifecycle` QueryChaincodeDefinitions on
     * a running peer of this console, signed by its org's admin), each adopted when the console
     * has no definition at its committed sequence. Idempotent: a second call finds everything
     * recorded and writes nothing.
     * @throws NotFoundError for an unknown network; ConflictError when no peer here can be asked
     */
    async committedChaincodes(networkId: number, user: string): Promise<CommittedResponse> {
      const network = await ctx.network(networkId);
      const { peers } = await s.channelNodes(networkId);
      const reader = peers.find((p) => p.status === "RUNNING");
      if (!reader) {
        throw new ConflictError(
          `channel '${network.name}' has no running joined peer on this console to read its committed chaincodes from`,
        );
      }
      const committed = await queryCommittedDefinitions(
        ctx.grpcEndpoint(reader),
        await s.adminOf(reader),
        network.name,
      ).catch((err: unknown) => s.fabricFailure(`read the chaincodes committed on '${network.name}'`, err));
      const chaincodes: CommittedChaincode[] = [];
      for (const c of committed) {
        const base = {
          name: c.name,
          version: c.version,
          sequence: c.sequence,
          endorsement_plugin: c.endorsementPlugin,
          validation_plugin: c.validationPlugin,
          endorsement_policy: c.endorsementPolicy,
          init_required: c.initRequired,
          collections: c.collections,
        };
        try {
          const r = await adoptOne(network, reader, c, user);
          chaincodes.push({
            ...base,
            chaincode_id: r.chaincodeId,
            definition_id: r.definitionId,
            origin: r.origin as DefinitionResponse["origin"],
            adopted_now: r.adopted,
          });
        } catch (err) {
          // One chaincode that can't be recorded does not hide the others.
          chaincodes.push({
            ...base,
            chaincode_id: null,
            definition_id: null,
            origin: null,
            adopted_now: false,
            error: errorMessage(err),
          });
        }
      }
      return {
        network_id: network.id,
        channel: network.name,
        peer: { id: reader.id, name: reader.name, msp_id: reader.mspId },
        chaincodes,
      };
    },
  };
}

export type ChaincodeAdoption = ReturnType<typeof createChaincodeAdoption>;
