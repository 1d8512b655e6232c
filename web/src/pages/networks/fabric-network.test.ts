import { describe, expect, it } from "vitest";
import {
  anchorPeersOf,
  batchDiff,
  batchOperations,
  batchSettingsOf,
  bftAllowed,
  channelNameError,
  channelOrgRows,
  channelOrgsOf,
  creationOrgRows,
  FABRIC_NETWORK_FORM_DEFAULTS,
  hostPort,
  joinReducer,
  joinSummary,
  networkOrgIds,
  toCreateFabricNetworkBody,
  type JoinRow,
} from "@/pages/networks/fabric-network";

describe("channel name rule", () => {
  it("accepts Fabric channel names", () => {
    for (const n of ["mychannel", "a", "ch-1.test", "a0"]) expect(channelNameError(n)).toBeUndefined();
  });
  it("rejects what Fabric rejects", () => {
    for (const n of ["MyChannel", "1ch", "-a", "ch_1", "ch 1", ".a"]) expect(channelNameError(n)).toMatch(/letter/);
    expect(channelNameError("")).toMatch(/required/);
    expect(channelNameError(`a${"b".repeat(249)}`)).toMatch(/249/);
  });
});

describe("form → POST /networks/fabric", () => {
  it("maps orgs, nodes, consensus and batch settings, without background joins", () => {
    const body = toCreateFabricNetworkBody({
      ...FABRIC_NETWORK_FORM_DEFAULTS,
      name: " mychannel ",
      description: "",
      peerOrgs: [{ orgId: 1, nodeIds: [3, 4] }],
      ordererOrgs: [{ orgId: 2, nodeIds: [5] }],
      batchTimeout: "1s",
      maxMessageCount: "10",
      absoluteMaxBytes: "",
    });
    expect(body).toEqual({
      name: "mychannel",
      joinNodes: false,
      config: {
        peerOrganizations: [{ id: 1, nodeIds: [3, 4] }],
        ordererOrganizations: [{ id: 2, nodeIds: [5] }],
        consensusType: "etcdraft",
        batchTimeout: "1s",
        batchSize: { maxMessageCount: 10 },
      },
    });
  });
  it("omits empty batch settings and keeps the description", () => {
    const body = toCreateFabricNetworkBody({
      ...FABRIC_NETWORK_FORM_DEFAULTS,
      name: "c",
      description: "d",
      consensusType: "BFT",
      batchTimeout: "",
      maxMessageCount: "",
    });
    expect(body.description).toBe("d");
    expect(body.config.consensusType).toBe("BFT");
    expect(body.config).not.toHaveProperty("batchSize");
    expect(body.config).not.toHaveProperty("batchTimeout");
  });
});

describe("BFT availability", () => {
  it("needs every chosen orderer on Fabric 3.x", () => {
    const v = (version: string) => ({ fabricOrderer: { version } }) as never;
    expect(bftAllowed([v("3.1.0"), v("3.0.0")])).toBe(true);
    expect(bftAllowed([v("3.1.0"), v("2.5.12")])).toBe(false);
    expect(bftAllowed([])).toBe(false);
  });
});

describe("join progress", () => {
  const plan = (): JoinRow[] =>
    joinReducer([], {
      type: "plan",
      rows: [
        { nodeId: 1, role: "peer", name: "peer0" },
        { nodeId: 2, role: "orderer", name: "orderer0" },
        { nodeId: 3, role: "peer", name: "peer1" },
      ],
    });

  it("plans orderers first, all pending", () => {
    const rows = plan();
    expect(rows.map((r) => r.name)).toEqual(["orderer0", "peer0", "peer1"]);
    expect(joinSummary(rows)).toEqual({ pending: 3, joining: 0, joined: 0, failed: 0 });
  });

  it("tracks each node and retries only the failed one", () => {
    let rows = plan();
    rows = joinReducer(rows, { type: "joining", nodeId: 2 });
    rows = joinReducer(rows, { type: "joined", nodeId: 2 });
    rows = joinReducer(rows, { type: "joining", nodeId: 1 });
    rows = joinReducer(rows, { type: "failed", nodeId: 1, error: "peer0: connection refused" });
    rows = joinReducer(rows, { type: "joined", nodeId: 3 });
    expect(rows.find((r) => r.nodeId === 1)).toMatchObject({ state: "failed", error: "peer0: connection refused" });
    rows = joinReducer(rows, { type: "joining", nodeId: 1 });
    expect(rows.find((r) => r.nodeId === 1)).toMatchObject({ state: "joining", error: undefined });
    expect(rows.find((r) => r.nodeId === 2)?.state).toBe("joined");
    rows = joinReducer(rows, { type: "joined", nodeId: 1 });
    expect(joinSummary(rows).joined).toBe(3);
  });
});

describe("channel config batch settings", () => {
  const config = (timeout: string, count: number) => ({
    channel_group: {
      groups: {
        Orderer: {
          values: {
            BatchTimeout: { value: { timeout } },
            BatchSize: {
              value: { max_message_count: count, absolute_max_bytes: 10485760, preferred_max_bytes: 2097152 },
            },
          },
        },
      },
    },
  });

  it("reads timeout and size", () => {
    expect(batchSettingsOf(config("2s", 500))).toEqual({
      batchTimeout: "2s",
      maxMessageCount: 500,
      absoluteMaxBytes: 10485760,
      preferredMaxBytes: 2097152,
    });
    expect(batchSettingsOf({ config: config("1s", 1) }).batchTimeout).toBe("1s");
    expect(batchSettingsOf({})).toEqual({});
  });

  it("diffs previous and new values", () => {
    const d = batchDiff(batchSettingsOf(config("2s", 500)), batchSettingsOf(config("3s", 500)));
    expect(d[0]).toEqual({ label: "Batch timeout", before: "2s", after: "3s", changed: true });
    expect(d.filter((r) => r.changed)).toHaveLength(1);
  });

  it("turns only changed settings into operations", () => {
    const cur = batchSettingsOf(config("2s", 500));
    const form = { batchTimeout: "3s", maxMessageCount: "500", absoluteMaxBytes: "", preferredMaxBytes: "" };
    expect(batchOperations(cur, form)).toEqual([{ type: "update_batch_timeout", payload: { timeout: "3s" } }]);
    expect(batchOperations(cur, { ...form, batchTimeout: "2s", maxMessageCount: "20" })).toEqual([
      { type: "update_batch_size", payload: { max_message_count: 20 } },
    ]);
    expect(batchOperations(cur, { ...form, batchTimeout: "2s" })).toEqual([]);
  });
});

describe("hostPort", () => {
  it("splits endpoints", () => {
    expect(hostPort("peer0.org1:7051")).toEqual({ host: "peer0.org1", port: 7051 });
    expect(hostPort("nope")).toBeUndefined();
  });
});

describe("network orgs and anchor peers", () => {
  it("reads org ids from the base64 creation parameters, with or without a config wrapper", () => {
    const cfg = { peerOrganizations: [{ id: 1, nodeIds: [2] }], ordererOrganizations: [{ id: 3 }] };
    expect(networkOrgIds(btoa(JSON.stringify(cfg)))).toEqual({ peer: [1], orderer: [3] });
    expect(networkOrgIds(btoa(JSON.stringify({ name: "c", config: cfg })))).toEqual({ peer: [1], orderer: [3] });
    expect(networkOrgIds("not base64 json")).toEqual({ peer: [], orderer: [] });
  });

  it("reads an org's anchor peers from configtxlator JSON", () => {
    const config = {
      channel_group: {
        groups: {
          Application: {
            groups: { Org1MSP: { values: { AnchorPeers: { value: { anchor_peers: [{ host: "p0", port: 7051 }] } } } } },
          },
        },
      },
    };
    expect(anchorPeersOf(config, "Org1MSP")).toEqual([{ host: "p0", port: 7051 }]);
    expect(anchorPeersOf(config, "Org2MSP")).toEqual([]);
  });
});

describe("channel orgs from the current channel config", () => {
  const msp = (name: string) => ({ values: { MSP: { value: { config: { name } } } } });
  const config = {
    channel_group: {
      groups: {
        Application: { groups: { Org2MSP: msp("Org2MSP"), Org1MSP: msp("Org1MSP"), OldName: msp("Org3MSP") } },
        Orderer: { groups: { OrdererMSP: msp("OrdererMSP"), Org1MSP: msp("Org1MSP") } },
      },
    },
  };

  it("lists peer and orderer MSP IDs, preferring the MSP's own name over the group key", () => {
    expect(channelOrgsOf(config)).toEqual({
      peer: ["Org1MSP", "Org2MSP", "Org3MSP"],
      orderer: ["OrdererMSP", "Org1MSP"],
    });
    expect(channelOrgsOf({ config })).toEqual(channelOrgsOf(config));
  });

  it("falls back to the group key and tolerates missing sections", () => {
    expect(channelOrgsOf({ channel_group: { groups: { Application: { groups: { Org1MSP: {} } } } } })).toEqual({
      peer: ["Org1MSP"],
      orderer: [],
    });
    expect(channelOrgsOf(undefined)).toEqual({ peer: [], orderer: [] });
    expect(channelOrgsOf({ channel_group: { groups: { Orderer: { groups: [] } } } })).toEqual({
      peer: [],
      orderer: [],
    });
  });

  it("matches orgs by MSP ID and keeps the ones this console does not hold", () => {
    const rows = channelOrgRows(channelOrgsOf(config), [
      { id: 1, mspId: "Org1MSP" },
      { id: 9, mspId: "OrdererMSP" },
      { id: 7, mspId: "NotInChannelMSP" },
    ]);
    expect(rows).toEqual([
      { mspId: "OrdererMSP", orgId: 9, peer: false, orderer: true },
      { mspId: "Org1MSP", orgId: 1, peer: true, orderer: true },
      { mspId: "Org2MSP", peer: true, orderer: false },
      { mspId: "Org3MSP", peer: true, orderer: false },
    ]);
  });

  it("builds fallback rows from the creation request's org ids", () => {
    const held = [
      { id: 1, mspId: "Org1MSP" },
      { id: 2, mspId: "OrdererMSP" },
      { id: 3, mspId: "Other" },
    ];
    expect(creationOrgRows({ peer: [1], orderer: [2] }, held)).toEqual([
      { mspId: "Org1MSP", orgId: 1, peer: true, orderer: false },
      { mspId: "OrdererMSP", orgId: 2, peer: false, orderer: true },
    ]);
    expect(creationOrgRows({ peer: [], orderer: [] }, held)).toEqual([]);
  });

  it("reads anchor peers of an org whose group key differs from its MSP ID", () => {
    const c = {
      channel_group: {
        groups: {
          Application: {
            groups: {
              Org1: {
                values: {
                  MSP: { value: { config: { name: "Org1MSP" } } },
                  AnchorPeers: { value: { anchor_peers: [{ host: "p0", port: 7051 }] } },
                },
              },
            },
          },
        },
      },
    };
    expect(anchorPeersOf(c, "Org1MSP")).toEqual([{ host: "p0", port: 7051 }]);
  });
});
