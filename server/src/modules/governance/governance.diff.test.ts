import { common } from "@hyperledger/fabric-protos";
import { beforeAll, describe, expect, it } from "vitest";
import {
  addApplicationOrg,
  addRaftConsenter,
  buildChannelConfig,
  cloneConfig,
  computeConfigUpdate,
  configToJson,
  encodePolicy,
  removeApplicationOrg,
  removeOrdererOrg,
  removeRaftConsenter,
  setAnchorPeers,
  setBatchSize,
  setBatchTimeout,
  setEtcdRaftOptions,
} from "../../fabric/configtx/index.js";
import { buildChannelMsp } from "../../fabric/msp/index.js";
import { createTestOrg, type TestOrg } from "../../fabric/test-support/org-fixtures.js";
import { changeLines, configChanges, proposedConfigJson } from "./governance.diff.js";

let o1: TestOrg;
let o2: TestOrg;
let o3: TestOrg;
let base: common.Config;
let tls3 = "";

const msp = (o: TestOrg) =>
  buildChannelMsp({ mspId: o.mspId, caCertPem: o.ca.certificatePem, tlsCaCertPem: o.tlsCa.certificatePem });
const G = "channel_group.groups";

beforeAll(async () => {
  [o1, o2, o3] = await Promise.all([
    createTestOrg("Org1MSP", "org1.example.com"),
    createTestOrg("Org2MSP", "org2.example.com"),
    createTestOrg("Org3MSP", "org3.example.com"),
  ]);
  const t1 = (await o1.tls("orderer0")).certPem;
  const t2 = (await o2.tls("orderer1")).certPem;
  tls3 = (await o3.tls("orderer2")).certPem;
  base = buildChannelConfig({
    channelId: "diffchannel",
    peerOrgs: [{ msp: msp(o1) }, { msp: msp(o2) }],
    ordererOrgs: [
      { msp: msp(o1), ordererEndpoints: ["orderer0:7050"] },
      { msp: msp(o2), ordererEndpoints: ["orderer1:7050"] },
    ],
    consensus: {
      type: "etcdraft",
      consenters: [
        { host: "orderer0", port: 7050, clientTlsCert: t1, serverTlsCert: t1 },
        { host: "orderer1", port: 7050, clientTlsCert: t2, serverTlsCert: t2 },
      ],
    },
  });
  // As on a live channel, versions above 0 after earlier updates.
  base.getChannelGroup()?.setVersion(2);
  base.getChannelGroup()?.getGroupsMap().get("Application")?.setVersion(1);
});

/** What the diff says an operation changes, computed as a proposal does: update = compute_update(base, edited). */
function diff(edit: (c: common.Config) => common.Config) {
  const edited = edit(cloneConfig(base));
  const update = computeConfigUpdate("diffchannel", base, edited);
  return { changes: configChanges(base, update), lines: changeLines(configChanges(base, update)), edited, update };
}

describe("config update diff", () => {
  it("applying the update to the config gives the edited config (what the orderer will hold)", () => {
    const { edited, update } = diff((c) => setBatchSize(removeApplicationOrg(c, "Org2MSP"), { maxMessageCount: 20 }));
    const strip = (j: unknown): unknown =>
      JSON.parse(JSON.stringify(j, (k, v: unknown) => (k === "version" ? undefined : v)));
    expect(strip(proposedConfigJson(base, update).channel_group)).toEqual(strip(configToJson(edited).channel_group));
  });

  it("a removed organization is listed as removed (the delta alone holds nothing of it)", () => {
    const { changes, lines, update } = diff((c) => removeApplicationOrg(c, "Org2MSP"));
    const readSetOrgs = [...(update.getReadSet()?.getGroupsMap().get("Application")?.getGroupsMap().keys() ?? [])];
    expect(readSetOrgs).not.toContain("Org2MSP");
    expect(lines).toEqual([`- ${G}.Application.groups.Org2MSP`]);
    expect(changes[0]!.before).toMatch(
      /^group: organization Org2MSP, root CA certificate .*CN=ca\.org2\.example\.com.*; values MSP; policies Admins, Endorsement, Readers, Writers/,
    );
  });

  it("an added organization, anchor peers, and a removed orderer org with its endpoints", () => {
    expect(diff((c) => addApplicationOrg(c, { msp: msp(o3) })).lines).toEqual([`+ ${G}.Application.groups.Org3MSP`]);
    const anchors = diff((c) => setAnchorPeers(c, "Org1MSP", [{ host: "peer0.org1", port: 7051 }])).changes;
    expect(anchors).toEqual([
      expect.objectContaining({
        kind: "added",
        path: `${G}.Application.groups.Org1MSP.values.AnchorPeers`,
        after: expect.stringContaining("anchor_peers: [{host: peer0.org1, port: 7051}]"),
      }),
    ]);
    expect(diff((c) => removeOrdererOrg(c, "Org2MSP")).lines).toContain(`- ${G}.Orderer.groups.Org2MSP`);
  });

  it("batch size and timeout as old -> new", () => {
    expect(diff((c) => setBatchTimeout(setBatchSize(c, { maxMessageCount: 20 }), "1s")).lines).toEqual([
      `~ ${G}.Orderer.values.BatchSize.value.max_message_count: 500 -> 20`,
      `~ ${G}.Orderer.values.BatchTimeout.value.timeout: 2s -> 1s`,
    ]);
  });

  it("consenters added and removed, raft options changed", () => {
    const added = diff((c) =>
      addRaftConsenter(c, { host: "orderer2", port: 7050, clientTlsCert: tls3, serverTlsCert: tls3 }),
    ).changes;
    expect(added).toEqual([
      expect.objectContaining({
        kind: "added",
        path: `${G}.Orderer.values.ConsensusType.value.metadata.consenters[2]`,
        after: expect.stringMatching(/host: orderer2, port: 7050, server_tls_cert: certificate .*CN=orderer2 \(sha256/),
      }),
    ]);
    const removed = diff((c) => removeRaftConsenter(c, { host: "orderer0", port: 7050 })).changes;
    expect(removed).toEqual([
      expect.objectContaining({
        kind: "removed",
        path: `${G}.Orderer.values.ConsensusType.value.metadata.consenters[0]`,
        before: expect.stringContaining("host: orderer0"),
      }),
    ]);
    expect(diff((c) => setEtcdRaftOptions(c, { electionTick: 20 })).lines).toEqual([
      `~ ${G}.Orderer.values.ConsensusType.value.metadata.options.election_tick: 10 -> 20`,
    ]);
  });

  it("a changed policy as its rule before and after; capabilities", () => {
    const { lines } = diff((c) => {
      const p = c.getChannelGroup()?.getGroupsMap().get("Application")?.getPoliciesMap().get("Admins");
      p?.setPolicy(encodePolicy({ type: "ImplicitMeta", rule: "ANY Admins" }));
      const e = c.getChannelGroup()?.getGroupsMap().get("Application")?.getGroupsMap().get("Org1MSP");
      e?.getPoliciesMap()
        .get("Writers")
        ?.setPolicy(encodePolicy({ type: "Signature", rule: "OR('Org1MSP.admin', 'Org1MSP.member')" }));
      return c;
    });
    expect(lines).toEqual([
      `~ ${G}.Application.groups.Org1MSP.policies.Writers.policy: OR('Org1MSP.member') -> OR('Org1MSP.admin', 'Org1MSP.member')`,
      `~ ${G}.Application.policies.Admins.policy: MAJORITY Admins -> ANY Admins`,
    ]);
    const caps = diff((c) => {
      const v = c.getChannelGroup()?.getValuesMap().get("Capabilities");
      const cap = common.Capabilities.deserializeBinary(v!.getValue_asU8());
      cap.getCapabilitiesMap().set("V9_9", new common.Capability());
      v?.setValue(cap.serializeBinary());
      return c;
    }).lines;
    expect(caps).toContain(`+ channel_group.values.Capabilities.value.capabilities.V9_9`);
  });
});
