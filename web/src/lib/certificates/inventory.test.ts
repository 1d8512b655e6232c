import { describe, expect, it } from "vitest";
import {
  assignLanes,
  collectCertificates,
  sortByExpiry,
  timelinePercent,
  type InventoryEntry,
  type InventoryInput,
} from "@/lib/certificates/inventory";

// Collection compares PEM text only, so stand-in bodies are enough here; decoding has its own tests.
const pem = (body: string): string => `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;

const fabric = (n: string) => ({
  mspId: "Org1MSP",
  signCert: pem(`${n}-sign`),
  tlsCert: pem(`${n}-tls`),
  signCaCert: pem("ca-sign"),
  tlsCaCert: pem("ca-tls"),
});

function input(over: Partial<InventoryInput> = {}): InventoryInput {
  return {
    nodes: [
      { id: 1, name: "peer0", fabricPeer: fabric("peer0") as never },
      { id: 2, name: "orderer0", fabricOrderer: fabric("orderer0") as never },
      { id: 3, name: "besu0" },
    ],
    organizations: [{ id: 7, mspId: "Org1MSP", signCertificate: pem("ca-sign"), tlsCertificate: pem("ca-tls") }],
    keys: [
      { id: 10, name: "Org1MSP-sign-ca", certificate: pem("ca-sign"), signingKeyID: null },
      { id: 11, name: "peer0-sign", certificate: `  ${pem("peer0-sign")}`, signingKeyID: 10 },
      { id: 12, name: "admin", certificate: pem("admin"), signingKeyID: 10 },
      { id: 13, name: "loose", certificate: pem("loose"), signingKeyID: null },
      { id: 14, name: "no-cert", certificate: null, signingKeyID: null },
    ],
    ...over,
  };
}

describe("collectCertificates", () => {
  it("lists each certificate once, named by the most specific owner", () => {
    const out = collectCertificates(input());
    expect(out.map((c) => [c.what, c.owner.label, c.owner.href])).toEqual([
      ["Node signing certificate", "peer0", "/nodes/1"],
      ["Node TLS certificate", "peer0", "/nodes/1"],
      ["Node signing certificate", "orderer0", "/nodes/2"],
      ["Node TLS certificate", "orderer0", "/nodes/2"],
      ["Signing CA", "Org1MSP", "/organizations/7"],
      ["TLS CA", "Org1MSP", "/organizations/7"],
      ["Identity admin", "Org1MSP", "/organizations/7"],
      ["Key loose", "loose", "/settings/keys/13"],
    ]);
  });

  it("keeps a node's CA copies when the organization is not listed", () => {
    const out = collectCertificates(input({ organizations: [], keys: [] }));
    expect(out.filter((c) => c.what.includes("CA of Org1MSP")).map((c) => c.owner.label)).toEqual(["peer0", "peer0"]);
  });

  it("ignores text that is not a PEM certificate", () => {
    const out = collectCertificates({
      nodes: [],
      organizations: [],
      keys: [{ id: 1, name: "k", certificate: "x", signingKeyID: null }],
    });
    expect(out).toEqual([]);
  });
});

const entry = (id: string, notAfter: string, label = "o"): InventoryEntry => ({
  id,
  what: "w",
  owner: { label, href: "/" },
  pem: "",
  subject: "",
  notBefore: new Date("2020-01-01"),
  notAfter: new Date(notAfter),
});

describe("sortByExpiry", () => {
  it("puts the soonest expiry first, ties by owner", () => {
    const out = sortByExpiry([entry("a", "2030-01-01"), entry("b", "2027-01-01", "z"), entry("c", "2027-01-01", "a")]);
    expect(out.map((e) => e.id)).toEqual(["c", "b", "a"]);
  });
});

describe("timelinePercent", () => {
  const now = new Date("2026-01-01T00:00:00Z");
  const end = new Date("2036-01-01T00:00:00Z");
  it("maps now..end to 0..100 and clamps", () => {
    expect(timelinePercent(now, now, end)).toBe(0);
    expect(timelinePercent(end, now, end)).toBe(100);
    expect(timelinePercent(new Date("2031-01-01T12:00:00Z"), now, end)).toBeCloseTo(50, 0);
    expect(timelinePercent(new Date("2020-01-01"), now, end)).toBe(0);
    expect(timelinePercent(end, now, now)).toBe(0);
  });
});

describe("assignLanes", () => {
  it("stacks markers that are too close and reuses lanes once there is room", () => {
    expect(assignLanes([0, 1, 2, 10, 10.5], 3, 3)).toEqual([0, 1, 2, 0, 1]);
  });
  it("puts the overflow in the last lane", () => {
    expect(assignLanes([5, 5, 5, 5], 1, 2)).toEqual([0, 1, 1, 1]);
  });
});
