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
