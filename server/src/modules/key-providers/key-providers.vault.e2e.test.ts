import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { decryptEnvelopeToString, parseMasterKey } from "../../crypto/envelope.js";
import { filesUnder, startConsoleProcess, type ConsoleProcess } from "../../test-support/console-process.js";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricNodeSpec,
  haveFabricBinaries,
  type Json,
  TEST_BATCH_TIMEOUT,
} from "../../test-support/fabric-api.js";
import { openBaoForTests } from "../../test-support/openbao.js";
import { reservePorts } from "../../test-support/ports.js";
import { vaultRequest } from "./vault/vault-http.js";
import { processesUnder } from "../../test-support/processes.js";
import { Fatal, waitFor } from "../../test-support/wait.js";

const run = promisify(execFile);

const found = openBaoForTests();
const bao = "path" in found ? found.path : undefined;
const bins = await haveFabricBinaries("managed OpenBao e2e");
if ("skip" in found) console.warn(`managed OpenBao e2e skipped: ${found.skip}`);

let c: ConsoleProcess | undefined;
afterAll(async () => {
  if (!c) return;
  await c.stop();
  // Nodes and the managed OpenBao outlive a console by design; this test's are all under its data dir.
  for (const pid of processesUnder(c.dataDir)) process.kill(pid, "SIGKILL");
  await c.close();
});

/**
 * Issue 18's "done when" on real binaries: a managed OpenBao started through the API holds an
 * organization's CA keys in transit; a real peer whose certificates that CA signed runs and joins a
 * channel; after the console is stopped and started again (and the OpenBao process with it), the server
 * unseals by itself and the CA still signs. openssl checks the chains, and the test looks for the
 * provider's secrets in the database, the data dir, the log and every API answer it read.
 */
describe("managed OpenBao as an organization's CA", () => {
  it.skipIf(!bao || !bins)(
    `a peer certified by a transit CA joins a channel (Fabric ${VERSION})`,
    { timeout: 300_000 },
    async () => {
      // Nodes take the first 26 of 30 reserved ports; OpenBao's API and cluster ports are two of the rest.
      const ports = await reservePorts(30);
      c = await startConsoleProcess({ CHAINLAUNCH_BAO: bao as string });
      const h = c;
      const settings = (await h.ok("GET", "/settings")).config;
      await h.ok("POST", "/settings", { config: { ...settings, portRangeStart: ports, portRangeEnd: ports + 25 } });

      // Managed OpenBao: the create starts it (initialised with 3 shares, threshold 2, unsealed).
      const vaultPort = ports + 27;
      const provider = await h.ok("POST", "/key-providers", {
        name: "bao",
        type: "VAULT",
        config: { vault: { operation: "CREATE", port: vaultPort, shares: 3, threshold: 2 } },
      });
      const status = await waitFor(
        "OpenBao unsealed",
        async () => {
          const s = await h.ok("GET", `/key-providers/${provider.id}/vault/status`);
          return s.vault_initialized && !s.sealed ? s : undefined;
        },
        60_000,
      );
      expect(status.container_running).toBe(true);
      expect(status.has_unseal_keys).toBe(true);

      // The organization's two CA keys live in transit; its identities are local keys those CAs signed.
      const org = await h.ok("POST", "/organizations", {
        mspId: "BaoOrgMSP",
        name: "Bao Org",
        providerId: provider.id,
      });
      expect(org.providerId).toBe(provider.id);
      const inVault = await h.ok("GET", `/keys?provider_id=${provider.id}&pageSize=100`);
      expect(inVault.items.map((k: Json) => k.name).sort()).toEqual(["BaoOrgMSP-sign-ca", "BaoOrgMSP-tls-ca"]);
      for (const k of inVault.items) expect(k.provider.type).toBe("VAULT");
      const ord = await h.ok("POST", "/organizations", { mspId: "BaoOrdMSP", name: "Bao Orderers" });

      // A real peer and orderer, RUNNING, on a channel both joined.
      const d = await h.ok("GET", "/nodes/defaults/fabric?peerCount=1&ordererCount=1");
      const peerSpec = fabricNodeSpec(org, "peer", d.peers[0], "bao-peer0");
      const ordSpec = fabricNodeSpec(ord, "orderer", d.orderers[0], "bao-orderer0");
      const created = [await h.ok("POST", "/nodes", peerSpec), await h.ok("POST", "/nodes", ordSpec)];
      const [peer, orderer] = (await Promise.all(
        created.map((n) =>
          waitFor(
            `${n.name} RUNNING`,
            async () => {
              const cur = await h.ok("GET", `/nodes/${n.id}`);
              if (cur.status === "ERROR") throw new Fatal(`${n.name}: ${cur.errorMessage}`);
              return cur.status === "RUNNING" ? cur : undefined;
            },
            90_000,
          ),
        ),
      )) as [Json, Json];
      const peerProps = peer.fabricPeer;
      const net = await h.ok("POST", "/networks/fabric", {
        name: "baochannel",
        config: {
          batchTimeout: TEST_BATCH_TIMEOUT,
          peerOrganizations: [{ id: org.id, nodeIds: [peer.id] }],
          ordererOrganizations: [{ id: ord.id, nodeIds: [orderer.id] }],
        },
      });
      await h.ok("POST", `/networks/fabric/${net.id}/orderers/${orderer.id}/join`);
      await h.ok("POST", `/networks/fabric/${net.id}/peers/${peer.id}/join`);
      const channels = await h.ok("GET", `/nodes/${peer.id}/channels`);
      expect(JSON.stringify(channels)).toContain("baochannel");

      // openssl: the peer's signing and TLS certificates chain to the org's CAs whose keys are in transit.
      const dir = h.dataDir;
      const signKey = await h.ok("GET", `/keys/${peerProps.signKeyId}`);
      const tlsKey = await h.ok("GET", `/keys/${peerProps.tlsKeyId}`);
      expect(signKey.provider.type).toBe("DATABASE");
      const verify = async (name: string, caPem: string, certPem: string) => {
        writeFileSync(join(dir, `${name}-ca.pem`), caPem);
        writeFileSync(join(dir, `${name}.pem`), certPem);
        const { stdout } = await run("openssl", ["verify", "-CAfile", `${name}-ca.pem`, `${name}.pem`], { cwd: dir });
        return stdout.trim();
      };
      expect(await verify("peer-sign", org.signCertificate, signKey.certificate)).toBe("peer-sign.pem: OK");
      expect(await verify("peer-tls", org.tlsCertificate, tlsKey.certificate)).toBe("peer-tls.pem: OK");

      // Stop the console and its OpenBao; start again: the server comes back unsealed and the CA signs.
      await h.stop();
      for (const pid of processesUnder(join(dir, "vaults"))) process.kill(pid, "SIGKILL");
      await h.restart();
      const again = await waitFor(
        "OpenBao unsealed after the restart",
        async () => {
          const s = await h.ok("GET", `/key-providers/${provider.id}/vault/status`);
          return s.vault_initialized && !s.sealed && s.vault_reachable ? s : undefined;
        },
        90_000,
      );
      // A new server process, which sealed itself when it started: the console unsealed it.
      expect(again.container_id).not.toBe(status.container_id);
      const issued = await h.ok("POST", `/organizations/${org.id}/keys`, { name: "after-restart", role: "client" });
      expect(await verify("after-restart", org.signCertificate, issued.certificate)).toBe("after-restart.pem: OK");

      // Secrets: the root token and unseal keys (decrypted here with the master key, as only this console
      // can) appear nowhere in plaintext: not in the database, the data dir, the log or an API answer.
      const masterKey = parseMasterKey(readFileSync(join(dir, "master.key"), "utf8"));
      const sqlite = new Database(join(dir, "chainlaunch.db"), { readonly: true });
      const row = sqlite.prepare("select secrets_encrypted from key_providers where id = ?").get(provider.id) as {
        secrets_encrypted: string;
      };
      sqlite.close();
      const secrets = JSON.parse(
        decryptEnvelopeToString(masterKey, row.secrets_encrypted, `chainlaunch:key-provider-secrets:${provider.id}`),
      ) as Record<string, string>;
      // Unseal keys may be kept as one JSON list: look for each key on its own.
      const needles = Object.values(secrets)
        .flatMap((v) => {
          try {
            const parsed = JSON.parse(v) as unknown;
            return Array.isArray(parsed) ? parsed.map(String) : [v];
          } catch {
            return [v];
          }
        })
        .filter((v) => v.length >= 16);
      expect(needles.length).toBeGreaterThan(0);
      // Transit refuses to hand out the CA keys, even to the root token.
      const live = (await h.ok("GET", `/key-providers/${provider.id}`)).config.vault;
      const vault = { address: again.address as string, caCert: live.caCert as string };
      for (const k of inVault.items) {
        const exported = await vaultRequest(
          { ...vault, token: secrets.rootToken },
          "GET",
          `/v1/transit/export/signing-key/${k.kmsKeyId}`,
        );
        expect(exported.status, JSON.stringify(exported.body)).toBe(400);
      }
      const haystacks = [
        ...filesUnder(dir).map((f) => ({ where: f.path, text: f.text })),
        { where: "console log", text: h.logs() },
        { where: "API responses", text: h.responses().join("\n") },
      ];
      for (const needle of needles) {
        for (const hay of haystacks) expect(hay.text.includes(needle), `secret found in ${hay.where}`).toBe(false);
      }
    },
  );
});
