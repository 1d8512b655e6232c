import { spawn, type ChildProcess } from "node:child_process";
import { createWalletClient, http, parseEther, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANVIL_DEV_KEY, anvilPath, compileContract } from "../../test-support/anvil.js";
import { freePort } from "../../test-support/ports.js";
import { createTestApp, createUser, type TestApp } from "../../test-support/test-app.js";

/**
 * Deploying and using a contract through a Besu node's endpoints, end to end against anvil (a real
 * JSON-RPC node) serving the node's configured RPC port. The contract is compiled by solc-js.
 */
const bin = anvilPath();
if (!bin) console.warn("skipping contract tests: @foundry-rs/anvil-linux-amd64 is not installed (npm ci installs it)");

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Storage {
  uint256 v;
  constructor(uint256 x) { v = x; }
  function set(uint256 x) public { v = x; }
  function get() public view returns (uint256) { return v; }
}`;

describe.skipIf(!bin)("contracts through a Besu node's endpoints (anvil)", () => {
  let t: TestApp;
  let anvil: ChildProcess;
  let nodeId: number;
  let signer: { id: number; ethereumAddress: string };
  let contract: string;
  const { abi, bytecode } = compileContract(SOURCE, "Storage");

  beforeAll(async () => {
    t = await createTestApp("sqlite");
    signer = (
      await t.app.inject({
        method: "POST",
        url: "/api/v1/keys",
        headers: t.admin,
        payload: { name: "deployer", algorithm: "EC", curve: "secp256k1" },
      })
    ).json();
    const net = (
      await t.app.inject({
        method: "POST",
        url: "/api/v1/networks/besu",
        headers: t.admin,
        payload: { name: "sc-net", config: { chainId: 31337, initialValidatorsKeyIds: [signer.id] } },
      })
    ).json();
    const rpcPort = await freePort();
    const node = await t.app.inject({
      method: "POST",
      url: "/api/v1/nodes?start=false",
      headers: t.admin,
      payload: {
        name: "sc-node",
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
      },
    });
    expect(node.statusCode, node.body).toBe(201);
    nodeId = node.json().id;
    anvil = spawn(bin!, ["--host", "127.0.0.1", "--port", String(rpcPort), "--chain-id", "31337", "--silent"], {
      stdio: "ignore",
    });
    const url = `http://127.0.0.1:${rpcPort}`;
    for (let i = 0; i < 100; i++) {
      if (
        (await t.app.inject({ method: "GET", url: `/api/v1/nodes/${nodeId}/rpc/chain-id`, headers: t.admin }))
          .statusCode === 200
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // Fund the managed key's address with a real transaction from a dev account.
    const dev = createWalletClient({ account: privateKeyToAccount(ANVIL_DEV_KEY), transport: http(url) });
    await dev.sendTransaction({ to: signer.ethereumAddress as Hex, value: parseEther("10"), chain: null });
  }, 60_000);
  afterAll(async () => {
    anvil?.kill("SIGKILL");
    await t?.close();
  });

  const post = (path: string, payload: object, headers = t.admin) =>
    t.app.inject({ method: "POST", url: `/api/v1/nodes/${nodeId}/contracts/${path}`, headers, payload });

  it("deploys with constructor arguments, signed by the managed key", async () => {
    const res = await post("deploy", { keyId: signer.id, bytecode, abi, args: ["7"] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ status: "success", from: signer.ethereumAddress });
    contract = res.json().contractAddress;
    expect(contract).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(
      (
        await t.app.inject({
          method: "GET",
          url: `/api/v1/nodes/${nodeId}/rpc/code?address=${contract}`,
          headers: t.admin,
        })
      ).json().length,
    ).toBeGreaterThan(10);
  });

  it("calls and sends: get() reads 7, set(42) is mined, get() reads 42", async () => {
    expect((await post("call", { address: contract, abi, functionName: "get" })).json().result).toBe("7");
    const sent = await post("send", { keyId: signer.id, address: contract, abi, functionName: "set", args: ["42"] });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().status).toBe("success");
    expect((await post("call", { address: contract, abi, functionName: "get" })).json().result).toBe("42");
  });

  it("names bad input and keeps viewers to reads", async () => {
    const p256 = (
      await t.app.inject({
        method: "POST",
        url: "/api/v1/keys",
        headers: t.admin,
        payload: { name: "p256", algorithm: "EC", curve: "P-256" },
      })
    ).json();
    const wrongKey = await post("deploy", { keyId: p256.id, bytecode });
    expect(wrongKey.statusCode).toBe(400);
    expect(wrongKey.json().message).toMatch(/^keyId: .*not secp256k1/);
    const badArgs = await post("send", {
      keyId: signer.id,
      address: contract,
      abi,
      functionName: "set",
      args: ["not a number"],
    });
    expect(badArgs.statusCode).toBe(400);
    expect(badArgs.json().message).toMatch(/^args: /);
    const badAbi = await post("call", { address: contract, abi: "{}", functionName: "get" });
    expect(badAbi.json().message).toMatch(/^abi: /);
    const viewer = await createUser(t, "sc-viewer", "viewer");
    expect((await post("call", { address: contract, abi, functionName: "get" }, viewer)).statusCode).toBe(200);
    expect(
      (await post("send", { keyId: signer.id, address: contract, abi, functionName: "set", args: ["1"] }, viewer))
        .statusCode,
    ).toBe(403);
  });
});
