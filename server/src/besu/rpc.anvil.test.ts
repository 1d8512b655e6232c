import { spawn, type ChildProcess } from "node:child_process";
import { createWalletClient, encodeFunctionData, http, parseEther, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anvilPath } from "../test-support/anvil.js";
import { freePort } from "../test-support/ports.js";
import { BesuInputError } from "./errors.js";
import { createBesuRpc, decodeInput, type BesuRpc } from "./rpc.js";

/**
 * eth_* calls end to end against anvil, a real JSON-RPC node shipped in an npm package.
 * (Besu itself cannot be installed here; its qbft_* methods are covered by rpc.qbft.test.ts.)
 */

// anvil's first default dev account (well-known test mnemonic "test test ... junk").
const DEV_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" as Hex;
// Init code: SSTORE(0, 42), then return a 1-byte runtime (STOP).
const INIT_CODE = "0x602a6000556001601160003960016000f300" as Hex;
const ERC20_TRANSFER_ABI = JSON.stringify([
  {
    type: "function",
    name: "transfer",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "amount", type: "uint256" },
    ],
    outputs: [{ type: "bool" }],
  },
]);

const bin = anvilPath();
if (!bin) console.warn("skipping anvil tests: @foundry-rs/anvil-linux-amd64 is not installed (npm ci installs it)");

describe.skipIf(!bin)("Besu RPC client against a real JSON-RPC node (anvil)", () => {
  let anvil: ChildProcess;
  let url: string;
  let rpc: BesuRpc;
  let txHash: Hex;
  let contract: string;
  const account = privateKeyToAccount(DEV_KEY);
  const recipient = "0x000000000000000000000000000000000000beef";

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    anvil = spawn(bin!, ["--host", "127.0.0.1", "--port", String(port), "--chain-id", "1337", "--silent"], {
      stdio: "ignore",
    });
    rpc = createBesuRpc(url, { timeoutMs: 5000 });
    for (let i = 0; i < 100; i++) {
      try {
        await rpc.chainId();
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const wallet = createWalletClient({ account, transport: http(url), chain: undefined });
    txHash = await wallet.sendTransaction({ to: recipient, value: parseEther("1.5"), chain: null });
    const deploy = await wallet.sendTransaction({ data: INIT_CODE, chain: null });
    for (let i = 0; i < 50 && !contract; i++) {
      const receipt = await rpc.transactionReceipt(deploy);
      if (receipt?.contractAddress) contract = receipt.contractAddress as string;
      else await new Promise((r) => setTimeout(r, 100));
    }
  }, 30_000);
  afterAll(() => {
    anvil?.kill("SIGKILL");
  });

  it("reads chain id, block number, accounts and sync state", async () => {
    expect(await rpc.chainId()).toBe("0x539");
    expect(BigInt(await rpc.blockNumber())).toBeGreaterThanOrEqual(2n);
    expect((await rpc.accounts()).map((a) => a.toLowerCase())).toContain(account.address.toLowerCase());
    expect(await rpc.syncing()).toBe(false);
  });

  it("reads back a real transaction: by hash, receipt, block, balance and nonce", async () => {
    const tx = await rpc.transactionByHash(txHash);
    expect(tx).toMatchObject({ hash: txHash, to: recipient, value: "0x14d1120d7b160000" });
    const receipt = await rpc.transactionReceipt(txHash);
    expect(receipt?.status).toBe("0x1");
    const block = await rpc.blockByNumber(receipt!.blockNumber as string, true);
    expect((block!.transactions as Array<{ hash: string }>).map((t) => t.hash)).toContain(txHash);
    const byHash = await rpc.blockByHash(block!.hash as string);
    expect(byHash!.number).toBe(block!.number);
    expect(BigInt((await rpc.blockTransactionCountByNumber(String(BigInt(receipt!.blockNumber as string)))) ?? 0)).toBe(
      1n,
    );
    expect(await rpc.balance(recipient)).toBe("0x14d1120d7b160000");
    expect(BigInt(await rpc.transactionCount(account.address))).toBe(2n);
    expect(BigInt(await rpc.transactionCount(account.address, "0x0"))).toBe(0n);
  });

  it("reads contract code and storage", async () => {
    expect(contract).toBeTruthy();
    expect(await rpc.code(contract)).toBe("0x00");
    expect(BigInt(await rpc.storage(contract, "0"))).toBe(42n);
  });

  it("decodes calldata with an ABI, and words without one", () => {
    const data = encodeFunctionData({
      abi: JSON.parse(ERC20_TRANSFER_ABI),
      functionName: "transfer",
      args: [recipient, 1000n],
    });
    expect(decodeInput(data, ERC20_TRANSFER_ABI)).toEqual({
      selector: "0xa9059cbb",
      functionName: "transfer",
      args: ["0x000000000000000000000000000000000000bEEF", "1000"],
    });
    const raw = decodeInput(data);
    expect(raw.selector).toBe("0xa9059cbb");
    expect(raw.words).toHaveLength(2);
    expect(() => decodeInput("0x12", ERC20_TRANSFER_ABI)).toThrow(BesuInputError);
    expect(() => decodeInput(data, "not json")).toThrow(/^abi: /);
  });

  it("names bad input before calling the node, and reports node errors", async () => {
    await expect(rpc.balance("0x1234")).rejects.toThrow(/^address: /);
    await expect(rpc.blockByNumber("soon")).rejects.toThrow(/^number: /);
    await expect(rpc.transactionByHash("0xabc")).rejects.toThrow(/^hash: /);
    await expect(rpc.qbftPendingVotes()).rejects.toThrow(/^qbft_getPendingVotes: /);
    const dead = createBesuRpc("http://127.0.0.1:9", { timeoutMs: 1000 });
    await expect(dead.chainId()).rejects.toThrow(/^eth_chainId: /);
  });
});
