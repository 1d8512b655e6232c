import { createPrivateKey, createPublicKey, X509Certificate } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { isIP } from "node:net";
import { connect as tlsConnect } from "node:tls";
import * as grpc from "@grpc/grpc-js";
import { connect, signers } from "@hyperledger/fabric-gateway";
import { common } from "@hyperledger/fabric-protos";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { freePort, releasePorts } from "../../test-support/ports.js";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricApi,
  type FabricApi,
  haveFabricBinaries,
  type Json,
} from "../../test-support/fabric-api.js";
import { createUser } from "../../test-support/test-app.js";

/**
 * GET /networks/fabric/{id}/organizations/{orgId}/network-config on real binaries, called as
 * upstream's Go client calls it (Basic auth, a JSON content type and no body, over HTTP): the
 * YAML names the real peer and orderer with their TLS CAs, the admin key is a 0600 file next to
 * the console (never in the body), and a stock fabric-gateway client built only from the
 * profile evaluates qscc GetChainInfo on the channel.
 */
const bins = await haveFabricBinaries("network-config e2e");
let harness: FabricApi | undefined;
let port: number | undefined;
afterAll(async () => {
  await harness?.close();
  if (port) releasePorts(port);
});

const spki = (key: ReturnType<typeof createPublicKey>): Buffer => key.export({ type: "spki", format: "der" });

/** Whether a TLS handshake with `address` verifies against `ca` for `servername`. */
function tlsVerifies(address: string, ca: string, servername: string): Promise<boolean> {
  const [host, p] = [address.slice(0, address.lastIndexOf(":")), Number(address.slice(address.lastIndexOf(":") + 1))];
  return new Promise((resolve, reject) => {
    // An IP address is checked against the certificate's IP SANs; SNI carries only names.
    const sni = isIP(servername) ? undefined : servername;
    const s = tlsConnect({ host, port: p, ca, servername: sni, ALPNProtocols: ["h2"] }, () => {
      resolve(s.authorized);
      s.end();
    });
    s.once("error", reject);
  });
}

describe("an org's network config (connection profile)", () => {
  it.skipIf(!bins)(
    `serves a working connection profile without the key (Fabric ${VERSION})`,
    { timeout: 300_000 },
    async () => {
      const h = await fabricApi({ portCount: 20 });
      harness = h;
      const { org, ord, peer, orderer, net } = await h.peerOrdererChannel({
        code: "Nc",
        prefix: "nc",
        channel: "ncchannel",
      });
      port = await freePort();
      await h.t.app.listen({ port, host: "127.0.0.1" });
      const base = `http://127.0.0.1:${port}/api/v1`;
      // As upstream's client sends every request: Basic auth, a JSON content type, no body.
      const goGet = (path: string, auth = h.t.admin) =>
        fetch(`${base}${path}`, { headers: { ...auth, "content-type": "application/json" } });

      const res = await goGet(`/networks/fabric/${net.id}/organizations/${org.id}/network-config`);
      const text = await res.text();
      expect(res.status, text).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/yaml/);
      expect(text).not.toMatch(/PRIVATE KEY/);
      const profile = parse(text) as Json;

      // The org with its admin: the certificate inline, the key by path.
      expect(profile.client).toEqual({ organization: "NcOrg1MSP" });
      const o = profile.organizations.NcOrg1MSP;
      expect(o.mspid).toBe("NcOrg1MSP");
      expect(o.peers).toEqual([peer.name]);
      const admin = o.users.admin;
      expect(admin.key.pem).toBeUndefined();
      const adminKey = await h.ok("GET", `/keys/${org.adminSignKeyId}`);
      expect(admin.cert.pem.trim()).toBe(String(adminKey.certificate).trim());
      const keyPath = admin.key.path as string;
      expect(keyPath.startsWith(h.t.config.dataDir)).toBe(true);
      expect(statSync(keyPath).mode & 0o777).toBe(0o600);
      const keyPem = readFileSync(keyPath, "utf8");
      expect(spki(createPublicKey(createPrivateKey(keyPem)))).toEqual(
        spki(new X509Certificate(admin.cert.pem).publicKey),
      );

      // The real endpoints and TLS CAs.
      const p = profile.peers[peer.name];
      expect(p.url).toBe(`grpcs://${peer.fabricPeer.externalEndpoint}`);
      expect(p.tlsCACerts.pem.trim()).toBe(String(peer.fabricPeer.tlsCaCert).trim());
      const host = String(peer.fabricPeer.externalEndpoint).split(":")[0];
      expect(p.grpcOptions).toMatchObject({ "ssl-target-name-override": host, hostnameOverride: host });
      const ordEntry = profile.orderers[orderer.name];
      expect(Object.keys(profile.orderers)).toEqual([orderer.name]);
      expect(ordEntry.url).toBe(`grpcs://${orderer.fabricOrderer.externalEndpoint}`);
      const ordOrg = await h.ok("GET", `/organizations/${ord.id}`);
      expect(ordEntry.tlsCACerts.pem.trim()).toBe(String(ordOrg.tlsCertificate).trim());
      expect(
        await tlsVerifies(
          String(orderer.fabricOrderer.externalEndpoint),
          ordEntry.tlsCACerts.pem,
          ordEntry.grpcOptions["ssl-target-name-override"],
        ),
      ).toBe(true);
      expect(profile.channels.ncchannel).toEqual({
        orderers: [orderer.name],
        peers: {
          [peer.name]: {
            endorsingPeer: true,
            chaincodeQuery: true,
            ledgerQuery: true,
            eventSource: true,
            discover: true,
          },
        },
      });

      // A stock client from the profile alone: qscc GetChainInfo through the peer's Gateway.
      const url = new URL(p.url);
      const client = new grpc.Client(url.host, grpc.credentials.createSsl(Buffer.from(p.tlsCACerts.pem)), {
        "grpc.ssl_target_name_override": p.grpcOptions["ssl-target-name-override"],
      });
      const gateway = connect({
        client,
        identity: { mspId: o.mspid, credentials: Buffer.from(admin.cert.pem) },
        signer: signers.newPrivateKeySigner(createPrivateKey(readFileSync(admin.key.path))),
      });
      try {
        const bytes = await gateway
          .getNetwork("ncchannel")
          .getContract("qscc")
          .evaluateTransaction("GetChainInfo", "ncchannel");
        const height = common.BlockchainInfo.deserializeBinary(bytes).getHeight();
        const info = await h.ok("GET", `/networks/fabric/${net.id}/info`);
        expect(height).toBeGreaterThanOrEqual(2);
        expect(height).toBe(info.height);
      } finally {
        gateway.close();
        client.close();
      }

      // The path upstream's OpenAPI document names answers the same profile.
      const same = await goGet(`/networks/fabric/${net.id}/organizations/${org.id}/config`);
      expect(same.status).toBe(200);
      expect(parse(await same.text())).toEqual(profile);

      // The orderer org gets its orderers, listed under the org, and no peers.
      const ordProfile = parse(
        await (await goGet(`/networks/fabric/${net.id}/organizations/${ord.id}/network-config`)).text(),
      ) as Json;
      expect(ordProfile.organizations.NcOrdMSP).toMatchObject({ peers: [], orderers: [orderer.name] });

      // Audited like the MSP export.
      const audit = await h.ok("GET", "/audit/logs?event_type=fabric_network.network_config&page_size=10");
      expect(audit.items[0]).toMatchObject({
        eventOutcome: "SUCCESS",
        affectedResource: `network:${net.id}`,
      });

      // Unknown network or org: 404 JSON errors; an org outside the channel too; bad ids: 400.
      const missing = async (path: string, pattern: RegExp) => {
        const r = await goGet(path);
        expect(r.status, path).toBe(404);
        expect(r.headers.get("content-type")).toMatch(/^application\/json/);
        const body = (await r.json()) as Json;
        expect(body.error).toBe("NOT_FOUND");
        expect(body.message).toMatch(pattern);
      };
      await missing(`/networks/fabric/999999/organizations/${org.id}/network-config`, /network 999999 not found/);
      await missing(`/networks/fabric/${net.id}/organizations/999999/network-config`, /organization 999999 not found/);
      const outsider = await h.ok("POST", "/organizations", { mspId: "NcOutMSP", name: "Nc Outsider" });
      await missing(
        `/networks/fabric/${net.id}/organizations/${outsider.id}/network-config`,
        /NcOutMSP is not a member of network 'ncchannel'/,
      );
      expect((await goGet(`/networks/fabric/abc/organizations/${org.id}/network-config`)).status).toBe(400);
      expect((await goGet(`/networks/fabric/${net.id}/organizations/0/config`)).status).toBe(400);

      // A viewer may read the network, not write the admin's key to the host.
      const viewer = await createUser(h.t, "nc-viewer", "viewer");
      const denied = await goGet(`/networks/fabric/${net.id}/organizations/${org.id}/network-config`, viewer);
      expect(denied.status).toBe(403);
      expect(((await denied.json()) as Json).details.permission).toBe("ORGANIZATION_UPDATE");
    },
  );
});
