import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { colonHex, decodeCertificate, ekuName, keyUsageNames } from "@/lib/certificates/decode";

/** A peer identity our server issued (EC P-256, OU peer, DNS and IP SANs); openssl agrees with every field below. */
const PEER = readFileSync(new URL("./__fixtures__/peer.pem", import.meta.url), "utf8");

describe("decodeCertificate", () => {
  // decode loads @peculiar/x509 on first use; load it here, under the hook's longer timeout, so the
  // tests time the decoding (CI at load 6 spent 5.7 s of the first test transforming the library).
  beforeAll(() => import("@peculiar/x509"), 60_000);

  it("reads subject, issuer, serial, validity, SANs and extensions", async () => {
    const c = await decodeCertificate(PEER);
    expect(c.subject).toBe("O=Org1MSP, OU=peer, CN=peer0");
    expect(c.issuer).toBe("O=Org1MSP, CN=ca.Org1MSP");
    expect(c.serialNumber).toBe("687d92927face3808dd8fe8db5833719");
    expect(c.notBefore.toISOString()).toBe("2026-11-22T05:08:44.000Z");
    expect(c.notAfter.toISOString()).toBe("2027-11-22T05:13:44.000Z");
    expect(c.sans).toEqual(["DNS: peer0.org1", "IP: 127.0.0.1"]);
    expect(c.keyUsages).toEqual(["Digital Signature"]);
    expect(c.extendedKeyUsages).toEqual([]);
    expect(c.isCA).toBe(false);
    expect(c.subjectKeyId).toBe("710a6bf7036e896d6e64378f982cebf0287712da");
    expect(c.authorityKeyId).toBe("2b9b4cb5ab5ddf82aa4ca58b2b8d097f090b7b1e");
    expect(c.selfSigned).toBe(false);
    expect(c.publicKeyAlgorithm).toBe("ECDSA P-256");
  });

  it("rejects text that is not a certificate", async () => {
    await expect(decodeCertificate("-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----")).rejects.toThrow(
      "not a valid PEM certificate",
    );
  });
});

describe("helpers", () => {
  it("names key usages and EKUs", () => {
    expect(keyUsageNames(1 | 32 | 64)).toEqual(["Digital Signature", "Certificate Sign", "CRL Sign"]);
    expect(ekuName("1.3.6.1.5.5.7.3.1")).toBe("TLS Server Authentication");
    expect(ekuName("1.2.3")).toBe("1.2.3");
    expect(colonHex("0a1b2c")).toBe("0A:1B:2C");
  });
});
