import { afterAll, describe, expect, it } from "vitest";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricApi,
  type FabricApi,
  haveFabricBinaries,
  type Json,
  TEST_BATCH_TIMEOUT,
} from "../../test-support/fabric-api.js";
import { threeOrgChannel } from "../../test-support/governance-channel.js";

/**
 * What a proposal's diff lists, for every operation type, against a real channel: one console
 * holds three peer orgs (MAJORITY Admins) and an orderer. Each proposal is computed from the
 * orderer's newest config; its `changes` must name exactly the elements the update adds, removes or
 * changes. The removal (the case that used to read "No changes") is then signed and submitted, and
 * the channel's config afterwards lacks the org the diff said it removes. Skipped without binaries.
 */
const bins = await haveFabricBinaries("governance diff e2e");
let harness: FabricApi | undefined;

afterAll(() => harness?.close());

const APP = "channel_group.groups.Application";
const ORD = "channel_group.groups.Orderer";
const P = "/pro/networks/proposals";

describe("proposal diffs on a real channel", () => {
  it.skipIf(!bins)(
    `lists what each operation type changes, a removed org included (Fabric ${VERSION})`,
    { timeout: 300_000 },
    async () => {
      const h = await fabricApi();
      harness = h;
      const { orgs, orderer, net } = await threeOrgChannel(h, {
        msp: "GovDiff",
        name: "Gov Diff",
        channel: "govdiffchannel",
        nodes: "govdiff-o",
      });
      const org4 = orgs[3];
      const propose = async (operations: Json[]): Promise<Json> =>
        h.ok("POST", P, { network_id: net.id, proposal_type: operations[0].type, operations });

      // The removal: the read/write sets hold nothing of the removed org, the diff must.
      const removal = await propose([{ type: "remove_org", payload: { msp_id: "GovDiff3MSP" } }]);
      expect(removal.diff).toEqual([`- ${APP}.groups.GovDiff3MSP`]);
      expect(removal.changes).toEqual([
        {
          kind: "removed",
          path: `${APP}.groups.GovDiff3MSP`,
          before: expect.stringMatching(
            /^group: organization GovDiff3MSP, root CA certificate .*; values MSP; policies Admins, Endorsement, Readers, Writers/,
          ),
        },
      ]);

      const added = await propose([
        {
          type: "add_org",
          payload: { msp_id: "GovDiff4MSP", root_certs: [org4.signCertificate], tls_root_certs: [org4.tlsCertificate] },
        },
      ]);
      expect(added.diff).toEqual([`+ ${APP}.groups.GovDiff4MSP`]);

      const anchors = await propose([
        {
          type: "set_anchor_peers",
          payload: { msp_id: "GovDiff1MSP", anchor_peers: [{ host: "peer0.d1", port: 7051 }] },
        },
      ]);
      expect(anchors.changes).toEqual([
        expect.objectContaining({
          kind: "added",
          path: `${APP}.groups.GovDiff1MSP.values.AnchorPeers`,
          after: expect.stringContaining("anchor_peers: [{host: peer0.d1, port: 7051}]"),
        }),
      ]);

      const batch = await propose([
        { type: "update_batch_size", payload: { max_message_count: 20 } },
        { type: "update_batch_timeout", payload: { timeout: "1s" } },
      ]);
      expect(batch.diff).toEqual([
        expect.stringMatching(new RegExp(`^~ ${ORD}.values.BatchSize.value.max_message_count: \\d+ -> 20$`)),
        `~ ${ORD}.values.BatchTimeout.value.timeout: ${TEST_BATCH_TIMEOUT} -> 1s`,
      ]);

      const policies = await propose([
        {
          type: "update_application_policy",
          payload: { policy_name: "Admins", policy: { type: "ImplicitMeta", rule: "ANY Admins" } },
        },
        {
          type: "update_channel_policy",
          payload: { policy_name: "Readers", policy: { type: "Signature", rule: "OR('GovDiff1MSP.member')" } },
        },
      ]);
      expect(policies.diff).toEqual([
        `~ ${APP}.policies.Admins.policy: MAJORITY Admins -> ANY Admins`,
        `~ channel_group.policies.Readers.policy: ANY Readers -> OR('GovDiff1MSP.member')`,
      ]);

      const consenter = await propose([
        {
          type: "add_consenter",
          payload: {
            host: "orderer9.d.example.com",
            port: 7050,
            client_tls_cert: org4.tlsCertificate,
            server_tls_cert: org4.tlsCertificate,
          },
        },
        { type: "update_etcd_raft_options", payload: { election_tick: 20 } },
      ]);
      expect(consenter.changes).toEqual([
        expect.objectContaining({
          kind: "added",
          path: `${ORD}.values.ConsensusType.value.metadata.consenters[1]`,
          after: expect.stringMatching(/host: orderer9\.d\.example\.com, port: 7050, server_tls_cert: certificate /),
        }),
        expect.objectContaining({
          kind: "changed",
          path: `${ORD}.values.ConsensusType.value.metadata.options.election_tick`,
          before: "10",
          after: "20",
        }),
      ]);

      const msp = await propose([
        {
          type: "update_org_msp",
          payload: { msp_id: "GovDiff1MSP", root_certs: [org4.signCertificate], tls_root_certs: [org4.tlsCertificate] },
        },
      ]);
      const rootCert = msp.changes.find((c: Json) => c.path.endsWith(".values.MSP.value.config.root_certs[0]"));
      expect(rootCert).toMatchObject({
        kind: "changed",
        path: `${APP}.groups.GovDiff1MSP.values.MSP.value.config.root_certs[0]`,
        before: expect.stringMatching(/^certificate .*GovDiff1MSP/),
        after: expect.stringMatching(/^certificate .*GovDiff4MSP/),
      });

      // The removal as the diff said: signed by 2 of 3, submitted, GovDiff3MSP gone from the channel.
      await h.ok("POST", `${P}/${removal.id}/sign`, { msp_id: "GovDiff1MSP" });
      await h.ok("POST", `${P}/${removal.id}/sign`, { msp_id: "GovDiff2MSP" });
      await h.ok("POST", `${P}/${removal.id}/submit`);
      const cfg = (await h.ok("GET", `/networks/fabric/${net.id}/current-channel-config`)).config;
      expect(Object.keys(cfg.channel_group.groups.Application.groups).sort()).toEqual(["GovDiff1MSP", "GovDiff2MSP"]);
      // The submitted proposal still shows what it did (computed from its own config and update).
      expect((await h.ok("GET", `${P}/${removal.id}`)).diff).toEqual([`- ${APP}.groups.GovDiff3MSP`]);
      await h.stopNodes([orderer]);
    },
  );
});
