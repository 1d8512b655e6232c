import { z } from "zod";
import { lazySchema, offsetQuery } from "../../http/schema-helpers.js";

export const transactionDto = lazySchema(() =>
  z
    .object({
      id: z.string().describe("Transaction id"),
      type: z.string().describe("Header type: CONFIG, ENDORSER_TRANSACTION, ..."),
      channelId: z.string().describe("Channel"),
      createdAt: z.string().describe("Client timestamp (ISO-8601)"),
      creatorMspId: z.string().describe("MSP id of the creator"),
      validationCode: z.string().describe("VALID, MVCC_READ_CONFLICT, ... (empty when unset)"),
      chaincodeId: z.string().describe("Chaincode of the first action"),
      version: z.string().describe("Chaincode version"),
      path: z.string().describe("Unused (empty)"),
      request: z.array(z.string()).describe("Function and args (UTF-8, best effort)"),
      response: z.string().describe("Chaincode response status and message"),
      reads: z
        .array(
          z.object({
            chaincodeId: z.string().describe("Namespace"),
            key: z.string().describe("Key"),
            blockNumVersion: z.number().int().describe("Block of the version read"),
            txNumVersion: z.number().int().describe("Tx of the version read"),
          }),
        )
        .describe("Keys read"),
      writes: z
        .array(
          z.object({
            chaincodeId: z.string().describe("Namespace"),
            key: z.string().describe("Key"),
            value: z.string().describe("Value (UTF-8, or base64)"),
            deleted: z.boolean().describe("A delete"),
          }),
        )
        .describe("Keys written"),
      event: z
        .object({ name: z.string().describe("Event name"), value: z.string().describe("Payload") })
        .optional()
        .describe("Chaincode event, if any"),
    })
    .meta({ id: "FabricTransaction" }),
);
export type TransactionDto = z.infer<typeof transactionDto>;

export const blockDto = lazySchema(() =>
  z
    .object({
      number: z.number().int().describe("Block number"),
      hash: z.string().describe("Hex header hash"),
      previousHash: z.string().describe("Hex header hash of the previous block"),
      dataHash: z.string().describe("Hex data hash"),
      createdAt: z.string().describe("Timestamp of its first transaction"),
      transactions: z.array(transactionDto).describe("Decoded transactions"),
    })
    .meta({ id: "FabricBlock" }),
);
export type BlockDto = z.infer<typeof blockDto>;

export const chainInfoResponse = lazySchema(() =>
  z.object({
    height: z.number().int().describe("Number of blocks"),
    currentBlockHash: z.string().describe("Hex hash of the newest block"),
    previousBlockHash: z.string().describe("Hex hash of the block before it"),
  }),
);

export const blocksQuery = lazySchema(() =>
  z
    .object({
      limit: z.coerce.number().int().min(1).max(100).default(10).describe("Blocks per page"),
      offset: offsetQuery().describe("Blocks to skip"),
      reverse: z
        .enum(["true", "false"])
        .default("true")
        .transform((v) => v === "true")
        .describe("Newest first (default true)"),
    })
    .strict(),
);

export const channelConfigResponse = lazySchema(() =>
  z.object({
    name: z.string().describe("Channel name"),
    config: z.record(z.string(), z.unknown()).describe("The channel config as configtxlator JSON"),
  }),
);

export const networkMapResponse = lazySchema(() =>
  z.object({
    networkId: z.number().int().describe("Network id"),
    platform: z.string().describe("FABRIC"),
    nodes: z
      .array(
        z.object({
          nodeId: z.number().int().describe("Node id"),
          id: z.string().describe("Node name"),
          host: z.string().describe("Host"),
          port: z.number().int().describe("Port"),
          role: z.string().describe("peer or orderer"),
          mspId: z.string().describe("MSP id"),
          mine: z.boolean().describe("Held by this console"),
          healthy: z.boolean().describe("Answered for the channel"),
          height: z.number().int().describe("Its chain height (0 when not joined or unreachable)"),
          joinStatus: z.string().describe("pending, joined, failed or unjoined"),
          latency: z.string().describe("Round trip of the height query"),
          latencyNs: z.number().int().describe("Same in ns"),
          error: z.string().optional().describe("Why it did not answer"),
        }),
      )
      .describe("Nodes"),
  }),
);
