import { spawn, type ChildProcess } from "node:child_process";
import { createPublicClient, createWalletClient, http, parseEther, type Abi, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANVIL_DEV_KEY, anvilPath, compileContract } from "../../test-support/anvil.js";
import { freePort } from "../../test-support/ports.js";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";
import { waitFor } from "../../test-support/wait.js";

/**
 * POST /sc/besu/deploy against anvil (a real JSON-RPC node; Besu can't run here, decision 16): a
 * contract compiled by solc-js is deployed, signed by a managed secp256k1 key, and then called.
 */
const bin = anvilPath();
if (!bin) console.warn("skipping /sc/besu/deploy tests: @foundry-rs/anvil-linux-amd64 is not installed (npm ci)");

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Counter {
  uint256 public count;
  constructor(uint256 start) { count = start; }
  function add(uint256 x) public { count += x; }
}`;

describe.skipIf(!bin).each(dialects())("POST /sc/besu/deploy on %s (anvil)", (dialect) => {
  let t: TestApp;
  let anvil: ChildProcess;
  let url: string;
  let signer: { id: number; ethereumAddress: string };
  let manager: { authorization: string };
  let viewer: { authorization: string };
  const { abi, bytecode } = compileContract(SOURCE, "Counter");

  beforeAll(async () => {
    t = await createTestApp(dialect);
    manager = await createUser(t, "mia", "manager");
    viewer = await createUser(t, "vic", "viewer");
    signer = (
      await t.app.inject({
        method: "POST",
        url: "/api/v1/keys",
        headers: t.admin,
        payload: { name: "deployer", algorithm: "EC", curve: "secp256k1" },
      })
    ).json();
    const port = await freePort();
    anvil = spawn(bin!, ["--host", "127.0.0.1", "--port", String(port), "--chain-id", "31337", "--silent"], {
      stdio: "ignore",
    });
    url = `http://127.0.0.1:${port}`;
    const pub = createPublicClient({ transport: http(url, { retryCount: 0 }) });
    await waitFor("anvil", async () => (await pub.getChainId().catch(() => 0)) === 31337 || undefined, 20_000, 100);
    const dev = createWalletClient({ account: privateKeyToAccount(ANVIL_DEV_KEY), transport: http(url) });
    const hash = await dev.sendTransaction({ to: signer.ethereumAddress as Hex, value: parseEther("10"), chain: null });
    await pub.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  }, 60_000);
  afterAll(async () => {
    anvil?.kill("SIGKILL");
    await t?.close();
  });

  const deploy = (payload: unknown, headers = t.admin) =>
    t.app.inject({
      method: "POST",
      url: "/api/v1/sc/besu/deploy",
      headers: { ...headers, "content-type": "application/json" },
      payload: JSON.stringify(payload),
    });
  const count = (address: string) =>
    createPublicClient({ transport: http(url) }).readContract({
      address: address as Hex,
      abi: JSON.parse(abi) as Abi,
      functionName: "count",
    });

  it("deploys with constructor arguments, waits for the receipt, and the contract answers a call", async () => {
    const res = await deploy(
      { rpcurl: url, keyId: signer.id, bytecode, abi, constructorArgs: ["7"], chainID: 31337 },
      manager,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: "success", result: { success: true, error: null, chaincodeID: "" } });
    expect(body.result.contractAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(body.result.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(body.result.logs).toContain(signer.ethereumAddress);
    expect(await count(body.result.contractAddress)).toBe(7n);
  });

  it("takes Go-shaped bodies: bytecode as base64 ([]byte) or a byte array, nulls, chainID 0 and extra fields", async () => {
    const raw = Buffer.from(bytecode.slice(2), "hex");
    const args = Buffer.alloc(32);
    args.writeUInt32BE(5, 28);
    // No ABI: the constructor argument is appended to the creation code, as Go clients do.
    const withArg = Buffer.concat([raw, args]);
    for (const form of [withArg.toString("base64"), [...withArg]]) {
      const res = await deploy({
        abi: "",
        bytecode: form,
        chainID: 0,
        constructorArgs: null,
        rpcurl: url,
        solidityCode: SOURCE,
        keyId: signer.id,
        nodeId: null,
        somethingNew: true,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await count(res.json().result.contractAddress)).toBe(5n);
    }
  });

  it("names bad input and never echoes the endpoint's words", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ rpcurl: url, keyId: signer.id, bytecode: "not code!" }, "bytecode"],
      [{ rpcurl: url, keyId: signer.id, bytecode, abi, constructorArgs: ["1"], chainID: 1 }, "chainID"],
      [{ rpcurl: url, bytecode }, "keyId"],
      [{ keyId: signer.id, bytecode }, "rpcurl"],
      [{ rpcurl: "ftp://example.com", keyId: signer.id, bytecode }, "rpcurl"],
      [{ rpcurl: url, keyId: 99999, bytecode }, "keyId"],
      [{ rpcurl: url, keyId: signer.id, bytecode, abi, constructorArgs: ["x"] }, "args"],
    ];
    for (const [payload, field] of cases) {
      const res = await deploy(payload);
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(res.json().message).toMatch(new RegExp(`^${field}`));
    }
    // An endpoint that answers with its own text: the console names the step, not what it said.
    const closed = await freePort();
    const res = await deploy({ rpcurl: `http://127.0.0.1:${closed}/`, keyId: signer.id, bytecode });
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toMatch(/^rpcurl: eth_chainId failed \(no JSON-RPC answer\)$/);
  });

  it("is refused to viewers", async () => {
    const res = await deploy({ rpcurl: url, keyId: signer.id, bytecode }, viewer);
    expect(res.statusCode).toBe(403);
  });
});
