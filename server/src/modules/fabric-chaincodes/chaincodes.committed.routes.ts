import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { committedResponse, networkParams } from "./chaincodes.schema.js";
import type { ChaincodesService } from "./chaincodes.service.js";

/**
 * GET /networks/fabric/{id}/chaincodes/committed: the chaincodes committed on a channel, read from
 * a peer, adopted when committed outside this console (chaincodes.adopt.ts). A read that records
 * what the channel already holds: it is audited as `chaincode.adopt` only when it recorded
 * something, so the Chaincodes tab's polling leaves no trail of reads.
 */
export function registerCommittedChaincodesRoute(
  app: FastifyInstance,
  svc: Pick<ChaincodesService, "committedChaincodes">,
): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/networks/fabric/:id/chaincodes/committed",
    {
      config: { access: "CHAINCODE_READ", audit: "chaincode.adopt" },
      schema: {
        operationId: "listFabricNetworkCommittedChaincodes",
        tags: ["Chaincode"],
        summary: "Chaincodes committed on the channel, read from a peer; those committed elsewhere are adopted",
        description:
          "Asks a running peer of this console that joined the channel (_lifecycle QueryChaincodeDefinitions). " +
          "A chaincode committed outside this console (the peer CLI, another console) gets a chaincode record " +
          "and a definition with the committed version, sequence, policy, init_required and collections " +
          '(origin "adopted", no source), so it can be upgraded with the next sequence. A definition the ' +
          "console already has at that sequence is never changed. 409 when no peer here can be asked.",
        params: networkParams,
        response: { 200: committedResponse },
      },
      // Only a call that recorded something is an event for the audit log (see above): before the
      // input is validated, so a refused read leaves no entry either.
      preValidation: async (req) => {
        req.auditDone = true;
      },
    },
    async (req) => {
      const res = await svc.committedChaincodes(req.params.id, req.principal?.username ?? "");
      const adopted = res.chaincodes.filter((c) => c.adopted_now);
      if (adopted.length > 0) {
        req.auditDone = false;
        req.auditInfo.resource = `network:${req.params.id}`;
        req.auditInfo.details = {
          adopted: adopted.map((c) => ({ name: c.name, sequence: c.sequence, chaincode_id: c.chaincode_id })),
        };
      }
      return res;
    },
  );
}
