import { createClient, decodeFunctionData, http, type Abi, type Hex } from "viem";
import { parseAddress, parseFixedHex, parseHexData, parseQuantity, toQuantity } from "./encoding.js";
import { BesuInputError, BesuRpcError } from "./errors.js";

export { BesuRpcError };

const BLOCK_TAGS = ["latest", "earliest", "pending", "safe", "finalized"] as const;

/**
 * A block parameter as JSON-RPC wants it: a tag, or a 0x quantity. Decimal numbers are converted.
 * @param field the request field it came from, for the error message
 */
export function blockParam(value: string | undefined, field = "blockTag", fallback = "latest"): string {
  const v = (value ?? fallback).trim();
  if ((BLOCK_TAGS as readonly string[]).includes(v)) return v;
  try {
    return toQuantity(parseQuantity(v, field));
  } catch {
    throw new BesuInputError(field, `must be a block number (decimal or 0x-hex) or one of ${BLOCK_TAGS.join(", ")}`);
  }
}

/** eth_getLogs' filter as a caller gives it: blocks as numbers or tags, or one block by hash. */
export interface LogFilterInput {
  fromBlock?: string | undefined;
  toBlock?: string | undefined;
  blockHash?: string | undefined;
  address?: string | string[] | undefined;
  topics?: Array<string | string[] | null> | undefined;
}

/** Blocks one eth_getLogs may span: Besu's default `--rpc-max-logs-range`. */
export const MAX_LOG_BLOCK_RANGE = 5000n;
/** Blocks one eth_feeHistory may cover (Besu's and geth's limit). */
export const MAX_FEE_HISTORY_BLOCKS = 1024n;
/** Pending transactions returned at most. */
export const MAX_PENDING_TRANSACTIONS = 1000;
/** JSON-RPC's "method not found". */
const METHOD_NOT_FOUND = -32601;

/**
 * Reward percentiles as eth_feeHistory takes them: numbers 0-100, ascending, given as `25,75` or
 * `[25,75]` (at most 100 of them). Empty or absent: none.
 */
export function parsePercentiles(value: string | undefined, field = "rewardPercentiles"): number[] {
  const text = (value ?? "").trim().replace(/^\[/, "").replace(/\]$/, "").trim();
  if (!text) return [];
  const parts = text.split(",").map((p) => p.trim());
  if (parts.length > 100) throw new BesuInputError(field, "at most 100 percentiles");
  let last = -1;
  return parts.map((p) => {
    const n = Number(p);
    if (!/^\d+(\.\d+)?$/.test(p) || n > 100)
      throw new BesuInputError(field, `"${p}" is not a percentile between 0 and 100`);
    if (n < last) throw new BesuInputError(field, "must be in ascending order");
    last = n;
    return n;
  });
}

/** eth_feeHistory's result (quantities 0x-hex); nodes may add fields, such as blob fees. */
export interface FeeHistory {
  oldestBlock: string;
  baseFeePerGas?: string[];
  gasUsedRatio: number[];
  reward?: string[][];
  [field: string]: unknown;
}

/** One validator's row of `qbft_getSignerMetrics`. */
export interface QbftSignerMetric {
  address: string;
  proposedBlockCount: string;
  lastProposedBlockNumber: string;
}

/**
 * The JSON-RPC calls the console makes to a Besu node (eth_*, net_* and qbft_*), over viem's HTTP
 * transport. Results are passed through as the node returns them (quantities stay 0x-hex).
 * Inputs are validated first, so a bad address or hash is a named input error, not a node error.
 */
export function createBesuRpc(url: string, opts: { timeoutMs?: number; headers?: Record<string, string> } = {}) {
  const client = createClient({
    transport: http(url, {
      timeout: opts.timeoutMs ?? 10_000,
      retryCount: 0,
      fetchOptions: { headers: opts.headers ?? {} },
    }),
  });

  async function call<T>(method: string, params: unknown[] = []): Promise<T> {
    try {
      // viem types only the standard methods; qbft_* are Besu's own, so the request is cast.
      return (await client.request({ method, params } as never)) as T;
    } catch (err) {
      const e = err as { code?: number; shortMessage?: string; details?: string; message?: string };
      const detail =
        e.details && e.details !== e.shortMessage ? `${e.shortMessage ?? ""} ${e.details}`.trim() : e.shortMessage;
      throw new BesuRpcError(method, detail ?? e.message ?? "request failed", e.code);
    }
  }

  const address = (v: string, field = "address") => parseAddress(v, field);
  const hash = (v: string, field = "hash") => parseFixedHex(v, field, 32);
  const index = (v: string, field = "index") => toQuantity(parseQuantity(v, field, { max: 0xffffffffn }));

  /** A block parameter's number: tags resolved through eth_blockNumber (asked once). */
  async function blockNumberOf(param: string, latest: () => Promise<bigint>): Promise<bigint> {
    if (param === "earliest") return 0n;
    return param.startsWith("0x") ? BigInt(param) : latest();
  }

  async function logs(f: LogFilterInput): Promise<Record<string, unknown>[]> {
    const filter: Record<string, unknown> = {};
    if (f.blockHash !== undefined) {
      if (f.fromBlock !== undefined || f.toBlock !== undefined)
        throw new BesuInputError("blockHash", "can't be combined with fromBlock or toBlock");
      filter.blockHash = hash(f.blockHash, "blockHash");
    } else {
      const from = blockParam(f.fromBlock, "fromBlock");
      const to = blockParam(f.toBlock, "toBlock");
      let head: Promise<bigint> | undefined;
      const latest = () => (head ??= call<string>("eth_blockNumber").then((h) => BigInt(h)));
      const [a, b] = [await blockNumberOf(from, latest), await blockNumberOf(to, latest)];
      if (b < a) throw new BesuInputError("toBlock", `must not be before fromBlock (${a} > ${b})`);
      if (b - a + 1n > MAX_LOG_BLOCK_RANGE)
        throw new BesuInputError(
          "toBlock",
          `at most ${MAX_LOG_BLOCK_RANGE} blocks from fromBlock (Besu's default range)`,
        );
      Object.assign(filter, { fromBlock: from, toBlock: to });
    }
    if (f.address !== undefined)
      filter.address = Array.isArray(f.address)
        ? f.address.map((a, i) => address(a, `address[${i}]`))
        : address(f.address);
    if (f.topics !== undefined)
      filter.topics = f.topics.map((t, i) =>
        t === null ? null : Array.isArray(t) ? t.map((x, j) => hash(x, `topics[${i}][${j}]`)) : hash(t, `topics[${i}]`),
      );
    return call<Record<string, unknown>[]>("eth_getLogs", [filter]);
  }

  /**
   * The node's pending transactions. upstream asks eth_pendingTransactions, which Besu does not
   * serve; when a node answers "method not found" the next is asked: Besu's own
   * txpool_besuPendingTransactions, then geth's txpool_content (its `pending` map, flattened).
   */
  async function pendingTransactions(limit = MAX_PENDING_TRANSACTIONS): Promise<Record<string, unknown>[]> {
    const missing = (err: unknown) => err instanceof BesuRpcError && err.rpcCode === METHOD_NOT_FOUND;
    try {
      return (await call<Record<string, unknown>[]>("eth_pendingTransactions")).slice(0, limit);
    } catch (err) {
      if (!missing(err)) throw err;
    }
    try {
      return (await call<Record<string, unknown>[]>("txpool_besuPendingTransactions", [limit])).slice(0, limit);
    } catch (err) {
      if (!missing(err)) throw err;
    }
    const pool = await call<{ pending?: Record<string, Record<string, Record<string, unknown>>> }>("txpool_content");
    const out: Record<string, unknown>[] = [];
    for (const byNonce of Object.values(pool.pending ?? {})) {
      const txs = Object.entries(byNonce).sort(([a], [b]) => Number(a) - Number(b));
      for (const [, tx] of txs) out.push(tx);
    }
    return out.slice(0, limit);
  }

  return {
    url,
    accounts: async () => call<string[]>("eth_accounts"),
    balance: async (addr: string, tag?: string) => call<string>("eth_getBalance", [address(addr), blockParam(tag)]),
    blockByHash: async (h: string, fullTx = false) =>
      call<Record<string, unknown> | null>("eth_getBlockByHash", [hash(h), fullTx]),
    blockByNumber: async (n: string | undefined, fullTx = false) =>
      call<Record<string, unknown> | null>("eth_getBlockByNumber", [blockParam(n, "number"), fullTx]),
    blockNumber: async () => call<string>("eth_blockNumber"),
    blockTransactionCountByNumber: async (n?: string) =>
      call<string | null>("eth_getBlockTransactionCountByNumber", [blockParam(n, "number")]),
    blockTransactionCountByHash: async (h: string) =>
      call<string | null>("eth_getBlockTransactionCountByHash", [hash(h)]),
    chainId: async () => call<string>("eth_chainId"),
    code: async (addr: string, tag?: string) => call<string>("eth_getCode", [address(addr), blockParam(tag)]),
    protocolVersion: async () => call<string>("eth_protocolVersion"),
    storage: async (addr: string, position: string, tag?: string) =>
      call<string>("eth_getStorageAt", [
        address(addr),
        toQuantity(parseQuantity(position, "position")),
        blockParam(tag),
      ]),
    syncing: async () => call<false | Record<string, unknown>>("eth_syncing"),
    transactionCount: async (addr: string, tag?: string) =>
      call<string>("eth_getTransactionCount", [address(addr), blockParam(tag)]),
    transactionByHash: async (h: string) => call<Record<string, unknown> | null>("eth_getTransactionByHash", [hash(h)]),
    transactionReceipt: async (h: string) =>
      call<Record<string, unknown> | null>("eth_getTransactionReceipt", [hash(h)]),
    transactionByBlockHashAndIndex: async (h: string, i: string) =>
      call<Record<string, unknown> | null>("eth_getTransactionByBlockHashAndIndex", [hash(h), index(i)]),
    transactionByBlockNumberAndIndex: async (n: string | undefined, i: string) =>
      call<Record<string, unknown> | null>("eth_getTransactionByBlockNumberAndIndex", [
        blockParam(n, "number"),
        index(i),
      ]),
    /** eth_feeHistory; `rewardPercentiles` as {@link parsePercentiles} reads it. */
    feeHistory: async (blockCount: string, newestBlock: string, rewardPercentiles?: string) =>
      call<FeeHistory>("eth_feeHistory", [
        toQuantity(parseQuantity(blockCount, "blockCount", { min: 1n, max: MAX_FEE_HISTORY_BLOCKS })),
        blockParam(newestBlock, "newestBlock"),
        parsePercentiles(rewardPercentiles),
      ]),
    logs,
    pendingTransactions,
    peerCount: async () => call<string>("net_peerCount"),

    // QBFT (Besu only; enabled by --rpc-http-api=...,QBFT). Method names and params per Besu's API reference.
    qbftValidatorsByBlockNumber: async (n?: string) =>
      call<string[]>("qbft_getValidatorsByBlockNumber", [blockParam(n, "blockNumber")]),
    qbftValidatorsByBlockHash: async (h: string) =>
      call<string[]>("qbft_getValidatorsByBlockHash", [hash(h, "blockHash")]),
    qbftPendingVotes: async () => call<Record<string, boolean>>("qbft_getPendingVotes"),
    qbftSignerMetrics: async (from?: string, to?: string) =>
      call<QbftSignerMetric[]>(
        "qbft_getSignerMetrics",
        from === undefined
          ? []
          : to === undefined
            ? [blockParam(from, "fromBlockNumber")]
            : [blockParam(from, "fromBlockNumber"), blockParam(to, "toBlockNumber")],
      ),
    qbftRequestTimeout: async () => call<number | string>("qbft_getRequestTimeoutSeconds"),
    qbftProposeValidatorVote: async (addr: string, add: boolean) =>
      call<boolean>("qbft_proposeValidatorVote", [address(addr, "validatorAddress"), add]),
    qbftDiscardValidatorVote: async (addr: string) =>
      call<boolean>("qbft_discardValidatorVote", [address(addr, "validatorAddress")]),
  };
}

export type BesuRpc = ReturnType<typeof createBesuRpc>;

/** Makes decoded ABI values JSON-safe: bigints become decimal strings, at any depth. */
export function jsonSafe(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonSafe(v)]));
  return value;
}

/** Parses an ABI given as JSON text (an array, or an artifact object with an `abi` array). */
export function parseAbi(json: string, field = "abi"): Abi {
  try {
    const parsed: unknown = JSON.parse(json);
    const abi = Array.isArray(parsed) ? parsed : (parsed as { abi?: unknown }).abi;
    if (!Array.isArray(abi)) throw new Error("no array");
    return abi as Abi;
  } catch {
    throw new BesuInputError(field, "must be a JSON ABI array (or an object with an abi array)");
  }
}

/**
 * Decodes transaction calldata. With an ABI: the function name and its arguments (integers as decimal
 * strings). Without one: the 4-byte selector and the 32-byte argument words.
 */
export function decodeInput(
  input: string,
  abiJson?: string,
): { selector: string; functionName?: string; args?: unknown[]; words?: string[] } {
  const data = parseHexData(input, "input");
  if (data.length < 10) throw new BesuInputError("input", "must hold at least a 4-byte function selector");
  const selector = data.slice(0, 10);
  if (!abiJson) {
    const body = data.slice(10);
    const words: string[] = [];
    for (let i = 0; i < body.length; i += 64) words.push(`0x${body.slice(i, i + 64)}`);
    return { selector, words };
  }
  const abi = parseAbi(abiJson);
  try {
    const decoded = decodeFunctionData({ abi, data: data as Hex });
    return { selector, functionName: decoded.functionName, args: jsonSafe(decoded.args ?? []) as unknown[] };
  } catch (err) {
    throw new BesuInputError(
      "input",
      `does not match any function of the ABI (${(err as Error).message.split("\n")[0]})`,
    );
  }
}

/**
 * QBFT needs more than 2/3 of validators honest and online: with n validators it tolerates
 * f = floor((n - 1) / 3) faulty ones. Reports what a vote would do to that margin.
 */
export function assessValidatorChange(
  validatorCount: number,
  change: "add" | "remove",
): { before: number; after: number; faultToleranceBefore: number; faultToleranceAfter: number; warning?: string } {
  const after = change === "add" ? validatorCount + 1 : validatorCount - 1;
  const f = (n: number) => Math.max(0, Math.floor((n - 1) / 3));
  const res = { before: validatorCount, after, faultToleranceBefore: f(validatorCount), faultToleranceAfter: f(after) };
  if (after < 1) return { ...res, warning: "removing the last validator stops the network" };
  if (res.faultToleranceAfter < res.faultToleranceBefore || res.faultToleranceAfter === 0) {
    return {
      ...res,
      warning: `with ${after} validator(s) the network tolerates ${res.faultToleranceAfter} faulty validator(s); one more failure loses the 2/3 quorum`,
    };
  }
  return res;
}
