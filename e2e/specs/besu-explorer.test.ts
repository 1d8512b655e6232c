import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { freePort, REPO_ROOT } from "../support/server.js";

const STAMP = Date.now().toString(36);
const ANVIL = join(REPO_ROOT, "node_modules", "@foundry-rs", "anvil-linux-amd64", "bin", "anvil");
const CHAIN_ID = 300_000 + Math.floor(Math.random() * 100_000);
const RECIPIENT = "0x000000000000000000000000000000000000c0de";
/** set(uint256 42): the calldata the explorer decodes with the ABI below. */
const INPUT = `0x60fe47b1${(42).toString(16).padStart(64, "0")}`;
const ABI = JSON.stringify([
  {
    type: "function",
    name: "set",
    inputs: [{ name: "v", type: "uint256" }],
    outputs: [],
    stateMutability: "nonpayable",
  },
]);

/** anvil's dev accounts are unlocked: eth_sendTransaction needs no signing in the test. */
async function rpc<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await r.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** A transaction's receipt once it is mined (null until then; anvil mines after it answers). */
async function receiptOf<T>(url: string, hash: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const receipt = await rpc<T | null>(url, "eth_getTransactionReceipt", [hash]);
    if (receipt) return receipt;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`no receipt for ${hash} after 15 s`);
}

/**
 * Issue 7's block explorer against a real JSON-RPC node: a Besu node is registered without starting
 * (no besu binary here) and anvil serves its RPC port; one transaction with calldata lands in block 1.
 */
describe.skipIf(!existsSync(ANVIL))("besu block explorer", () => {
  let s: Session;
  let anvil: ChildProcess | undefined;
  let keyId = 0;
  let networkId = 0;
  let nodeId = 0;
  let txHash = "";
  let rpcUrl = "";

  beforeAll(async () => {
    s = await openSession();
    const admin = adminUser();
    const key = await apiCall<{ id: number }>(s.baseUrl, admin, "POST", "/keys", {
      name: `explorer-${STAMP}`,
      algorithm: "EC",
      curve: "secp256k1",
    });
    expect(key.status).toBe(201);
    keyId = key.data.id;
    const net = await apiCall<{ id: number }>(s.baseUrl, admin, "POST", "/networks/besu", {
      name: `explorer-${STAMP}`,
      config: { chainId: CHAIN_ID, initialValidatorsKeyIds: [keyId] },
    });
    expect(net.status, JSON.stringify(net.data)).toBe(200); // the upstream contract answers 200 here
    networkId = net.data.id;
    const [rpcPort, p2pPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
    const node = await apiCall<{ id: number }>(s.baseUrl, admin, "POST", "/nodes?start=false", {
      name: `explorer-${STAMP}`,
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
    });
    expect(node.status, JSON.stringify(node.data)).toBe(201);
    nodeId = node.data.id;
    anvil = spawn(
      ANVIL,
      ["--host", "127.0.0.1", "--port", String(rpcPort), "--chain-id", String(CHAIN_ID), "--silent"],
      {
        stdio: "ignore",
      },
    );
    const url = `http://127.0.0.1:${rpcPort}`;
    rpcUrl = url;
    for (let i = 0; i < 100; i++) {
      const r = await apiCall(s.baseUrl, admin, "GET", `/nodes/${nodeId}/rpc/chain-id`);
      if (r.status === 200) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    const [from] = await rpc<string[]>(url, "eth_accounts", []);
    txHash = await rpc<string>(url, "eth_sendTransaction", [
      { from, to: RECIPIENT, value: "0xde0b6b3a7640000", data: INPUT, gas: "0x20000" },
    ]);
    // anvil automines: the transaction is block 1; add block 2 so "Next" has somewhere to go.
    await rpc(url, "evm_mine", []);
  });

  afterAll(async () => {
    anvil?.kill("SIGKILL");
    const admin = adminUser();
    if (nodeId) await apiCall(s.baseUrl, admin, "DELETE", `/nodes/${nodeId}`);
    if (networkId) await apiCall(s.baseUrl, admin, "DELETE", `/networks/besu/${networkId}`);
    if (keyId) await apiCall(s.baseUrl, admin, "DELETE", `/keys/${keyId}`);
    await s.close();
  });

  it("names the node's network and key on its page (it showed 'Network #N' and 'Key #N')", async () => {
    await openAs(s, adminUser(), `/nodes/${nodeId}`);
    await s.page
      .getByRole("link", { name: `explorer-${STAMP}` })
      .first()
      .waitFor();
    const links = await s.page
      .getByRole("link", { name: `explorer-${STAMP}` })
      .evaluateAll((els) => els.map((el) => el.getAttribute("href")));
    expect(links).toEqual(expect.arrayContaining([`/networks/${networkId}/besu`, `/settings/keys/${keyId}`]));
    expect(await s.page.getByText(/^(Network|Key) #\d+$/).count()).toBe(0);
  });

  it("shows block 1 with its header and the transaction", async () => {
    await openAs(s, adminUser(), `/networks/besu/${networkId}/${nodeId}/blocks/1`);
    await s.page.getByRole("heading", { name: "Block #1" }).waitFor();
    const header = s.page.getByTestId("block-header");
    await header.getByText("Parent hash").waitFor();
    await header.getByText(/^[\d,]+ \/ [\d,]+ \(/).waitFor();
    const row = s.page.getByTestId(`tx-${txHash}`);
    await row.getByText("1 ETH").waitFor();
    await row.getByText("131,072").waitFor();
  });

  it("decodes the input without and with the ABI", async () => {
    await s.page.getByRole("button", { name: `Show details of ${txHash}` }).click();
    await s.page.getByText(INPUT).waitFor();
    await s.page.getByRole("button", { name: "Decode without ABI" }).click();
    const decoded = s.page.getByTestId("decoded-input");
    await decoded.getByText("0x60fe47b1").waitFor();
    await decoded.getByText(`0x${(42).toString(16).padStart(64, "0")}`).waitFor();
    await s.page.getByLabel("Contract ABI (optional)").fill(ABI);
    await s.page.getByRole("button", { name: "Decode with ABI" }).click();
    await decoded.getByText("set", { exact: true }).waitFor();
    await decoded.getByText("42", { exact: true }).waitFor();
    await screenshot(s.page, "besu-block-explorer");
    await s.page.getByLabel("Contract ABI (optional)").fill("[{");
    await s.page.getByRole("button", { name: "Decode with ABI" }).click();
    await s.page.getByRole("alert").getByText("The ABI is not valid JSON").waitFor();
  });

  it("navigates to the previous and next blocks", async () => {
    await s.page.getByRole("link", { name: "Next" }).click();
    await s.page.getByRole("heading", { name: "Block #2" }).waitFor();
    await s.page.getByText("This block is empty.").waitFor();
    await s.page.getByRole("link", { name: "Previous" }).click();
    await s.page.getByRole("heading", { name: "Block #1" }).waitFor();
    await s.page.goto(`/networks/besu/${networkId}/${nodeId}/blocks/99`);
    await s.page.getByText("No such block").waitFor();
  });

  it("inspects a deployed contract's code and storage and decodes calldata read-only", async () => {
    // Init code: SSTORE(0, 42), then return a 1-byte runtime (STOP).
    const initCode = "0x602a6000556001601160003960016000f300";
    const [from] = await rpc<string[]>(rpcUrl, "eth_accounts", []);
    const hash = await rpc<string>(rpcUrl, "eth_sendTransaction", [{ from, data: initCode, gas: "0x30000" }]);
    const receipt = await receiptOf<{ contractAddress: string }>(rpcUrl, hash);

    await s.page.goto(`/smart-contracts/besu?node=${nodeId}`);
    await s.page.getByRole("heading", { name: "Besu Smart Contracts" }).waitFor();
    expect(await s.page.getByRole("combobox", { name: "Node" }).innerText()).toContain(`explorer-${STAMP}`);
    await s.page.getByLabel("Contract address").fill(receipt.contractAddress);
    await s.page.getByRole("button", { name: "Read code and balance" }).click();
    await s.page.getByTestId("contract-code").getByText("Contract, 1 byte of code").waitFor();
    await s.page.getByRole("button", { name: "Read slot" }).click();
    const storage = s.page.getByTestId("storage-value");
    await storage.getByText(`0x${"0".repeat(62)}2a`).waitFor();
    await storage.getByText("42", { exact: true }).waitFor();

    await s.page.getByLabel("Contract ABI").fill(ABI);
    await s.page.getByTestId("abi-functions").getByText("set(uint256)").waitFor();
    await s.page.getByLabel("Calldata").fill(INPUT);
    await s.page.getByRole("button", { name: "Decode with ABI" }).click();
    await s.page.getByTestId("decoded-input").getByText("42", { exact: true }).waitFor();
    await screenshot(s.page, "besu-contract-inspector");
  });

  it("deploys a contract with a managed key, calls it and sends a transaction to it", async () => {
    const solc = createRequire(import.meta.url)("solc") as { compile(input: string): string };
    const source =
      "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Storage { uint256 v; " +
      "constructor(uint256 x) { v = x; } function set(uint256 x) public { v = x; } " +
      "function get() public view returns (uint256) { return v; } }";
    const out = JSON.parse(
      solc.compile(
        JSON.stringify({
          language: "Solidity",
          sources: { "S.sol": { content: source } },
          settings: { evmVersion: "paris", outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
        }),
      ),
    );
    const abi = JSON.stringify(out.contracts["S.sol"].Storage.abi);
    const bytecode = `0x${out.contracts["S.sol"].Storage.evm.bytecode.object}`;
    // Fund the managed key's address from an anvil dev account.
    const key = await apiCall<{ ethereumAddress: string }>(s.baseUrl, adminUser(), "GET", `/keys/${keyId}`);
    const [from] = await rpc<string[]>(rpcUrl, "eth_accounts", []);
    await rpc(rpcUrl, "eth_sendTransaction", [{ from, to: key.data.ethereumAddress, value: "0x8ac7230489e80000" }]);

    await s.page.goto(`/smart-contracts/besu?node=${nodeId}`);
    await s.page.getByRole("combobox", { name: "Signing key" }).click();
    await s.page.getByRole("option", { name: new RegExp(`explorer-${STAMP}`) }).click();
    await s.page.getByLabel("Creation bytecode").fill(bytecode);
    await s.page.getByLabel("ABI (for constructor arguments)").fill(abi);
    await s.page.getByLabel("Constructor arguments", { exact: true }).fill('["7"]');
    await s.page.getByRole("button", { name: "Deploy" }).click();
    await s.page.getByTestId("contract-tx").getByText("success").waitFor({ timeout: 30_000 });
    expect(await s.page.getByLabel("Contract address").inputValue()).toMatch(/^0x[0-9a-fA-F]{40}$/);

    await s.page.getByLabel("Interface ABI").fill(abi);
    await s.page.getByRole("combobox", { name: "Function" }).click();
    await s.page.getByRole("option", { name: /get\(\)/ }).click();
    await s.page.getByRole("button", { name: "Call get" }).click();
    await s.page.getByTestId("call-result").getByText('"7"').waitFor();

    await s.page.getByRole("combobox", { name: "Function" }).click();
    await s.page.getByRole("option", { name: /set\(uint256\)/ }).click();
    await s.page.getByLabel("Arguments", { exact: true }).fill('["42"]');
    await s.page.getByRole("combobox", { name: "Signing key" }).last().click();
    await s.page.getByRole("option", { name: new RegExp(`explorer-${STAMP}`) }).click();
    await s.page.getByRole("button", { name: "Send set" }).click();
    await s.page.getByTestId("contract-tx").last().getByText("success").waitFor({ timeout: 30_000 });

    await s.page.getByRole("combobox", { name: "Function" }).click();
    await s.page.getByRole("option", { name: /get\(\)/ }).click();
    await s.page.getByLabel("Arguments", { exact: true }).fill("");
    await s.page.getByRole("button", { name: "Call get" }).click();
    await s.page.getByTestId("call-result").getByText('"42"').waitFor();
    await screenshot(s.page, "besu-contract-deploy");
  });
});
