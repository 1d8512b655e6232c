import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { buildConnectionProfile, renderConnectionProfile } from "./connection-profile.js";

const CA = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----";

describe("connection profile", () => {
  const profile = buildConnectionProfile({
    name: "ch-Org1MSP",
    channel: "ch",
    mspId: "Org1MSP",
    adminCertPem: CA,
    adminKeyPath: "/data/exports/Org1MSP-admin-network-config/msp/keystore/key.pem",
    peers: [{ name: "peer0", address: "peer0.org1.example.com:7051", tlsCaPem: CA }],
    orgOrderers: [],
    orderers: [
      { name: "orderer0", address: "127.0.0.1:7050", tlsCaPem: CA },
      { name: "[::1]:7060", address: "[::1]:7060", tlsCaPem: `${CA}\n${CA}\n` },
    ],
  });

  it("names the admin key by path and inlines only certificates", () => {
    const yaml = renderConnectionProfile(profile);
    const back = parse(yaml) as Record<string, never>;
    expect(back).toEqual(profile);
    expect(back.organizations).toEqual({
      Org1MSP: {
        mspid: "Org1MSP",
        peers: ["peer0"],
        users: {
          admin: {
            cert: { pem: `${CA}\n` },
            key: { path: "/data/exports/Org1MSP-admin-network-config/msp/keystore/key.pem" },
          },
        },
      },
    });
    // PEMs are literal blocks, readable and unchanged.
    expect(yaml).toMatch(/pem: \|\n\s+-----BEGIN CERTIFICATE-----\n\s+MIIB\n/);
  });

  it("gives each node a grpcs URL, its TLS CAs and the dialled host as the TLS name", () => {
    expect(profile.peers).toEqual({
      peer0: {
        url: "grpcs://peer0.org1.example.com:7051",
        grpcOptions: {
          "ssl-target-name-override": "peer0.org1.example.com",
          hostnameOverride: "peer0.org1.example.com",
          "allow-insecure": false,
        },
        tlsCACerts: { pem: `${CA}\n` },
      },
    });
    const orderers = profile.orderers as Record<string, { url: string; grpcOptions: Record<string, unknown> }>;
    expect(orderers["[::1]:7060"]?.url).toBe("grpcs://[::1]:7060");
    expect(orderers["[::1]:7060"]?.grpcOptions.hostnameOverride).toBe("::1");
    expect(profile.channels).toEqual({
      ch: {
        orderers: ["orderer0", "[::1]:7060"],
        peers: {
          peer0: { endorsingPeer: true, chaincodeQuery: true, ledgerQuery: true, eventSource: true, discover: true },
        },
      },
    });
  });

  it("lists an org's own orderers under it", () => {
    const p = buildConnectionProfile({
      name: "ch-OrdMSP",
      channel: "ch",
      mspId: "OrdMSP",
      adminCertPem: CA,
      adminKeyPath: "/k",
      peers: [],
      orgOrderers: ["orderer0"],
      orderers: [{ name: "orderer0", address: "127.0.0.1:7050", tlsCaPem: CA }],
    });
    expect(p.organizations).toMatchObject({ OrdMSP: { peers: [], orderers: ["orderer0"] } });
    expect(p.peers).toEqual({});
  });
});
