import { spawn, type ChildProcess } from "node:child_process";
import { createWalletClient, http, keccak256, parseEther, toHex, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANVIL_DEV_KEY, anvilPath, compileContract } from "../../test-support/anvil.js";
import { freePort } from "../../test-support/ports.js";
import { createTestApp, createUser, type TestApp } from "../../test-support/test-app.js";

/**
 * The RPC explorer's block, fee, pending-pool and event-log reads, end to end against anvil (a real
 * JSON-RPC node) serving a registered Besu node's RPC port. A contract that emits events is deployed
 * and called through the console's own contract routes; a block with two transactions is mined by
 * turning anvil's automine off and on.
 */
const bin = anvilPath();
if (!bin) console.warn("skipping RPC read tests: @foundry-rs/anvil-linux-amd64 is not installed (npm ci installs it)");

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Emitter {
  event Stored(address indexed who, uint256 indexed value, string note);
  uint256 public v;
  function store(uint256 x, string calldata note) public { v = x; emit Stored(msg.sender, x, note); }
}`;
const STORED = keccak256(toHex("Stored(address,uint256,string)"));
const word = (n: number | string): Hex =>
  `0x${(typeof n === "number" ? n.toString(16) : n.slice(2).toLowerCase()).padStart(64, "0")}`;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe.skipIf(!bin)("RPC explorer reads against anvil", () => {
  let t: TestApp;
  let anvil: ChildProcess;
  let url: string;
  let nodeId: number;
  let signer: { id: number; ethereumAddress: string };
  let contract: string;
  let pair: { blockHash: string; blockNumber: string; hashes: Hex[] };
  const dev = privateKeyToAccount(ANVIL_DEV_KEY);
  const { abi, bytecode } = compileContract(SOURCE, "Emitter");

  const anvilCall = async (method: string, params: unknown[] = []): Promise<unknown> => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return ((await res.json()) as { result: unknown }).result;
  };
  const get = async (path: string, headers = t.admin) => {
    const res = await t.app.inject({ method: "GET", url: `/api/v1/nodes/${nodeId}/rpc/${path}`, headers });
    return { status: res.statusCode, body: res.json() as Json };
  };
  const logs = async (payload: object, headers = t.admin) => {
    const res = await t.app.inject({ method: "POST", url: `/api/v1/nodes/${nodeId}/rpc/logs`, headers, payload });
    return { status: res.statusCode, body: res.json() as Json };
  };

  beforeAll(async () => {
    t = await createTestApp("sqlite");
    const call = async (method: "POST", path: string, payload: object) => {
      const res = await t.app.inject({ method, url: `/api/v1${path}`, headers: t.admin, payload });
      if (res.statusCode >= 300) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
      return res.json() as Json;
    };
    signer = (await call("POST", "/keys", {
      name: "emitter",
      algorithm: "EC",
      curve: "secp256k1",
    })) as typeof signer;
    const net = await call("POST", "/networks/besu", {
      name: "reads-net",
      config: { chainId: 31337, initialValidatorsKeyIds: [signer.id] },
    });
    const rpcPort = await freePort();
    nodeId = (
      await call("POST", "/nodes?start=false", {
        name: "besu-reads",
        blockchainPlatform: "BESU",
        besuNode: {
          networkId: net.id,
          keyId: signer.id,
          externalIp: "127.0.0.1",
          internalIp: "127.0.0.1",
          p2pHost: "127.0.0.1",
          p2pPort: await freePort(),
          rpcHost: "127.0.0.1",
          rpcPort,
          metricsPort: await freePort(),
        },
      })
    ).id;
    url = `http://127.0.0.1:${rpcPort}`;
    anvil = spawn(bin!, ["--host", "127.0.0.1", "--port", String(rpcPort), "--chain-id", "31337", "--silent"], {
      stdio: "ignore",
    });
    for (let i = 0; i < 100 && (await get("chain-id").catch(() => ({ status: 0 }))).status !== 200; i++)
      await new Promise((r) => setTimeout(r, 100));
    const wallet = createWalletClient({ account: dev, transport: http(url) });
    await wallet.sendTransaction({ to: signer.ethereumAddress as Hex, value: parseEther("10"), chain: null });

    // The contract, deployed and called through the console (signed by the managed key).
    contract = (await call("POST", `/nodes/${nodeId}/contracts/deploy`, { keyId: signer.id, bytecode, abi }))
      .contractAddress;
    for (const [x, note] of [
      ["5", "five"],
      ["9", "nine"],
    ])
      await call("POST", `/nodes/${nodeId}/contracts/send`, {
        keyId: signer.id,
        address: contract,
        abi,
        functionName: "store",
        args: [x, note],
      });

    // One block holding two transfers.
    await anvilCall("evm_setAutomine", [false]);
    const hashes = [
      await wallet.sendTransaction({ to: "0x000000000000000000000000000000000000a001", value: 1n, chain: null }),
      await wallet.sendTransaction({ to: "0x000000000000000000000000000000000000a002", value: 2n, chain: null }),
    ];
    await anvilCall("evm_mine");
    await anvilCall("evm_setAutomine", [true]);
    const receipt = (await anvilCall("eth_getTransactionReceipt", [hashes[1]])) as Json;
    pair = { blockHash: receipt.blockHash, blockNumber: receipt.blockNumber, hashes };
  }, 90_000);
  afterAll(async () => {
    anvil?.kill("SIGKILL");
    await t?.close();
  });

  it("counts a block's transactions by hash, and reads each by block hash or number and index", async () => {
    expect((await get(`block-transaction-count-by-hash?hash=${pair.blockHash}`)).body).toBe("0x2");
    expect((await get(`block-transaction-count-by-hash?hash=${word(7)}`)).body).toBeNull();
    const byHash = await get(`transaction-by-block-hash-and-index?hash=${pair.blockHash}&index=1`);
    expect(byHash.body).toMatchObject({ hash: pair.hashes[1], blockHash: pair.blockHash, transactionIndex: "0x1" });
    expect((await get(`transaction-by-block-hash-and-index?hash=${pair.blockHash}&index=0x0`)).body.hash).toBe(
      pair.hashes[0],
    );
    expect((await get(`transaction-by-block-hash-and-index?hash=${pair.blockHash}&index=5`)).body).toBeNull();
    const decimal = BigInt(pair.blockNumber).toString();
    expect((await get(`transaction-by-block-number-and-index?number=${decimal}&index=1`)).body.hash).toBe(
      pair.hashes[1],
    );
    // The pair's block is the newest one.
    expect((await get("transaction-by-block-number-and-index?tag=latest&index=0")).body.hash).toBe(pair.hashes[0]);
    expect((await get("transaction-by-block-number-and-index?index=0")).body.hash).toBe(pair.hashes[0]);
  });

  it("reads fee history with reward percentiles in either notation", async () => {
    const { status, body } = await get("fee-history?blockCount=3&newestBlock=latest&rewardPercentiles=25,75");
    expect(status).toBe(200);
    expect(BigInt(body.oldestBlock)).toBe(BigInt(pair.blockNumber) - 2n);
    expect(body.baseFeePerGas).toHaveLength(4);
    expect(body.gasUsedRatio).toHaveLength(3);
    expect(body.gasUsedRatio[2]).toBeGreaterThan(0); // the block with the two transfers
    expect(body.reward).toHaveLength(3);
    expect(body.reward.every((r: string[]) => r.length === 2)).toBe(true);
    const bracketed = await get(`fee-history?blockCount=0x3&newestBlock=${pair.blockNumber}&rewardPercentiles=[25,75]`);
    expect(bracketed.body).toEqual(body);
    // No percentiles asked: no rewards (anvil answers [], geth leaves the field out).
    expect((await get("fee-history?blockCount=1&newestBlock=latest")).body.reward ?? []).toEqual([]);
  });

  it("reads the contract's event logs by range, topics and block hash", async () => {
    const all = await logs({ address: contract, fromBlock: "0x0", toBlock: "latest" });
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(2);
    expect(all.body.map((l: Json) => l.topics)).toEqual([
      [STORED, word(signer.ethereumAddress), word(5)],
      [STORED, word(signer.ethereumAddress), word(9)],
    ]);
    const nine = await logs({ fromBlock: "0", topics: [STORED, null, [word(9), word(10)]] });
    expect(nine.body).toHaveLength(1);
    expect(nine.body[0].address.toLowerCase()).toBe(contract.toLowerCase());
    const byBlock = await logs({ blockHash: nine.body[0].blockHash });
    expect(byBlock.body.map((l: Json) => l.transactionHash)).toEqual([nine.body[0].transactionHash]);
    expect((await logs({ address: [contract], topics: [word(1)] })).body).toEqual([]);
    // Go clients send an empty slice as null.
    expect((await logs({ address: contract, fromBlock: "0x0", topics: null })).body).toHaveLength(2);
  });

  it("lists pending transactions while anvil is not mining, and none once they are mined", async () => {
    await anvilCall("evm_setAutomine", [false]);
    try {
      const wallet = createWalletClient({ account: dev, transport: http(url) });
      const hash = await wallet.sendTransaction({
        to: "0x000000000000000000000000000000000000a003",
        value: 3n,
        chain: null,
      });
      const pending = await get("pending-transactions");
      expect(pending.status).toBe(200);
      expect(pending.body.map((tx: Json) => tx.hash)).toEqual([hash]);
      expect(pending.body[0]).toMatchObject({ from: dev.address.toLowerCase(), value: "0x3" });
      await anvilCall("evm_mine");
      expect((await get("pending-transactions")).body).toEqual([]);
    } finally {
      await anvilCall("evm_setAutomine", [true]);
    }
  });

  it("names bad input with a 400", async () => {
    const cases: Array<[string, RegExp]> = [
      ["fee-history?newestBlock=latest", /^querystring\.blockCount/],
      ["fee-history?blockCount=0&newestBlock=latest", /^blockCount: must be at least 1/],
      ["fee-history?blockCount=1025&newestBlock=latest", /^blockCount: must be at most 1024/],
      ["fee-history?blockCount=2&newestBlock=soon", /^newestBlock: /],
      ["fee-history?blockCount=2&newestBlock=latest&rewardPercentiles=75,25", /^rewardPercentiles: .*ascending/],
      ["fee-history?blockCount=2&newestBlock=latest&rewardPercentiles=101", /^rewardPercentiles: /],
      ["block-transaction-count-by-hash?hash=0x12", /^hash: must be 32 bytes/],
      ["block-transaction-count-by-hash", /^querystring\.hash/],
      [`transaction-by-block-hash-and-index?hash=${pair.blockHash}&index=-1`, /^index: /],
      [`transaction-by-block-hash-and-index?hash=${pair.blockHash}`, /^querystring\.index/],
      ["transaction-by-block-number-and-index?number=abc&index=0", /^number: /],
      ["transaction-by-block-number-and-index?index=0x100000000", /^index: must be at most/],
    ];
    for (const [q, message] of cases) {
      const { status, body } = await get(q);
      expect(status, q).toBe(400);
      expect(body.message, q).toMatch(message);
    }
    const bodies: Array<[object, RegExp]> = [
      [{ address: "0x12" }, /^address: /],
      [{ address: [contract, "nope"] }, /^address\[1\]: /],
      [{ topics: ["0x1234"] }, /^topics\[0\]: /],
      [{ topics: [null, null, null, null, null] }, /^body\.topics/],
      [{ blockHash: pair.blockHash, fromBlock: "0x0" }, /^blockHash: can't be combined/],
      [{ fromBlock: "0", toBlock: "6000" }, /^toBlock: at most 5000 blocks/],
      [{ fromBlock: "latest", toBlock: "0x0" }, /^toBlock: must not be before fromBlock/],
    ];
    for (const [payload, message] of bodies) {
      const { status, body } = await logs(payload);
      expect(status, JSON.stringify(payload)).toBe(400);
      expect(body.message, JSON.stringify(payload)).toMatch(message);
    }
  });

  it("lets a viewer read (POST logs included), and no one without credentials", async () => {
    const viewer = await createUser(t, "reads-viewer", "viewer");
    for (const q of [
      `block-transaction-count-by-hash?hash=${pair.blockHash}`,
      "fee-history?blockCount=1&newestBlock=latest",
      "pending-transactions",
      `transaction-by-block-hash-and-index?hash=${pair.blockHash}&index=0`,
      "transaction-by-block-number-and-index?index=0",
    ]) {
      expect((await get(q, viewer)).status, q).toBe(200);
      expect((await get(q, {} as typeof viewer)).status, q).toBe(401);
    }
    expect((await logs({ address: contract }, viewer)).status).toBe(200);
    expect((await logs({ address: contract }, {} as typeof viewer)).status).toBe(401);
  });
});
