import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { createPublicClient, createWalletClient, http, parseEther, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANVIL_DEV_KEY, anvilPath, compileContract } from "../../../test-support/anvil.js";
import { findMotoServer, startMoto, type Moto } from "../../../test-support/moto.js";
import type { Json } from "../../../test-support/fabric-api.js";
import { freePort } from "../../../test-support/ports.js";
import { createTestApp, dialects } from "../../../test-support/test-app.js";
import { filesUnder, startConsoleProcess, type ConsoleProcess } from "../../../test-support/console-process.js";

/**
 * The AWS_KMS provider end to end, with the real server as a child process (so its log can be read),
 * moto as KMS and anvil as the Besu JSON-RPC node: a P-256 CA key in KMS issues a certificate that
 * openssl verifies, and a secp256k1 key in KMS signs a Besu transaction that anvil mines with the
 * key's address as sender. The secret access key is then looked for in every API answer, the log,
 * the database and the data directory.
 */
const run = promisify(execFile);
const motoBin = findMotoServer();
const anvil = anvilPath();
if (!motoBin || !anvil) console.warn("skipping the AWS KMS end-to-end test: moto_server or anvil is not installed");

const SECRET = "e2e-kms-secret-Vb3nQ8wLz5XcR1tY6uPa";
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Counter { uint256 public n; function bump() public { n += 1; } }`;

/** Every row of every table of a PostgreSQL database, as JSON text. */
async function postgresText(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public'",
    );
    let out = "";
    for (const { table_name } of tables.rows) {
      const rows = await client.query(`select row_to_json(t)::text as j from "${table_name}" t`);
      out += rows.rows.map((r: { j: string }) => r.j).join("\n");
    }
    return out;
  } finally {
    await client.end();
  }
}

describe.skipIf(!motoBin || !anvil).each(dialects())("AWS KMS provider end to end on %s", (dialect) => {
  let kms: Moto;
  let server: ConsoleProcess;
  let chain: ChildProcess;
  let rpcUrl: string;
  let rpcPort: number;
  let databaseUrl: string | undefined;

  async function api(method: string, path: string, body?: object): Promise<{ status: number; json: Json }> {
    const r = await server.call(method, path, body);
    return { status: r.status, json: r.body ?? null };
  }

  beforeAll(async () => {
    if (dialect === "postgres") {
      const scratch = await createTestApp("postgres");
      databaseUrl = scratch.config.databaseUrl;
      await scratch.close();
    }
    kms = await startMoto({ kmsDigest: true });
    // Everything the server says, request bodies' echoes included, is searched for the secret.
    server = await startConsoleProcess({ LOG_LEVEL: "trace", ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
    rpcPort = await freePort();
    rpcUrl = `http://127.0.0.1:${rpcPort}`;
  }, 180_000);
  afterAll(async () => {
    chain?.kill("SIGKILL");
    kms?.stop();
    await server?.close();
  });

  let providerId: number;

  it("a P-256 CA key in KMS issues a certificate that openssl verifies", { timeout: 60_000 }, async () => {
    const provider = await api("POST", "/key-providers", {
      name: "aws",
      type: "AWS_KMS",
      config: {
        awsKms: {
          awsRegion: "eu-west-1",
          endpointUrl: kms.endpoint,
          awsAccessKeyId: "AKIAE2ETEST0001",
          awsSecretAccessKey: SECRET,
        },
      },
    });
    expect(provider.status, JSON.stringify(provider.json)).toBe(201);
    providerId = provider.json.id;
    const ca = await api("POST", "/keys", {
      name: "kms-ca",
      algorithm: "EC",
      curve: "P-256",
      providerId,
      certificate: { commonName: "KMS Root CA", organization: ["Org1"], isCA: true },
    });
    expect(ca.status, JSON.stringify(ca.json)).toBe(201);
    const leafKey = await api("POST", "/keys", { name: "tls", algorithm: "EC", curve: "P-256" });
    const leaf = await api("POST", `/keys/${leafKey.json.id}/sign`, {
      caKeyId: ca.json.id,
      certificate: { commonName: "peer0.org1.example.com", dnsNames: ["peer0.org1.example.com"] },
    });
    expect(leaf.status, JSON.stringify(leaf.json)).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), "kms-e2e-certs-"));
    try {
      writeFileSync(join(dir, "ca.pem"), ca.json.certificate);
      writeFileSync(join(dir, "leaf.pem"), leaf.json.certificate);
      const out = await run("openssl", ["verify", "-CAfile", "ca.pem", "leaf.pem"], { cwd: dir });
      expect(out.stdout.trim()).toBe("leaf.pem: OK");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it(
    "a secp256k1 key in KMS signs a Besu transaction whose sender is the key's address",
    { timeout: 120_000 },
    async () => {
      const kmsKey = await api("POST", "/keys", { name: "eth-kms", algorithm: "EC", curve: "secp256k1", providerId });
      expect(kmsKey.status, JSON.stringify(kmsKey.json)).toBe(201);
      const address = kmsKey.json.ethereumAddress as Hex;
      // The node itself needs its key on disk, so it comes from the database provider.
      const nodeKey = await api("POST", "/keys", { name: "validator", algorithm: "EC", curve: "secp256k1" });
      const net = await api("POST", "/networks/besu", {
        name: "kms-net",
        config: { chainId: 31337, initialValidatorsKeyIds: [nodeKey.json.id] },
      });
      expect(net.status, JSON.stringify(net.json)).toBe(200);
      const node = await api("POST", "/nodes?start=false", {
        name: "kms-node",
        blockchainPlatform: "BESU",
        besuNode: {
          networkId: net.json.id,
          keyId: nodeKey.json.id,
          externalIp: "127.0.0.1",
          internalIp: "127.0.0.1",
          p2pHost: "127.0.0.1",
          p2pPort: await freePort(),
          rpcHost: "127.0.0.1",
          rpcPort,
          metricsPort: await freePort(),
        },
      });
      expect(node.status, JSON.stringify(node.json)).toBe(201);
      // anvil answers on the node's RPC port (the node record checks the port is free, so it comes after).
      chain = spawn(anvil!, ["--host", "127.0.0.1", "--port", String(rpcPort), "--chain-id", "31337", "--silent"], {
        stdio: "ignore",
      });
      const chainView = createPublicClient({ transport: http(rpcUrl) });
      for (let i = 0; ; i++) {
        if (
          await chainView.getChainId().then(
            () => true,
            () => false,
          )
        )
          break;
        if (i > 150) throw new Error("anvil did not answer");
        await new Promise((r) => setTimeout(r, 100));
      }
      const dev = createWalletClient({ account: privateKeyToAccount(ANVIL_DEV_KEY), transport: http(rpcUrl) });
      await dev.sendTransaction({ to: address, value: parseEther("5"), chain: null });

      const { abi, bytecode } = compileContract(SOURCE, "Counter");
      const deployed = await api("POST", `/nodes/${node.json.id}/contracts/deploy`, {
        keyId: kmsKey.json.id,
        bytecode,
      });
      expect(deployed.status, JSON.stringify(deployed.json)).toBe(201);
      expect(deployed.json).toMatchObject({ status: "success", from: address });
      const sent = await api("POST", `/nodes/${node.json.id}/contracts/send`, {
        keyId: kmsKey.json.id,
        address: deployed.json.contractAddress,
        abi,
        functionName: "bump",
      });
      expect(sent.status, JSON.stringify(sent.json)).toBe(200);
      // The chain's own view: anvil recovered the sender from the signature.
      for (const hash of [deployed.json.transactionHash, sent.json.transactionHash] as Hex[]) {
        expect((await chainView.getTransaction({ hash })).from.toLowerCase()).toBe(address.toLowerCase());
      }
      const called = await api("POST", `/nodes/${node.json.id}/contracts/call`, {
        address: deployed.json.contractAddress,
        abi,
        functionName: "n",
      });
      expect(called.json.result).toBe("1");
    },
  );

  it("keeps the secret and the keys out of responses, the log, the database and the data dir", async () => {
    const status = await api("GET", `/key-providers/${providerId}/awskms/status`);
    expect(status.json).toMatchObject({ kms_reachable: true, key_count: 2, access_key_id: "AKIA****" });
    await api("GET", "/key-providers");
    await api("GET", "/keys?pageSize=100");
    for (const body of server.responses()) expect(body).not.toContain(SECRET);
    expect(server.logs().length).toBeGreaterThan(0);
    expect(server.logs()).not.toContain(SECRET);
    for (const f of filesUnder(server.dataDir)) expect(f.text.includes(SECRET), f.path).toBe(false);
    if (databaseUrl) expect(await postgresText(databaseUrl)).not.toContain(SECRET);
    // KMS keys have no private key on our side at all.
    const keys = (await api("GET", "/keys?pageSize=100")).json;
    const items = (keys.items ?? keys.keys ?? keys) as { provider: { type: string }; kmsKeyId: string | null }[];
    const inKms = items.filter((k) => k.provider.type === "AWS_KMS");
    expect(inKms).toHaveLength(2);
    for (const k of inKms) expect(k.kmsKeyId).toBeTruthy();
    expect(JSON.stringify(keys)).not.toMatch(/PRIVATE KEY/);
  });
});
