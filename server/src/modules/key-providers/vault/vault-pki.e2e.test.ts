import { X509Certificate } from "node:crypto";
import { connect } from "node:tls";
import { afterAll, describe, expect, it } from "vitest";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricApi,
  type FabricApi,
  haveFabricBinaries,
  type Json,
  TEST_BATCH_TIMEOUT,
} from "../../../test-support/fabric-api.js";
import { vaultSerial } from "./vault-pki.js";
import { openBaoForTests, startOpenBaoDev, type OpenBaoDev } from "../../../test-support/openbao.js";

/**
 * Fabric itself checks what Vault's PKI issued: a peer organization and an orderer organization
 * whose CAs are PKI issuers in a real OpenBao, a peer and an orderer whose signing and TLS
 * certificates Vault issued from CSRs, both RUNNING (each validates its MSP and TLS at start), and
 * a channel both joined over mutual TLS. Skipped without the Fabric binaries or OpenBao.
 */
const bins = await haveFabricBinaries("Vault PKI e2e");
const bao = openBaoForTests();
if ("skip" in bao) console.warn(`skipping the Vault PKI e2e: ${bao.skip}`);
let h: FabricApi | undefined;
let dev: OpenBaoDev | undefined;
afterAll(async () => {
  await h?.close();
  await dev?.stop();
});

/** The certificate a TLS server presents (PEM). */
function servedCertificate(endpoint: string): Promise<string> {
  const [host, port] = endpoint.split(":");
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port: Number(port), rejectUnauthorized: false, ALPNProtocols: ["h2"] }, () => {
      const raw = socket.getPeerCertificate().raw;
      socket.destroy();
      resolve(new X509Certificate(raw).toString());
    });
    socket.on("error", reject);
  });
}

describe("Vault PKI as the CA of a running network", () => {
  it.skipIf(!bins || "skip" in bao)(
    `a peer and an orderer with certificates Vault issued join a channel (Fabric ${VERSION})`,
    { timeout: 300_000 },
    async () => {
      [dev, h] = await Promise.all([startOpenBaoDev("root-pki-e2e-token-51f0"), fabricApi({ portCount: 30 })]);
      const api = h;
      const provider = await api.ok("POST", "/key-providers", {
        name: "vault-pki",
        type: "VAULT",
        config: { vault: { address: dev.address, token: dev.rootToken, caEngine: "pki" } },
      });
      const org = await api.ok("POST", "/organizations", {
        mspId: "PkiPeerMSP",
        name: "Pki Peers",
        providerId: provider.id,
      });
      const ord = await api.ok("POST", "/organizations", {
        mspId: "PkiOrdMSP",
        name: "Pki Orderers",
        providerId: provider.id,
      });
      const [peer] = (await api.createNodes(org, 1, 0, "pki-")) as [Json];
      const [orderer] = (await api.createNodes(ord, 0, 1, "pkio-")) as [Json];
      const net = await api.ok("POST", "/networks/fabric", {
        name: "pkichannel",
        config: {
          batchTimeout: TEST_BATCH_TIMEOUT,
          peerOrganizations: [{ id: org.id, nodeIds: [peer.id] }],
          ordererOrganizations: [{ id: ord.id, nodeIds: [orderer.id] }],
        },
      });
      await api.ok("POST", `/networks/fabric/${net.id}/orderers/${orderer.id}/join`);
      await api.ok("POST", `/networks/fabric/${net.id}/peers/${peer.id}/join`);
      expect(JSON.stringify(await api.ok("GET", `/nodes/${peer.id}/channels`))).toContain("pkichannel");

      // Every node certificate is one Vault issued and knows, chained to a CA whose key Vault keeps.
      const nodeKeys = [
        [peer.fabricPeer.signKeyId, org.signCertificate],
        [peer.fabricPeer.tlsKeyId, org.tlsCertificate],
        [orderer.fabricOrderer.signKeyId, ord.signCertificate],
        [orderer.fabricOrderer.tlsKeyId, ord.tlsCertificate],
      ] as const;
      for (const [keyId, caPem] of nodeKeys) {
        const key = await api.ok("GET", `/keys/${keyId}`);
        expect(key.provider.type).toBe("DATABASE");
        const cert = new X509Certificate(key.certificate);
        expect(cert.verify(new X509Certificate(caPem).publicKey)).toBe(true);
        const known = await dev.call("GET", `/v1/pki/cert/${vaultSerial(cert.serialNumber)}`);
        expect(known.status, `Vault knows the certificate of key ${keyId}`).toBe(200);
      }
      // The running peer serves the TLS certificate Vault issued.
      const peerTls = await api.ok("GET", `/keys/${peer.fabricPeer.tlsKeyId}`);
      expect(new X509Certificate(await servedCertificate(peer.endpoint)).fingerprint256).toBe(
        new X509Certificate(peerTls.certificate).fingerprint256,
      );
      const cas = await api.ok("GET", `/keys?provider_id=${provider.id}&pageSize=100`);
      expect(cas.items.filter((k: Json) => String(k.kmsKeyId).startsWith("pki:"))).toHaveLength(4);
    },
  );
});
