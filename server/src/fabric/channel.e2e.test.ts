import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { common } from "@hyperledger/fabric-protos";
import { afterAll, describe, expect, it } from "vitest";
import { BroadcastError, broadcastEnvelope } from "./broadcast.js";
import {
  addApplicationOrg,
  addConfigSignatures,
  buildGenesisBlock,
  cloneConfig,
  computeConfigUpdate,
  configUpdateTransaction,
  createConfigUpdateEnvelope,
  encodePolicy,
  buildSignedConfigUpdate,
  configToJson,
  setAnchorPeers,
  setBatchTimeout,
} from "./configtx/index.js";
import { decodeBlock } from "./block-decode.js";
import { configFromBlock, fetchBlock, fetchBlocks, fetchChainInfo, fetchNewestConfigBlock } from "./deliver.js";
import type { GrpcEndpoint } from "./grpc-connection.js";
import { createSigningIdentity } from "./identity.js";
import { buildChannelMsp } from "./msp/index.js";
import { osnGetChannel, osnJoinChannel, osnListChannels, osnRemoveChannel, type OsnAdminEndpoint } from "./osnadmin.js";
import { createPeerClient, ProposalError } from "./peer-client.js";
import { findTestBinaries, TEST_FABRIC_VERSION } from "./test-support/fabric-bins.js";
import { startLocalNetwork, type LocalNetwork } from "./test-support/local-network.js";
import { createTestOrg } from "./test-support/org-fixtures.js";
import { waitFor } from "../test-support/wait.js";

/**
 * A channel on real nodes: 1 org, 3 raft orderers and 2 peers under the supervisor; genesis
 * from our library, orderers joined through our osnadmin client, peers through CSCC, a
 * batch-timeout update signed by the org admin and broadcast, and heights compared.
 */
const bins = await findTestBinaries(["peer", "orderer"], "fabric channel e2e");
const root = mkdtempSync(join(tmpdir(), "cl-channel-e2e-"));
let net: LocalNetwork | undefined;
let net2: LocalNetwork | undefined;

afterAll(async () => {
  await net?.stop();
  await net2?.stop();
  if (process.env.CHAINLAUNCH_E2E_KEEP) console.warn(`channel e2e: kept ${root}`);
  else rmSync(root, { recursive: true, force: true });
});

describe.skipIf(!bins)(`a channel on real Fabric ${TEST_FABRIC_VERSION} nodes`, () => {
  it(
    "creates, joins 3 orderers and 2 peers, updates batch timeout and anchor peers, adds a second org and its peer; heights match",
    { timeout: 180_000 },
    async () => {
      const b = bins as NonNullable<typeof bins>;
      const t: Record<string, number> = {};
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
        orderers: 3,
        peers: 2,
      });
      for (const s of net.states) {
        if (s.status !== "RUNNING") console.error(s.id, s.errorMessage);
        expect(s.status, s.id).toBe("RUNNING");
      }
      t.started = Date.now() - t0;

      const channelId = "e2echannel";
      const msp = buildChannelMsp({
        mspId: "Org1MSP",
        caCertPem: org.ca.certificatePem,
        tlsCaCertPem: org.tlsCa.certificatePem,
      });
      const genesis = buildGenesisBlock({
        channelId,
        fabricVersion: TEST_FABRIC_VERSION,
        peerOrgs: [{ msp, anchorPeers: [{ host: "127.0.0.1", port: Number(net.peers[0]?.address.split(":")[1]) }] }],
        ordererOrgs: [{ msp, ordererEndpoints: net.orderers.map((o) => o.address) }],
        consensus: {
          type: "etcdraft",
          consenters: net.orderers.map((o) => ({
            host: "127.0.0.1",
            port: o.port,
            clientTlsCert: o.tls.certPem,
            serverTlsCert: o.tls.certPem,
          })),
        },
      });
      const tCreate = Date.now();

      const admins: OsnAdminEndpoint[] = net.orderers.map((o) => ({
        address: o.adminAddress,
        tlsRootCert: org.tlsCa.certificatePem,
        clientCert: adminTls.certPem,
        clientKey: adminTls.keyPem,
      }));
      const joined = await Promise.all(admins.map((a) => osnJoinChannel(a, genesis)));
      expect(joined.map((j) => [j.name, j.consensusRelation])).toEqual(admins.map(() => [channelId, "consenter"]));
      // Joining twice is a 405 from the participation API.
      await expect(osnJoinChannel(admins[0] as OsnAdminEndpoint, genesis)).rejects.toMatchObject({ status: 405 });
      t.orderersJoined = Date.now() - tCreate;

      await waitFor(
        "a raft leader",
        async () =>
          net?.orderers.some((o) => /Raft leader changed: 0 -> \d/.test(readFileSync(o.logFile, "utf8")))
            ? true
            : undefined,
        60_000,
      );
      t.leader = Date.now() - tCreate;

      const peerEp = (i: number): GrpcEndpoint => ({
        address: net?.peers[i]?.address as string,
        tlsRootCert: org.tlsCa.certificatePem,
      });
      const ordererEp = (i: number): GrpcEndpoint => ({
        address: net?.orderers[i]?.address as string,
        tlsRootCert: org.tlsCa.certificatePem,
      });
      const peers = net.peers.map((_, i) => createPeerClient(peerEp(i), admin));
      try {
        await Promise.all(peers.map((p) => p.joinChain(genesis)));
        t.peersJoined = Date.now() - tCreate;
        for (const p of peers) expect(await p.getChannels()).toContain(channelId);
        const again = await peers[0]?.joinChain(genesis).catch((e: unknown) => e);
        expect(again).toBeInstanceOf(ProposalError);

        // Block 0 from an orderer is our genesis block.
        const block0 = await fetchBlock({
          endpoint: ordererEp(1),
          service: "orderer",
          signer: admin,
          channelId,
          target: 0,
        });
        expect(Buffer.from(block0.getData()?.getDataList_asU8()[0] ?? [])).toEqual(
          Buffer.from(genesis.getData()?.getDataList_asU8()[0] ?? []),
        );

        // Batch timeout 2s → 1s, signed by the org admin, submitted to an orderer (retried until a leader takes it).
        const current = configFromBlock(
          await fetchNewestConfigBlock({ endpoint: ordererEp(0), service: "orderer", signer: admin, channelId }),
        );
        const tx = buildSignedConfigUpdate({
          channelId,
          original: current,
          updated: setBatchTimeout(current, "1s"),
          signers: [admin],
        });
        await waitFor(
          "the orderer to accept the config update",
          async () => {
            try {
              await broadcastEnvelope(ordererEp(0), tx);
              return true;
            } catch (e) {
              if (e instanceof BroadcastError && e.statusName === "SERVICE_UNAVAILABLE") return undefined;
              throw e;
            }
          },
          30_000,
        );

        // All five reach height 2 and agree on the chain.
        const heights = await waitFor(
          "height 2 everywhere",
          async () => {
            const o = await Promise.all(admins.map((a) => osnGetChannel(a, channelId)));
            const p = await Promise.all(peers.map((c) => c.getChainInfo(channelId)));
            const all = [...o.map((x) => x.height), ...p.map((x) => x.height)];
            return all.every((h) => h === 2) ? { o, p } : undefined;
          },
          30_000,
        );
        t.sameHeight = Date.now() - tCreate;
        expect(heights.o.map((x) => x.status)).toEqual(["active", "active", "active"]);
        expect(new Set(heights.p.map((x) => x.currentBlockHash)).size).toBe(1);

        // The new config block, from an orderer and from a peer's deliver service.
        for (const [endpoint, service] of [
          [ordererEp(2), "orderer"],
          [peerEp(1), "peer"],
        ] as const) {
          const cfgBlock = await fetchNewestConfigBlock({ endpoint, service, signer: admin, channelId });
          expect(cfgBlock.getHeader()?.getNumber()).toBe(1);
          const json = configToJson(configFromBlock(cfgBlock)) as {
            channel_group: { groups: { Orderer: { values: { BatchTimeout: { value: unknown; version: string } } } } };
            sequence: string;
          };
          expect(json.sequence).toBe("1");
          expect(json.channel_group.groups.Orderer.values.BatchTimeout).toMatchObject({
            value: { timeout: "1s" },
            version: "1",
          });
        }
        const both = await fetchBlocks({
          endpoint: ordererEp(0),
          service: "orderer",
          signer: admin,
          channelId,
          start: 0,
          stop: 1,
        });
        const decoded = both.map(decodeBlock);
        expect(decoded.map((d) => [d.number, d.transactions[0]?.type])).toEqual([
          [0, "CONFIG"],
          [1, "CONFIG"],
        ]);
        expect(decoded[1]?.transactions[0]?.creatorMspId).toBe("Org1MSP");
        // Our header hash is the one the orderer chained block 1 to.
        expect(decoded[1]?.previousHash).toBe(decoded[0]?.hash);
        const viaQscc = await peers[0]?.getBlockByNumber(channelId, 1);
        expect(viaQscc?.getHeader()?.getNumber()).toBe(1);
        expect(decodeBlock(viaQscc as common.Block).transactions[0]?.type).toBe("CONFIG");

        // A second org joins: added by a config update signed by Org1's admin, then its peer joins with block 0.
        const org2 = await createTestOrg("Org2MSP", "org2.example.com");
        const admin2Id = await org2.identity("admin.org2.example.com", "admin");
        const admin2 = createSigningIdentity({
          mspId: "Org2MSP",
          certPem: admin2Id.certPem,
          privateKey: admin2Id.keyPem,
        });
        net2 = await startLocalNetwork({
          root: join(root, "org2"),
          version: TEST_FABRIC_VERSION,
          org: org2,
          bins: { peer: b.path("peer"), orderer: b.path("orderer") },
          orderers: 0,
          peers: 1,
        });
        expect(net2.states.map((s) => s.status)).toEqual(["RUNNING"]);
        const submit = async (edit: (c: common.Config) => common.Config): Promise<void> => {
          const cur = configFromBlock(
            await fetchNewestConfigBlock({ endpoint: ordererEp(0), service: "orderer", signer: admin, channelId }),
          );
          await broadcastEnvelope(
            ordererEp(0),
            buildSignedConfigUpdate({ channelId, original: cur, updated: edit(cur), signers: [admin] }),
          );
        };
        const msp2 = buildChannelMsp({
          mspId: "Org2MSP",
          caCertPem: org2.ca.certificatePem,
          tlsCaCertPem: org2.tlsCa.certificatePem,
        });
        const tOrg2 = Date.now();
        await submit((c) => addApplicationOrg(c, { msp: msp2 }));
        // Anchor peers for Org1: both its peers.
        await waitFor(
          "height 3 on orderer0",
          async () => ((await osnGetChannel(admins[0] as OsnAdminEndpoint, channelId)).height === 3 ? true : undefined),
          20_000,
        );
        await submit((c) =>
          setAnchorPeers(
            c,
            "Org1MSP",
            (net?.peers ?? []).map((p) => ({ host: "127.0.0.1", port: Number(p.address.split(":")[1]) })),
          ),
        );
        const peer2 = createPeerClient(
          { address: net2.peers[0]?.address as string, tlsRootCert: org2.tlsCa.certificatePem },
          admin2,
        );
        peers.push(peer2);
        await peer2.joinChain(genesis);
        const final = await waitFor(
          "height 4 on 3 orderers and 3 peers",
          async () => {
            const o = await Promise.all(admins.map((a) => osnGetChannel(a, channelId)));
            const p = await Promise.all(peers.map((c) => c.getChainInfo(channelId)));
            const all = [...o.map((x) => x.height), ...p.map((x) => x.height)];
            return all.every((h) => h === 4) ? p : undefined;
          },
          30_000,
        );
        t.org2Joined = Date.now() - tOrg2;
        expect(new Set(final.map((x) => x.currentBlockHash)).size).toBe(1);
        // Deliver-based info (orderer) agrees with QSCC GetChainInfo (peer).
        expect(await fetchChainInfo({ endpoint: ordererEp(1), service: "orderer", signer: admin, channelId })).toEqual(
          final[0],
        );

        // An Application-level change needs MAJORITY of the 2 org admins: one signature is refused, two pass.
        const cur = configFromBlock(
          await fetchNewestConfigBlock({ endpoint: ordererEp(0), service: "orderer", signer: admin, channelId }),
        );
        const edited = cloneConfig(cur);
        edited
          .getChannelGroup()
          ?.getGroupsMap()
          .get("Application")
          ?.getPoliciesMap()
          .get("Endorsement")
          ?.setPolicy(encodePolicy({ type: "ImplicitMeta", rule: "ANY Endorsement" }));
        const update = computeConfigUpdate(channelId, cur, edited);
        const signedBy = (ids: (typeof admin)[]): common.Envelope =>
          configUpdateTransaction(channelId, addConfigSignatures(createConfigUpdateEnvelope(update), ids), admin);
        const refused = await broadcastEnvelope(ordererEp(0), signedBy([admin])).catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(BroadcastError);
        expect((refused as BroadcastError).info).toMatch(/policy/i);
        await broadcastEnvelope(ordererEp(0), signedBy([admin, admin2]));
        await waitFor(
          "height 5 on all peers",
          async () =>
            (await Promise.all(peers.map((c) => c.getChainInfo(channelId)))).every((i) => i.height === 5)
              ? true
              : undefined,
          30_000,
        );
        const latest = configToJson(
          configFromBlock(
            await fetchNewestConfigBlock({ endpoint: peerEp(0), service: "peer", signer: admin, channelId }),
          ),
        ) as {
          channel_group: {
            groups: { Application: { groups: Record<string, { values: Record<string, { value: unknown }> }> } };
          };
        };
        expect(Object.keys(latest.channel_group.groups.Application.groups).sort()).toEqual(["Org1MSP", "Org2MSP"]);
        expect(latest.channel_group.groups.Application.groups.Org1MSP?.values.AnchorPeers?.value).toMatchObject({
          anchor_peers: [{ host: "127.0.0.1" }, { host: "127.0.0.1" }],
        });

        // Unjoin one orderer.
        await osnRemoveChannel(admins[2] as OsnAdminEndpoint, channelId);
        await waitFor(
          "orderer2 to leave",
          async () =>
            (await osnListChannels(admins[2] as OsnAdminEndpoint)).channels?.some((c) => c.name === channelId)
              ? undefined
              : true,
          20_000,
        );
      } finally {
        for (const p of peers) p.close();
      }
      console.warn(`channel e2e timings (ms): ${JSON.stringify(t)}`);
      await net.stop();
      for (const s of net.supervisor.list()) expect(s.status).toBe("STOPPED");
      net = undefined;
    },
  );
});
