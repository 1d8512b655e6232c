import { common, peer } from "@hyperledger/fabric-protos";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { decodeBlock } from "../../fabric/block-decode.js";
import { fetchNewestConfigBlock } from "../../fabric/deliver.js";
import { createPeerClient, ProposalError } from "../../fabric/peer-client.js";
import { AppError, ConflictError, errorMessage, NotFoundError, UpstreamError } from "../../http/errors.js";
import type { FabricContext } from "./fabric-networks.context.js";
import { toBlockDto, type FabricInspect } from "./fabric-networks.inspect.js";
import { blockDto } from "./fabric-networks.inspect.schema.js";
import type { FabricNetworksRepo } from "./fabric-networks.repo.js";
import { idParams, tags } from "./fabric-networks.routes.js";
import { txValidationCodeName } from "../../fabric/enum-names.js";

const txParams = lazySchema(() =>
  z
    .object({
      id: idParams.unwrap().shape.id,
      txId: z
        .string()
        .min(1)
        .max(128)
        .regex(/^[A-Za-z0-9_.:-]+$/, "letters, digits, '_', '.', ':' and '-' only")
        .describe("Transaction id"),
    })
    .strict(),
);

const reloadResponse = lazySchema(() =>
  z
    .record(z.string(), z.string())
    .describe("message, channel, blockNumber (the config block stored) and readFrom (the node it came from)"),
);

/** QSCC answers a tx id it has not indexed with these words (Fabric 2.x and 3.x). */
const UNKNOWN_TX = /no such transaction ID|not found|doesn't exist|does not exist/i;

/**
 * A transaction read from a joined peer (QSCC GetTransactionByID for the envelope's validation
 * code, GetBlockByTxID for the block it is in), and reloading the channel's newest config block
 * into the console (upstream's reload-block), which then serves it as `currentConfigBlock` and
 * reads the channel's orderers from it.
 */
export function createFabricTx(deps: {
  ctx: FabricContext;
  repo: Pick<FabricNetworksRepo, "setConfigBlock">;
  inspect: Pick<FabricInspect, "reader">;
}) {
  const { ctx, repo, inspect } = deps;
  return {
    async transaction(id: number, txId: string) {
      const network = await ctx.network(id);
      const r = await inspect.reader(network, "peer");
      if (r.service !== "peer")
        throw new ConflictError(
          `network '${network.name}' has no joined, running peer; transactions are read on peers`,
        );
      const client = createPeerClient(r.endpoint, r.signer, 15_000);
      try {
        const qscc = (fn: string) =>
          client.invokeSystemChaincode({ chaincode: "qscc", channelId: network.name, args: [fn, network.name, txId] });
        const processed = peer.ProcessedTransaction.deserializeBinary(await qscc("GetTransactionByID"));
        const block = common.Block.deserializeBinary(await qscc("GetBlockByTxID"));
        const dto = toBlockDto(decodeBlock(block));
        const code = txValidationCodeName(processed.getValidationcode());
        const txs = dto.transactions.filter((t) => t.id === txId).map((t) => ({ ...t, validationCode: code }));
        return { block: { ...dto, transactions: txs } };
      } catch (err) {
        if (err instanceof ProposalError && UNKNOWN_TX.test(err.peerMessage))
          throw new NotFoundError(`txId: transaction '${txId}' not found on channel '${network.name}'`);
        if (err instanceof AppError) throw err;
        throw new UpstreamError(`reading transaction '${txId}' from '${r.node.name}': ${errorMessage(err)}`);
      } finally {
        client.close();
      }
    },

    async reloadBlock(id: number): Promise<Record<string, string>> {
      const network = await ctx.network(id);
      // The orderer has a new config block first; a peer may still be catching up.
      const r = await inspect.reader(network, "orderer");
      let block: common.Block;
      try {
        block = await fetchNewestConfigBlock({
          endpoint: r.endpoint,
          service: r.service,
          signer: r.signer,
          channelId: network.name,
        });
      } catch (err) {
        throw new UpstreamError(
          `reading the config block of '${network.name}' from '${r.node.name}': ${errorMessage(err)}`,
        );
      }
      const number = block.getHeader()?.getNumber() ?? 0;
      await repo.setConfigBlock(network.id, Buffer.from(block.serializeBinary()).toString("base64"));
      return {
        message: `config block ${number} of '${network.name}' read from '${r.node.name}' and stored`,
        channel: network.name,
        blockNumber: String(number),
        readFrom: r.node.name,
      };
    },
  };
}

/** GET /networks/fabric/{id}/transactions/{txId} and POST /networks/fabric/{id}/reload-block. */
export function registerFabricTxRoutes(app: FastifyInstance, tx: ReturnType<typeof createFabricTx>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/networks/fabric/:id/transactions/:txId",
    {
      config: { access: "NETWORK_READ" },
      schema: {
        operationId: "getFabricTransaction",
        tags,
        summary: "A transaction, decoded, with the block it is in (read from a joined peer's QSCC)",
        description:
          "block.transactions holds only this transaction: its type, creator MSP, validation code and, for a " +
          "chaincode call, the chaincode, function and arguments, reads and writes. 404 naming the txId when the " +
          "channel has no such transaction.",
        params: txParams,
        response: { 200: lazySchema(() => z.object({ block: blockDto }).describe("The transaction in its block")) },
      },
    },
    async (req) => tx.transaction(req.params.id, req.params.txId),
  );
  r.post(
    "/networks/fabric/:id/reload-block",
    {
      config: { access: "NETWORK_UPDATE", audit: "fabric_network.reload_block" },
      schema: {
        operationId: "reloadNetworkBlock",
        tags,
        summary: "Read the channel's newest config block from a joined orderer (or peer) and store it",
        description:
          "Afterwards the network's currentConfigBlock is that block, and the console reads the channel's " +
          "orderers from it (config changes made outside the console included).",
        params: idParams,
        response: { 200: reloadResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `network:${req.params.id}`;
      const res = await tx.reloadBlock(req.params.id);
      req.auditInfo.details = { blockNumber: res.blockNumber, readFrom: res.readFrom };
      return res;
    },
  );
}
