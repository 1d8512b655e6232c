import { beforeAll, describe, expect, it } from "vitest";
import { buildChannelMsp } from "../msp/index.js";
import { createTestOrg, type TestOrg } from "../test-support/org-fixtures.js";
import { buildGenesisBlock } from "./genesis.js";
import { configFromBlock } from "../deliver.js";
import { blockChannel, channelSummary, consenterAddresses } from "./read.js";

let ord: TestOrg;
let peerOrg: TestOrg;
let tls: string;

beforeAll(async () => {
  ord = await createTestOrg("OrdMSP", "ord.example.com");
  peerOrg = await createTestOrg("PeerMSP", "peer.example.com");
  tls = (await ord.tls("orderer0")).certPem;
});

describe("reading a channel config back", () => {
  it("lists peer and orderer orgs with their TLS CAs and orderer endpoints, and the block's channel", () => {
    const msp = (o: TestOrg, id: string) =>
      buildChannelMsp({ mspId: id, caCertPem: o.ca.certificatePem, tlsCaCertPem: o.tlsCa.certificatePem });
    const block = buildGenesisBlock({
      channelId: "readback",
      fabricVersion: "3.1.0",
      peerOrgs: [{ msp: msp(peerOrg, "PeerMSP") }],
      ordererOrgs: [{ msp: msp(ord, "OrdMSP"), ordererEndpoints: ["orderer0.ord.example.com:7050", "o1:7051"] }],
      consensus: {
        type: "etcdraft",
        consenters: [{ host: "orderer0.ord.example.com", port: 7050, clientTlsCert: tls, serverTlsCert: tls }],
      },
    });
    expect(blockChannel(block)).toEqual({ channelId: "readback", number: 0 });
    const s = channelSummary(configFromBlock(block));
    expect(s.application.map((o) => o.mspId)).toEqual(["PeerMSP"]);
    expect(s.application[0]?.endpoints).toEqual([]);
    expect(s.application[0]?.tlsCaCerts.map((c) => c.trim())).toEqual([peerOrg.tlsCa.certificatePem.trim()]);
    expect(s.orderer).toHaveLength(1);
    expect(s.orderer[0]?.endpoints).toEqual(["orderer0.ord.example.com:7050", "o1:7051"]);
    expect(s.orderer[0]?.tlsCaCerts.map((c) => c.trim())).toEqual([ord.tlsCa.certificatePem.trim()]);
    expect(s.globalOrdererAddresses).toEqual([]);
    expect(s.consensusType).toBe("etcdraft");
  });

  it("lists the consenters as host:port, for etcdraft and for BFT", async () => {
    const msp = buildChannelMsp({
      mspId: "OrdMSP",
      caCertPem: ord.ca.certificatePem,
      tlsCaCertPem: ord.tlsCa.certificatePem,
    });
    const base = {
      channelId: "consenters",
      fabricVersion: "3.1.0",
      peerOrgs: [],
      ordererOrgs: [{ msp, ordererEndpoints: ["o0:7050"] }],
    };
    const raft = buildGenesisBlock({
      ...base,
      consensus: {
        type: "etcdraft",
        consenters: [
          { host: "o0", port: 7050, clientTlsCert: tls, serverTlsCert: tls },
          { host: "o1", port: 7060, clientTlsCert: tls, serverTlsCert: tls },
        ],
      },
    });
    expect(consenterAddresses(configFromBlock(raft))).toEqual(["o0:7050", "o1:7060"]);
    const identity = (await ord.identity("orderer0", "orderer")).certPem;
    const bft = buildGenesisBlock({
      ...base,
      consensus: {
        type: "BFT",
        consenters: [
          { id: 1, host: "o0", port: 7050, mspId: "OrdMSP", identity, clientTlsCert: tls, serverTlsCert: tls },
        ],
      },
    });
    expect(consenterAddresses(configFromBlock(bft))).toEqual(["o0:7050"]);
  });
});
