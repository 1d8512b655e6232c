import type { FastifyInstance, FastifySchema } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { idPathParams, lazySchema } from "../../http/schema-helpers.js";
import { BesuInputError, BesuRpcError } from "../../besu/errors.js";
import type { BesuRpc } from "../../besu/rpc.js";
import { ConflictError, InputError, UpstreamError } from "../../http/errors.js";

const tags = ["Nodes"];
const idParams = idPathParams("Node id");
const str = (d: string) => z.string().max(200).describe(d);
const bool = lazySchema(() => z.enum(["true", "false"]).optional().describe("true or false"));
const anyObject = lazySchema(() => z.record(z.string(), z.unknown()).nullable().describe("The node's JSON-RPC result"));
const txObject = lazySchema(() => z.record(z.string(), z.unknown()).describe("A transaction as the node returns it"));
const hexList = (d: string) => z.array(z.string()).describe(d);
const feeHistory = lazySchema(() =>
  z
    .looseObject({
      oldestBlock: z.string().describe("First block of the range (0x-hex)"),
      baseFeePerGas: hexList("Base fee per gas of each block, plus the next block's").optional(),
      gasUsedRatio: z.array(z.number()).describe("Gas used / gas limit of each block"),
      reward: z
        .array(z.array(z.string()))
        .optional()
        .describe("Per block, the priority fee at each percentile asked for"),
    })
    .describe("eth_feeHistory's result; other fields the node adds (blob fees) are passed on"),
);
const hash32 = (d: string) => z.string().max(66).describe(d);
const logsBody = lazySchema(() =>
  z
    .object({
      fromBlock: str("First block: number (decimal or 0x-hex) or tag (default latest)").optional(),
      toBlock: str(`Last block (default latest); at most 5000 blocks after fromBlock`).optional(),
      blockHash: hash32("One block by hash, instead of fromBlock/toBlock").optional(),
      address: z
        .union([z.string().max(64), z.array(z.string().max(64)).max(100)])
        .optional()
        .describe("Contract address, or up to 100 of them"),
      topics: z
        .array(z.union([z.null(), hash32("Topic"), z.array(hash32("Topic")).max(32)]))
        .max(4)
        .optional()
        .describe("Up to 4 topic positions: a topic, a list of alternatives, or null for any"),
    })
    .strict(),
);

/** Where a Besu node's JSON-RPC endpoint is; provided by the nodes module. */
export interface RpcEndpointResolver {
  /** The HTTP JSON-RPC URL of a Besu node; throws NotFound/Input errors for unknown or non-Besu nodes. */
  rpcUrl(nodeId: number): Promise<string>;
  /** Why the node is not running (naming it and its status), or undefined when it runs. */
  notRunning(nodeId: number): Promise<string | undefined>;
}

/** The JSON-RPC client pulls in viem's client code (~100 ms to load): loaded on the first RPC call, not at start-up. */
export const rpcLibrary = () => import("../../besu/rpc.js");

/**
 * Runs a Besu library call, mapping its named input errors to 400 and node failures to 502, except
 * when the node could not be reached and is not running: that is a 409 naming the node (start it first).
 */
export async function runRpc<T>(
  fn: () => Promise<T>,
  target?: { nodeId: number; nodes: RpcEndpointResolver },
): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof BesuInputError) throw new InputError(err.message);
    if (err instanceof BesuRpcError) {
      // No JSON-RPC error code: the node did not answer at all. If it is not running, say so.
      const unreachable = err.rpcCode === undefined;
      const why =
        unreachable && target ? await target.nodes.notRunning(target.nodeId).catch(() => undefined) : undefined;
      if (why) throw new ConflictError(why);
      throw new UpstreamError(`the node's JSON-RPC call failed: ${err.message}`);
    }
    throw err;
  }
}

/**
 * The RPC explorer: read-only eth_* and qbft_* calls on a Besu node, plus QBFT validator votes.
 * Results are the node's own JSON-RPC results (quantities as 0x-hex).
 */
export function registerNodeRpcRoutes(app: FastifyInstance, nodes: RpcEndpointResolver): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const rpcOf = async (id: number): Promise<BesuRpc> =>
    (await rpcLibrary()).createBesuRpc(await nodes.rpcUrl(id), { timeoutMs: 10_000 });

  function get<Q extends z.ZodRawShape, R extends z.ZodTypeAny>(
    path: string,
    summary: string,
    query: Q,
    response: R,
    handler: (rpc: BesuRpc, q: z.infer<z.ZodObject<Q>>) => Promise<z.infer<R>>,
    operationId?: string,
  ): void {
    // Registered without the type provider: the response type is generic here, and the zod
    // serializer still checks every reply against `response`.
    const schema: FastifySchema = {
      ...(operationId ? { operationId } : {}),
      tags,
      summary,
      params: idParams,
      querystring: z.object(query).strict(),
      response: { 200: response },
    };
    app.get(`/nodes/:id/rpc/${path}`, { config: { access: "NODE_READ" }, schema }, async (req, reply) => {
      const { id } = req.params as z.infer<typeof idParams>;
      const result = await runRpc(async () => handler(await rpcOf(id), req.query as z.infer<z.ZodObject<Q>>), {
        nodeId: id,
        nodes,
      });
      // Fastify sends a string reply verbatim; the API returns JSON strings (quoted), as upstream does.
      if (typeof result === "string")
        return reply.type("application/json").send(JSON.stringify(response.parse(result)));
      return reply.send(result as never);
    });
  }

  get("accounts", "eth_accounts", {}, z.array(z.string()), (rpc) => rpc.accounts());
  get(
    "balance",
    "eth_getBalance",
    { address: str("Account address"), blockTag: str("Block tag (default latest)").optional() },
    z.string(),
    (rpc, q) => rpc.balance(q.address, q.blockTag),
  );
  get("block-by-hash", "eth_getBlockByHash", { hash: str("Block hash"), fullTx: bool }, anyObject, (rpc, q) =>
    rpc.blockByHash(q.hash, q.fullTx === "true"),
  );
  get(
    "block-by-number",
    "eth_getBlockByNumber",
    {
      number: str("Block number, decimal or 0x-hex").optional(),
      tag: str("Block tag: latest, earliest, pending").optional(),
      fullTx: bool,
    },
    anyObject,
    (rpc, q) => rpc.blockByNumber(q.number ?? q.tag, q.fullTx === "true"),
  );
  get("block-number", "eth_blockNumber", {}, z.string(), (rpc) => rpc.blockNumber());
  get(
    "block-transaction-count-by-number",
    "eth_getBlockTransactionCountByNumber",
    { number: str("Block number").optional(), tag: str("Block tag").optional() },
    z.string().nullable(),
    (rpc, q) => rpc.blockTransactionCountByNumber(q.number ?? q.tag),
  );
  get(
    "block-transaction-count-by-hash",
    "eth_getBlockTransactionCountByHash",
    { hash: str("Block hash") },
    z.string().nullable().describe("Transaction count (0x-hex), null for an unknown block"),
    (rpc, q) => rpc.blockTransactionCountByHash(q.hash),
    "getBesuBlockTransactionCountByHash",
  );
  get("chain-id", "eth_chainId", {}, z.string(), (rpc) => rpc.chainId());
  get(
    "code",
    "eth_getCode",
    { address: str("Contract address"), blockTag: str("Block tag").optional() },
    z.string(),
    (rpc, q) => rpc.code(q.address, q.blockTag),
  );
  get(
    "fee-history",
    "eth_feeHistory: base fees, gas used ratios and priority fee percentiles of recent blocks",
    {
      blockCount: str("Blocks, decimal or 0x-hex (1-1024)"),
      newestBlock: str("Newest block: number (decimal or 0x-hex) or latest, earliest, pending, safe, finalized"),
      rewardPercentiles: str(
        "Priority fee percentiles 0-100, ascending: 25,75 or [25,75] (none when empty)",
      ).optional(),
    },
    feeHistory,
    (rpc, q) => rpc.feeHistory(q.blockCount, q.newestBlock, q.rewardPercentiles),
    "getBesuFeeHistory",
  );
  get(
    "pending-transactions",
    "The node's pending transactions (eth_pendingTransactions, else txpool_besuPendingTransactions, else txpool_content)",
    {},
    z.array(txObject).describe("Pending transactions, at most 1000"),
    (rpc) => rpc.pendingTransactions(),
    "getBesuPendingTransactions",
  );
  get("protocol-version", "eth_protocolVersion", {}, z.string(), (rpc) => rpc.protocolVersion());
  get(
    "storage",
    "eth_getStorageAt",
    { address: str("Contract address"), position: str("Storage slot"), blockTag: str("Block tag").optional() },
    z.string(),
    (rpc, q) => rpc.storage(q.address, q.position, q.blockTag),
  );
  get("syncing", "eth_syncing", {}, z.union([z.literal(false), z.record(z.string(), z.unknown())]), (rpc) =>
    rpc.syncing(),
  );
  get(
    "transaction-count",
    "eth_getTransactionCount",
    { address: str("Account address"), blockTag: str("Block tag").optional() },
    z.string(),
    (rpc, q) => rpc.transactionCount(q.address, q.blockTag),
  );
  get("transaction-by-hash", "eth_getTransactionByHash", { hash: str("Transaction hash") }, anyObject, (rpc, q) =>
    rpc.transactionByHash(q.hash),
  );
  get(
    "transaction-by-block-hash-and-index",
    "eth_getTransactionByBlockHashAndIndex",
    { hash: str("Block hash"), index: str("Transaction index in the block, decimal or 0x-hex") },
    anyObject,
    (rpc, q) => rpc.transactionByBlockHashAndIndex(q.hash, q.index),
    "getBesuTransactionByBlockHashAndIndex",
  );
  get(
    "transaction-by-block-number-and-index",
    "eth_getTransactionByBlockNumberAndIndex",
    {
      number: str("Block number, decimal or 0x-hex").optional(),
      tag: str("Block tag: latest, earliest, pending (when no number; default latest)").optional(),
      index: str("Transaction index in the block, decimal or 0x-hex"),
    },
    anyObject,
    (rpc, q) => rpc.transactionByBlockNumberAndIndex(q.number ?? q.tag, q.index),
    "getBesuTransactionByBlockNumberAndIndex",
  );
  get("transaction-receipt", "eth_getTransactionReceipt", { hash: str("Transaction hash") }, anyObject, (rpc, q) =>
    rpc.transactionReceipt(q.hash),
  );
  get("qbft-pending-votes", "qbft_getPendingVotes", {}, z.record(z.string(), z.boolean()), (rpc) =>
    rpc.qbftPendingVotes(),
  );
  get("qbft-request-timeout", "qbft_getRequestTimeoutSeconds", {}, z.string(), async (rpc) =>
    String(await rpc.qbftRequestTimeout()),
  );
  get(
    "qbft-signer-metrics",
    "qbft_getSignerMetrics",
    { fromBlockNumber: str("First block").optional(), toBlockNumber: str("Last block").optional() },
    z.array(z.object({ address: z.string(), proposedBlockCount: z.string(), lastProposedBlockNumber: z.string() })),
    (rpc, q) => rpc.qbftSignerMetrics(q.fromBlockNumber, q.toBlockNumber),
  );
  get(
    "qbft-validators-by-block-hash",
    "qbft_getValidatorsByBlockHash",
    { blockHash: str("Block hash") },
    z.array(z.string()),
    (rpc, q) => rpc.qbftValidatorsByBlockHash(q.blockHash),
  );
  get(
    "qbft-validators-by-block-number",
    "qbft_getValidatorsByBlockNumber",
    { blockNumber: str("Block number, 0x-hex, or latest/earliest/pending") },
    z.array(z.string()),
    (rpc, q) => rpc.qbftValidatorsByBlockNumber(q.blockNumber),
  );

  r.post(
    "/nodes/:id/rpc/logs",
    {
      config: { access: "NODE_READ", audit: "node.rpc_logs" },
      schema: {
        operationId: "getBesuLogs",
        tags,
        summary: "eth_getLogs: event logs by block range or block hash, address and topics",
        params: idParams,
        body: logsBody,
        response: {
          200: lazySchema(() => z.array(z.record(z.string(), z.unknown()).describe("A log as the node returns it"))),
        },
      },
    },
    async (req) => {
      req.auditInfo.resource = `node:${req.params.id}`;
      const rpc = await rpcOf(req.params.id);
      return runRpc(() => rpc.logs(req.body), { nodeId: req.params.id, nodes });
    },
  );

  r.get(
    "/nodes/:id/rpc/decode-input",
    {
      config: { access: "NODE_READ" },
      schema: {
        tags,
        summary: "ABI-decode transaction calldata (selector and words without an ABI)",
        params: idParams,
        querystring: lazySchema(() =>
          z
            .object({
              input: z.string().max(200_000).describe("Calldata, 0x-hex"),
              abi: z.string().max(500_000).optional().describe("Contract ABI as JSON"),
            })
            .strict(),
        ),
        response: {
          200: lazySchema(() =>
            z.object({
              selector: z.string().describe("4-byte function selector"),
              functionName: z.string().optional().describe("Decoded function name"),
              args: z.array(z.unknown()).optional().describe("Decoded arguments (integers as decimal strings)"),
              words: z.array(z.string()).optional().describe("Raw 32-byte argument words, without an ABI"),
            }),
          ),
        },
      },
    },
    async (req) => {
      await nodes.rpcUrl(req.params.id);
      return runRpc(async () => (await rpcLibrary()).decodeInput(req.query.input, req.query.abi));
    },
  );

  const voteBody = z
    .object({
      validatorAddress: z.string().max(64).describe("Validator address"),
      vote: z.boolean().describe("true to add the validator, false to remove it"),
      force: z.boolean().optional().describe("Cast a vote that would weaken the 2/3 quorum anyway"),
    })
    .strict();

  r.post(
    "/nodes/:id/rpc/qbft-propose-validator-vote",
    {
      config: { access: "NODE_EXECUTE", audit: "node.qbft_vote" },
      schema: {
        tags,
        summary: "qbft_proposeValidatorVote: vote to add or remove a validator",
        params: idParams,
        body: voteBody,
        response: { 200: lazySchema(() => z.boolean()) },
      },
    },
    async (req): Promise<boolean> => {
      req.auditInfo.resource = `node:${req.params.id}`;
      req.auditInfo.details = {
        validatorAddress: req.body.validatorAddress,
        vote: req.body.vote,
        force: req.body.force ?? false,
      };
      const rpc = await rpcOf(req.params.id);
      return runRpc(
        async () => {
          if (!req.body.vote) {
            const validators = await rpc.qbftValidatorsByBlockNumber("latest");
            const isValidator = validators.some((v) => v.toLowerCase() === req.body.validatorAddress.toLowerCase());
            const risk = isValidator
              ? (await rpcLibrary()).assessValidatorChange(validators.length, "remove")
              : undefined;
            if (risk?.warning && !req.body.force) {
              throw new InputError(`vote: ${risk.warning}; send force: true to cast it anyway`, { ...risk });
            }
          }
          return rpc.qbftProposeValidatorVote(req.body.validatorAddress, req.body.vote);
        },
        { nodeId: req.params.id, nodes },
      );
    },
  );

  r.post(
    "/nodes/:id/rpc/qbft-discard-validator-vote",
    {
      config: { access: "NODE_EXECUTE", audit: "node.qbft_vote_discard" },
      schema: {
        tags,
        summary: "qbft_discardValidatorVote: withdraw this node's pending vote",
        params: idParams,
        body: lazySchema(() =>
          z.object({ validatorAddress: z.string().max(64).describe("Validator address") }).strict(),
        ),
        response: { 200: lazySchema(() => z.boolean()) },
      },
    },
    async (req) => {
      req.auditInfo.resource = `node:${req.params.id}`;
      req.auditInfo.details = { validatorAddress: req.body.validatorAddress };
      const rpc = await rpcOf(req.params.id);
      return runRpc(() => rpc.qbftDiscardValidatorVote(req.body.validatorAddress), { nodeId: req.params.id, nodes });
    },
  );
}
