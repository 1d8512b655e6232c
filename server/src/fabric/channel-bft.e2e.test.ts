import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BroadcastError, broadcastEnvelope } from "./broadcast.js";
import { buildGenesisBlock, buildSignedConfigUpdate, configToJson, setBatchTimeout } from "./configtx/index.js";
import { configFromBlock, fetchNewestConfigBlock } from "./deliver.js";
import type { GrpcEndpoint } from "./grpc-connection.js";
import { createSigningIdentity } from "./identity.js";
import { buildChannelMsp } from "./msp/index.js";
import { osnGetChannel, osnJoinChannel, type OsnAdminEndpoint } from "./osnadmin.js";
import { createPeerClient } from "./peer-client.js";
import { findTestBinaries, TEST_FABRIC_VERSION } from "./test-support/fabric-bins.js";
import { startLocalNetwork, type LocalNetwork } from "./test-support/local-network.js";
import { createTestOrg } from "./test-support/org-fixtures.js";
import { waitFor } from "../test-support/wait.js";

/** A BFT channel (Fabric 3.x only): 4 orderers, f = 1, one peer, one config update. */
const bins = TEST_FABRIC_VERSION.startsWith("2.")
  ? (console.warn(`fabric BFT e2e skipped: BFT needs Fabric 3.x, not ${TEST_FABRIC_VERSION}`), null)
  : await findTestBinaries(["peer", "orderer"], "fabric BFT channel e2e");
const root = mkdtempSync(join(tmpdir(), "cl-bft-e2e-"));
let net: LocalNetwork | undefined;

afterAll(async () => {
  await net?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(!bins)(`a BFT channel on real Fabric ${TEST_FABRIC_VERSION} nodes`, () => {
  it(
    "creates a BFT channel on 4 orderers, joins a peer, and applies a config update",
    { timeout: 150_000 },
    async () => {
      const b = bins as NonNullable<typeof bins>;
      const t0 = Date.now();
      const org = await createTestOrg("Org1MSP", "org1.example.com");
      const adminId = await org.identity("admin.org1.example.com", "admin");
      const adminTls = await org.tls("admin.org1.example.com");
      const admin = createSigningIdentity({ mspId: "Org1MSP", certPem: adminId.certPem, privateKey: adminId.keyPem });
      net = await startLocalNetwork({
        root,
        version: TEST_FABRIC_VERSION,
        org,
        bins: { peer: b.path("peer"), orderer: b.path("orderer") },
        orderers: 4,
        peers: 1,
      });
      expect(net.states.map((s) => s.status)).toEqual(["RUNNING", "RUNNING", "RUNNING", "RUNNING", "RUNNING"]);

      const channelId = "bftchannel";
      const msp = buildChannelMsp({
        mspId: "Org1MSP",
        caCertPem: org.ca.certificatePem,
        tlsCaCertPem: org.tlsCa.certificatePem,
      });
      const genesis = buildGenesisBlock({
        channelId,
        fabricVersion: TEST_FABRIC_VERSION,
        peerOrgs: [{ msp }],
        ordererOrgs: [{ msp, ordererEndpoints: net.orderers.map((o) => o.address) }],
        consensus: {
          type: "BFT",
          consenters: net.orderers.map((o, i) => ({
            id: i + 1,
            host: "127.0.0.1",
            port: o.port,
            mspId: "Org1MSP",
            identity: o.identityCertPem,
            clientTlsCert: o.tls.certPem,
            serverTlsCert: o.tls.certPem,
          })),
        },
      });
      const admins: OsnAdminEndpoint[] = net.orderers.map((o) => ({
        address: o.adminAddress,
        tlsRootCert: org.tlsCa.certificatePem,
        clientCert: adminTls.certPem,
        clientKey: adminTls.keyPem,
      }));
      const joined = await Promise.all(admins.map((a) => osnJoinChannel(a, genesis)));
      expect(joined.map((j) => j.consensusRelation)).toEqual(["consenter", "consenter", "consenter", "consenter"]);

      const ordererEp: GrpcEndpoint = {
        address: net.orderers[0]?.address as string,
        tlsRootCert: org.tlsCa.certificatePem,
      };
      const peer = createPeerClient(
        { address: net.peers[0]?.address as string, tlsRootCert: org.tlsCa.certificatePem },
        admin,
      );
      try {
        await peer.joinChain(genesis);
        const current = configFromBlock(
          await fetchNewestConfigBlock({ endpoint: ordererEp, service: "orderer", signer: admin, channelId }),
        );
        const tx = buildSignedConfigUpdate({
          channelId,
          original: current,
          updated: setBatchTimeout(current, "1s"),
          signers: [admin],
        });
        await waitFor(
          "the BFT cluster to order the update",
          async () => {
            try {
              await broadcastEnvelope(ordererEp, tx);
              return true;
            } catch (e) {
              if (e instanceof BroadcastError && e.statusName === "SERVICE_UNAVAILABLE") return undefined;
              throw e;
            }
          },
          60_000,
        );
        await waitFor(
          "height 2 on 4 orderers and the peer",
          async () => {
            const o = await Promise.all(admins.map((a) => osnGetChannel(a, channelId)));
            const p = await peer.getChainInfo(channelId);
            return [...o.map((x) => x.height), p.height].every((h) => h === 2) ? true : undefined;
          },
          60_000,
        );
        const cfg = configToJson(
          configFromBlock(
            await fetchNewestConfigBlock({ endpoint: ordererEp, service: "orderer", signer: admin, channelId }),
          ),
        ) as { channel_group: { groups: { Orderer: { values: { BatchTimeout: { value: unknown } } } } } };
        expect(cfg.channel_group.groups.Orderer.values.BatchTimeout.value).toEqual({ timeout: "1s" });
      } finally {
        peer.close();
      }
      console.warn(`BFT e2e: channel with 4 orderers and a peer at height 2 after ${Date.now() - t0} ms`);
      await net.stop();
      net = undefined;
    },
  );
});
