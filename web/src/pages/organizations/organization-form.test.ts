import { describe, expect, it } from "vitest";
import {
  MSP_ID_PATTERN,
  normalizeSerial,
  revocationReasonLabel,
  splitSans,
  toIdentityIssueVars,
  toOrganizationCreateVars,
} from "@/pages/organizations/organization-form";

describe("organization form", () => {
  it("follows Fabric's MSP id rule", () => {
    expect(MSP_ID_PATTERN.test("Org1MSP")).toBe(true);
    expect(MSP_ID_PATTERN.test("org-1.example")).toBe(true);
    expect(MSP_ID_PATTERN.test("bad msp")).toBe(false);
    expect(MSP_ID_PATTERN.test("")).toBe(false);
    expect(MSP_ID_PATTERN.test("a".repeat(250))).toBe(false);
  });

  it("maps values to the create request, naming the org after its MSP id when no name is given", () => {
    expect(toOrganizationCreateVars({ mspId: " Org1MSP ", name: "", description: "", providerId: "" })).toEqual({
      mspId: "Org1MSP",
      name: "Org1MSP",
    });
    expect(
      toOrganizationCreateVars({ mspId: "Org1MSP", name: "Org 1", description: " first ", providerId: "3" }),
    ).toEqual({ mspId: "Org1MSP", name: "Org 1", description: "first", providerId: 3 });
  });
});

describe("identity form", () => {
  it("splits SANs into DNS names and IP addresses", () => {
    expect(splitSans("peer0.org1.example.com, 127.0.0.1\n::1, localhost")).toEqual({
      dnsNames: ["peer0.org1.example.com", "localhost"],
      ipAddresses: ["127.0.0.1", "::1"],
    });
    expect(splitSans("300.1.1.1").dnsNames).toEqual(["300.1.1.1"]);
  });

  it("maps values to the issue request", () => {
    expect(toIdentityIssueVars(7, { name: " peer0 ", description: "", role: "peer", sans: "peer0, 10.0.0.5" })).toEqual(
      { organizationId: 7, name: "peer0", role: "peer", dnsNames: ["peer0"], ipAddresses: ["10.0.0.5"] },
    );
    expect(toIdentityIssueVars(7, { name: "u", description: "x", role: "client", sans: "" })).toEqual({
      organizationId: 7,
      name: "u",
      role: "client",
      description: "x",
    });
  });
});

describe("revocation helpers", () => {
  it("normalizes serials as openssl and browsers print them", () => {
    expect(normalizeSerial(" 0x68:7D:92 ")).toBe("687d92");
    expect(normalizeSerial("687D 92")).toBe("687d92");
  });

  it("labels reason codes", () => {
    expect(revocationReasonLabel(1)).toBe("Key compromise");
    expect(revocationReasonLabel(9)).toBe("Privilege withdrawn");
    expect(revocationReasonLabel(42)).toBe("Reason 42");
  });
});
