import { spawn, type ChildProcess } from "node:child_process";
import { createWalletClient, http, parseEther, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anvilPath } from "../../test-support/anvil.js";
import { freePort } from "../../test-support/ports.js";
import { createTestApp, createUser, type TestApp } from "../../test-support/test-app.js";

const DEV_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" as Hex; // anvil's first dev account
const bin = anvilPath();
if (!bin)
  console.warn("skipping RPC explorer tests: @foundry-rs/anvil-linux-amd64 is not installed (npm ci installs it)");

describe.skipIf(!bin)("RPC explorer routes against anvil", () => {
  let t: TestApp;
  let anvil: ChildProcess;
  let nodeId: number;
  let txHash: Hex;
  const recipient = "0x000000000000000000000000000000000000c0de";

  /** A Besu node record (not started) whose JSON-RPC port is `rpcPort`. */
  const besuNodeRecord = async (name: string, networkId: number, keyId: number, rpcPort: number) => {
    const [p2pPort, metricsPort] = [await freePort(), await freePort()];
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/nodes?start=false",
      headers: t.admin,
      payload: {
        name,
        blockchainPlatform: "BESU",
        besuNode: {
          networkId,
          keyId,
          externalIp: "127.0.0.1",
          internalIp: "127.0.0.1",
          p2pHost: "127.0.0.1",
          p2pPort,
          rpcHost: "127.0.0.1",
          rpcPort,
          metricsPort,
        },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number };
  };

  beforeAll(async () => {
    t = await createTestApp("sqlite");
    const key = (
      await t.app.inject({
        method: "POST",
        url: "/api/v1/keys",
        headers: t.admin,
        payload: { name: "v0", algorithm: "EC", curve: "secp256k1" },
      })
    ).json();
    const net = await t.app.inject({
      method: "POST",
      url: "/api/v1/networks/besu",
      headers: t.admin,
      payload: { name: "rpc-net", config: { chainId: 31337, initialValidatorsKeyIds: [key.id] } },
    });
    const rpcPort = await freePort();
    nodeId = (await besuNodeRecord("besu-rpc", net.json().id, key.id, rpcPort)).id;
    anvil = spawn(bin!, ["--host", "127.0.0.1", "--port", String(rpcPort), "--chain-id", "31337", "--silent"], {
      stdio: "ignore",
    });
    const url = `http://127.0.0.1:${rpcPort}`;
    for (let i = 0; i < 100; i++) {
      const r = await t.app.inject({ method: "GET", url: `/api/v1/nodes/${nodeId}/rpc/chain-id`, headers: t.admin });
      if (r.statusCode === 200) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    const wallet = createWalletClient({ account: privateKeyToAccount(DEV_KEY), transport: http(url) });
    txHash = await wallet.sendTransaction({ to: recipient, value: parseEther("2"), chain: null });
  }, 60_000);
  afterAll(async () => {
    anvil?.kill("SIGKILL");
    await t?.close();
  });

  const get = (path: string, headers = t.admin) =>
    t.app.inject({ method: "GET", url: `/api/v1/nodes/${nodeId}/rpc/${path}`, headers });

  it("reads chain id, block number and the sent transaction through the explorer", async () => {
    expect((await get("chain-id")).json()).toBe("0x7a69");
    expect(BigInt((await get("block-number")).json())).toBeGreaterThanOrEqual(1n);
    const tx = (await get(`transaction-by-hash?hash=${txHash}`)).json();
    expect(tx).toMatchObject({ hash: txHash, to: recipient });
    const block = (await get(`block-by-number?number=${BigInt(tx.blockNumber)}&fullTx=true`)).json();
    expect(block.transactions.map((x: { hash: string }) => x.hash)).toContain(txHash);
    expect((await get(`block-by-hash?hash=${block.hash}`)).json().number).toBe(block.number);
    expect((await get(`block-transaction-count-by-number?number=${tx.blockNumber}`)).json()).toBe("0x1");
    expect((await get(`balance?address=${recipient}`)).json()).toBe("0x1bc16d674ec80000");
    expect((await get(`transaction-count?address=${privateKeyToAccount(DEV_KEY).address}`)).json()).toBe("0x1");
    expect((await get(`code?address=${recipient}`)).json()).toBe("0x");
    expect((await get(`storage?address=${recipient}&position=0`)).json()).toBe(`0x${"0".repeat(64)}`);
    expect((await get("syncing")).json()).toBe(false);
    expect((await get("accounts")).json().length).toBeGreaterThan(0);
    expect((await get(`transaction-receipt?hash=${txHash}`)).json().status).toBe("0x1");
  });

  it("decodes input with an ABI", async () => {
    const abi = JSON.stringify([
      {
        type: "function",
        name: "set",
        inputs: [{ name: "v", type: "uint256" }],
        outputs: [],
        stateMutability: "nonpayable",
      },
    ]);
    const input = `0x60fe47b1${42n.toString(16).padStart(64, "0")}`;
    const res = await get(`decode-input?input=${input}&abi=${encodeURIComponent(abi)}`);
    expect(res.json()).toEqual({ selector: "0x60fe47b1", functionName: "set", args: ["42"] });
  });

  it("names bad input with a 400 and reports the node's failure as 502", async () => {
    const bad = await get("balance?address=0x12");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^address: /);
    // anvil has no qbft_* methods: the node answers with an error, which is an upstream failure.
    const qbft = await get("qbft-pending-votes");
    expect(qbft.statusCode).toBe(502);
    expect(qbft.json().message).toMatch(/qbft_getPendingVotes/);
  });

  it("answers a call to a node that is not running and can't be reached with a 409 naming the node", async () => {
    const key = (
      await t.app.inject({
        method: "POST",
        url: "/api/v1/keys",
        headers: t.admin,
        payload: { name: "v-stopped", algorithm: "EC", curve: "secp256k1" },
      })
    ).json();
    const net = (await t.app.inject({ method: "GET", url: "/api/v1/networks/besu", headers: t.admin })).json();
    const stopped = await besuNodeRecord("besu-stopped", net.networks[0].id, key.id, await freePort());
    const res = await t.app.inject({
      method: "GET",
      url: `/api/v1/nodes/${stopped.id}/rpc/block-number`,
      headers: t.admin,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/node "besu-stopped" is not running/);
  });

  it("lets a viewer read but not vote", async () => {
    const viewer = await createUser(t, "rpc-viewer", "viewer");
    expect((await get("chain-id", viewer)).statusCode).toBe(200);
    const vote = await t.app.inject({
      method: "POST",
      url: `/api/v1/nodes/${nodeId}/rpc/qbft-propose-validator-vote`,
      headers: viewer,
      payload: { validatorAddress: recipient, vote: true },
    });
    expect(vote.statusCode).toBe(403);
  });
});
