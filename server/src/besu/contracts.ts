import {
  createPublicClient,
  createWalletClient,
  decodeFunctionResult,
  defineChain,
  encodeDeployData,
  encodeFunctionData,
  http,
  type Abi,
  type Hex,
  type LocalAccount,
} from "viem";
import { parseAddress, parseHexData } from "./encoding.js";
import { BesuInputError } from "./errors.js";
import { BesuRpcError, jsonSafe, parseAbi } from "./rpc.js";

function encodeCall(abi: Abi, functionName: string, args: unknown[]): Hex {
  try {
    return encodeFunctionData({ abi, functionName, args } as never);
  } catch (err) {
    throw new BesuInputError(
      "args",
      `do not fit ${functionName} in the ABI (${(err as Error).message.split("\n")[0]})`,
    );
  }
}

async function rpcStep<T>(method: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof BesuInputError) throw err;
    const e = err as { shortMessage?: string; message?: string; code?: unknown };
    // A JSON-RPC error code means the node answered; without one it could not be reached.
    const code = typeof e.code === "number" ? e.code : undefined;
    throw new BesuRpcError(method, e.shortMessage ?? e.message ?? "request failed", code);
  }
}

/**
 * Deploys contracts and calls them on a node's JSON-RPC endpoint. Transactions are signed by the
 * given account (a managed secp256k1 key through remoteAccount, wherever the key lives); only signed
 * transactions are sent.
 */
export function createContractClient(rpcUrl: string, opts: { timeoutMs?: number } = {}) {
  const transport = http(rpcUrl, { timeout: opts.timeoutMs ?? 15_000, retryCount: 0 });
  const pub = createPublicClient({ transport });

  async function wallet(account: LocalAccount) {
    const chainId = await rpcStep("eth_chainId", () => pub.getChainId());
    const chain = defineChain({
      id: chainId,
      name: `chain-${chainId}`,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    });
    return createWalletClient({ account, chain, transport });
  }

  async function receipt(hash: Hex) {
    const r = await rpcStep("eth_getTransactionReceipt", () =>
      pub.waitForTransactionReceipt({ hash, timeout: opts.timeoutMs ?? 60_000, pollingInterval: 250 }),
    );
    return {
      transactionHash: r.transactionHash,
      blockNumber: r.blockNumber.toString(),
      status: r.status,
      gasUsed: r.gasUsed.toString(),
      contractAddress: r.contractAddress ?? null,
    };
  }

  return {
    /** Deploys `bytecode` (with constructor args encoded by `abi`) and waits for the receipt. */
    async deploy(p: { account: LocalAccount; bytecode: string; abi?: string; args?: unknown[] }) {
      const bytecode = parseHexData(p.bytecode, "bytecode");
      if (bytecode.length < 4) throw new BesuInputError("bytecode", "is empty");
      const data = p.abi
        ? (() => {
            try {
              return encodeDeployData({ abi: parseAbi(p.abi!), bytecode, args: p.args ?? [] } as never);
            } catch (err) {
              if (err instanceof BesuInputError) throw err;
              throw new BesuInputError("args", `do not fit the constructor (${(err as Error).message.split("\n")[0]})`);
            }
          })()
        : bytecode;
      const w = await wallet(p.account);
      const hash = await rpcStep("eth_sendRawTransaction", () => w.sendTransaction({ data } as never));
      return { from: w.account.address, ...(await receipt(hash)) };
    },
    /** eth_call of a function; the result decoded by the ABI (integers as decimal strings). */
    async call(p: { address: string; abi: string; functionName: string; args?: unknown[]; from?: string }) {
      const abi = parseAbi(p.abi);
      const to = parseAddress(p.address, "address");
      const data = encodeCall(abi, p.functionName, p.args ?? []);
      const raw = await rpcStep("eth_call", () =>
        pub.call({ to, data, ...(p.from ? { account: parseAddress(p.from, "from") } : {}) }),
      );
      const decoded = decodeFunctionResult({ abi, functionName: p.functionName, data: raw.data ?? "0x" } as never);
      return { result: jsonSafe(decoded), raw: raw.data ?? "0x" };
    },
    /** Sends a transaction calling a function, signed with the key, and waits for the receipt. */
    async send(p: {
      account: LocalAccount;
      address: string;
      abi: string;
      functionName: string;
      args?: unknown[];
      value?: string;
    }) {
      const abi = parseAbi(p.abi);
      const to = parseAddress(p.address, "address");
      const data = encodeCall(abi, p.functionName, p.args ?? []);
      const value = p.value ? BigInt(p.value) : undefined;
      const w = await wallet(p.account);
      const hash = await rpcStep("eth_sendRawTransaction", () =>
        w.sendTransaction({ to, data, ...(value ? { value } : {}) } as never),
      );
      return { from: w.account.address, ...(await receipt(hash)) };
    },
  };
}
