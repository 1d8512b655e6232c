import { describe, expect, it } from "vitest";
import {
  base64BlockError,
  blockFileToBase64,
  isAlreadyJoined,
  ordererUrlError,
  pemCertificateError,
} from "@/pages/networks/fabric-import";

describe("fabric import form rules", () => {
  it("accepts host:port and grpcs:// orderer URLs only", () => {
    for (const ok of ["orderer0.example.com:7050", "grpcs://127.0.0.1:7050", "https://o:443", "[::1]:7050"]) {
      expect(ordererUrlError(ok), ok).toBeUndefined();
    }
    expect(ordererUrlError("orderer.example.com")).toMatch(/Expected host:port/);
    expect(ordererUrlError("grpc://o:7050")).toMatch(/grpc:\/\/ is not supported/);
    expect(ordererUrlError("o:70000")).toMatch(/1-65535/);
  });

  it("wants a PEM certificate", () => {
    expect(pemCertificateError("")).toMatch(/Paste or choose/);
    expect(pemCertificateError("MIIB...")).toMatch(/Expected a PEM/);
    expect(pemCertificateError("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")).toBeUndefined();
  });

  it("encodes binary block files and keeps base64 text files as they are", () => {
    const binary = new Uint8Array([0x0a, 0x00, 0xff, 0x12, 0x80]);
    expect(blockFileToBase64(binary)).toBe("CgD/EoA=");
    expect(blockFileToBase64(new TextEncoder().encode("CgD/\nEoA=\n"))).toBe("CgD/EoA=");
    const big = new Uint8Array(100_000).map((_, i) => i % 251);
    expect(atob(blockFileToBase64(big)).length).toBe(100_000);
  });

  it("checks pasted base64 and recognises an already-joined node", () => {
    expect(base64BlockError("")).toMatch(/Choose the block file/);
    expect(base64BlockError("not base64!")).toMatch(/not base64/);
    expect(base64BlockError("CgD/\nEoA=")).toBeUndefined();
    expect(isAlreadyJoined("peer 'p0' has already joined channel 'c'")).toBe(true);
    expect(isAlreadyJoined("peer 'p0' is STOPPED")).toBe(false);
  });
});
