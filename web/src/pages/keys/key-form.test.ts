import { describe, expect, it } from "vitest";
import { KEY_FORM_DEFAULTS, splitList, toCreateKeyBody } from "@/pages/keys/key-form";

describe("toCreateKeyBody", () => {
  it("sends the curve only for EC keys", () => {
    expect(toCreateKeyBody({ ...KEY_FORM_DEFAULTS, name: " val1 ", curve: "secp256k1" })).toEqual({
      name: "val1",
      algorithm: "EC",
      curve: "secp256k1",
    });
    expect(toCreateKeyBody({ ...KEY_FORM_DEFAULTS, name: "e", algorithm: "ED25519", curve: "P-384" })).toEqual({
      name: "e",
      algorithm: "ED25519",
    });
  });

  it("sends the key size only for RSA, and the chosen provider", () => {
    expect(
      toCreateKeyBody({ ...KEY_FORM_DEFAULTS, name: "r", algorithm: "RSA", keySize: "4096", providerId: "2" }),
    ).toEqual({ name: "r", algorithm: "RSA", keySize: 4096, providerId: 2 });
  });

  it("adds a self-signed CA certificate with subject and validity in hours", () => {
    expect(
      toCreateKeyBody({
        ...KEY_FORM_DEFAULTS,
        name: "ca",
        description: "root",
        withCertificate: true,
        commonName: " Acme CA ",
        organization: "Acme, Acme EU",
        organizationalUnit: "",
        validityDays: "365",
      }),
    ).toEqual({
      name: "ca",
      description: "root",
      algorithm: "EC",
      curve: "P-256",
      isCA: 1,
      certificate: {
        commonName: "Acme CA",
        organization: ["Acme", "Acme EU"],
        isCA: true,
        validFor: "8760h",
      },
    });
  });

  it("splits lists on commas and new lines", () => {
    expect(splitList(" a, b\nc,, ")).toEqual(["a", "b", "c"]);
  });
});

describe("labels and filters", () => {
  it("labels key types", async () => {
    const { algorithmLabel, parseTypeFilter } = await import("@/pages/keys/key-form");
    expect(algorithmLabel({ algorithm: "EC", curve: "secp256k1" })).toBe("EC secp256k1");
    expect(algorithmLabel({ algorithm: "RSA", keySize: 4096 })).toBe("RSA 4096");
    expect(algorithmLabel({ algorithm: "ED25519", curve: null })).toBe("ED25519");
    expect(parseTypeFilter("EC:secp256k1")).toEqual({ algorithm: "EC", curve: "secp256k1" });
    expect(parseTypeFilter("RSA")).toEqual({ algorithm: "RSA" });
    expect(parseTypeFilter("all")).toEqual({});
  });
});
