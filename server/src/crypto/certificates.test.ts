import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes, X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeCertificate, parseCertificate } from "./certificate-decoder.js";
import {
  createCsr,
  createSelfSignedCertificate,
  issueCertificate,
  parseDuration,
  type Issuer,
} from "./certificates.js";
import { createCrl, normaliseSerialNumber } from "./crl.js";
import { CryptoInputError } from "./errors.js";
import { generateKeyPair, isLowS, subjectKeyIdentifier, type KeyPair, type KeySpec } from "./key-algorithms.js";
import { localSigner } from "./signer.js";

const OPENSSL = "/usr/bin/openssl";
const dir = mkdtempSync(join(tmpdir(), "cl-certs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const p = join(dir, `${randomBytes(3).toString("hex")}-${name}`);
  writeFileSync(p, content);
  return p;
}
function openssl(args: string[]): string {
  return execFileSync(OPENSSL, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}
/** Runs openssl without throwing; returns exit status and combined output. */
function opensslStatus(args: string[]): { status: number | null; out: string } {
  const r = spawnSync(OPENSSL, args, { encoding: "utf8" });
  return { status: r.status, out: r.stdout + r.stderr };
}
const days = (n: number): Date => new Date(Date.now() + n * 86_400_000);
function expectInputError(fn: () => unknown, field: string): void {
  try {
    fn();
    expect.unreachable();
  } catch (err) {
    expect(err).toBeInstanceOf(CryptoInputError);
    expect((err as CryptoInputError).field).toBe(field);
  }
}
async function expectInputErrorAsync(p: Promise<unknown>, field: string): Promise<void> {
  await expect(p).rejects.toBeInstanceOf(CryptoInputError);
  await p.catch((err: CryptoInputError) => expect(err.field).toBe(field));
}

async function makeCa(
  spec: KeySpec,
  cn = "ca.org1.example.com",
): Promise<{ kp: KeyPair; issuer: Issuer; pem: string }> {
  const kp = await generateKeyPair(spec);
  const signer = localSigner(kp.privateKey);
  const ca = await createSelfSignedCertificate({
    signer,
    subject: { commonName: cn, organization: ["Org1MSP"], country: ["US"], locality: ["Durham"] },
    validity: { notAfter: days(3650) },
  });
  return { kp, issuer: { certificatePem: ca.pem, signer }, pem: ca.pem };
}

describe("self-signed CA", () => {
  it("is a CA with SKI and key usages that openssl accepts", async () => {
    const { kp, pem } = await makeCa({ algorithm: "EC", curve: "P-256" });
    const caFile = file("ca.pem", pem);
    const text = openssl(["x509", "-in", caFile, "-noout", "-text"]);
    expect(text).toMatch(/CA:TRUE/);
    expect(text).toMatch(/Digital Signature, Certificate Sign, CRL Sign/);
    expect(text).toMatch(/X509v3 Subject Key Identifier/);
    expect(text).toContain("ecdsa-with-SHA256");
    const ski = subjectKeyIdentifier(kp.publicKey).toUpperCase().match(/../g)?.join(":");
    expect(text).toContain(ski);
    expect(openssl(["verify", "-CAfile", caFile, caFile])).toContain("OK");
  });
});

describe("issued identities", () => {
  let ca: Awaited<ReturnType<typeof makeCa>>;
  beforeAll(async () => {
    ca = await makeCa({ algorithm: "EC", curve: "P-256" });
  });

  it("carries OU, SANs, key usages, TLS EKU, SKI/AKI and verifies against the CA", async () => {
    const leafKey = await generateKeyPair({ algorithm: "EC", curve: "P-256" });
    const leaf = await issueCertificate({
      issuer: ca.issuer,
      publicKey: leafKey.publicKey,
      subject: { commonName: "peer0.org1.example.com", organizationalUnit: ["peer"], organization: ["Org1MSP"] },
      sans: {
        dnsNames: ["peer0.org1.example.com", "localhost"],
        ipAddresses: ["127.0.0.1", "::1"],
        uris: ["spiffe://org1/peer0"],
        emailAddresses: ["ops@org1.example.com"],
      },
      extKeyUsage: ["serverAuth", "clientAuth"],
      validity: { notAfter: days(365) },
    });
    const caFile = file("ca.pem", ca.pem);
    const leafFile = file("leaf.pem", leaf.pem);
    expect(openssl(["verify", "-CAfile", caFile, leafFile]).trim()).toBe(`${leafFile}: OK`);
    const text = openssl(["x509", "-in", leafFile, "-noout", "-text"]);
    expect(text).toMatch(/Subject: .*OU = peer.*CN = peer0\.org1\.example\.com/);
    expect(text).toContain(
      "DNS:peer0.org1.example.com, DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1",
    );
    expect(text).toContain("URI:spiffe://org1/peer0");
    expect(text).toContain("email:ops@org1.example.com");
    expect(text).toMatch(/X509v3 Key Usage: critical\s*\n\s*Digital Signature\s*\n/);
    expect(text).toContain("TLS Web Server Authentication, TLS Web Client Authentication");
    expect(text).toMatch(/CA:FALSE/);
    const caSki = subjectKeyIdentifier(ca.kp.publicKey).toUpperCase().match(/../g)?.join(":") ?? "";
    expect(text).toMatch(new RegExp(`Authority Key Identifier:\\s*\\n\\s*(keyid:)?${caSki}`));

    const decoded = decodeCertificate(leaf.pem);
    expect(decoded.subject.organizationalUnit).toEqual(["peer"]);
    expect(decoded.subject.commonName).toBe("peer0.org1.example.com");
    expect(decoded.issuer.commonName).toBe("ca.org1.example.com");
    expect(decoded.sans.dnsNames).toEqual(["peer0.org1.example.com", "localhost"]);
    expect(decoded.sans.ipAddresses).toContain("127.0.0.1");
    expect(decoded.keyUsages).toEqual(["digitalSignature"]);
    expect(decoded.extKeyUsages).toEqual(["serverAuth", "clientAuth"]);
    expect(decoded.isCA).toBe(false);
    expect(decoded.subjectKeyId).toBe(leaf.subjectKeyId);
    expect(decoded.authorityKeyId).toBe(subjectKeyIdentifier(ca.kp.publicKey));
    expect(decoded.serialNumber).toBe(leaf.serialNumber);
    expect(decoded.publicKey).toEqual({ algorithm: "EC", curve: "P-256" });
    const serialText = /Serial Number:\s*\n?\s*([0-9a-f:]+)/.exec(text)?.[1]?.replace(/:/g, "");
    expect(serialText).toBe(leaf.serialNumber);
    expect(parseInt(leaf.serialNumber.slice(0, 2), 16)).toBeLessThan(0x80);
    expect(decoded.sans.ipAddresses).toEqual(["127.0.0.1", "::1"]);
    expect(decoded.sans.uris).toEqual(["spiffe://org1/peer0"]);
    expect(decoded.sans.emailAddresses).toEqual(["ops@org1.example.com"]);
    expect(decoded.signatureAlgorithm).toBe("SHA-256 with ECDSA");
    expect(decoded.extensions.map((e) => [e.oid, e.critical])).toEqual([
      ["2.5.29.19", true],
      ["2.5.29.15", true],
      ["2.5.29.14", false],
      ["2.5.29.35", false],
      ["2.5.29.37", false],
      ["2.5.29.17", false],
    ]);
    // Our DER reader agrees with OpenSSL's parse (node's X509Certificate) on names, dates and digest.
    const node = new X509Certificate(leaf.pem);
    expect(decoded.subject.text).toBe(node.subject.split("\n").join(", "));
    expect(decoded.issuer.text).toBe(node.issuer.split("\n").join(", "));
    expect(decoded.selfSigned).toBe(false);
    expect(new Date(decoded.notAfter).getTime()).toBe(new Date(node.validTo).getTime());
    expect(decoded.sha256Fingerprint).toBe(node.fingerprint256.replace(/:/g, "").toLowerCase());
    expect(decodeCertificate(ca.pem).selfSigned).toBe(true);
    expect(leaf.pem).toMatch(/^-----BEGIN CERTIFICATE-----\n([A-Za-z0-9+/=]{1,64}\n)+-----END CERTIFICATE-----\n$/);
    expect(decodeCertificate(ca.pem).keyUsages).toEqual(["digitalSignature", "keyCertSign", "cRLSign"]);
  });

  it("signs certificates with low-S ECDSA (Fabric rejects high S)", async () => {
    const leafKey = await generateKeyPair({ algorithm: "EC", curve: "P-256" });
    for (let i = 0; i < 10; i++) {
      const leaf = await issueCertificate({
        issuer: ca.issuer,
        publicKey: leafKey.publicKey,
        subject: { commonName: `user${i}`, organizationalUnit: ["client"] },
        validity: { notAfter: days(30) },
      });
      expect(isLowS("P-256", new Uint8Array(parseCertificate(leaf.pem).signature))).toBe(true);
    }
  });

  it("adds keyEncipherment for RSA subjects and can issue an intermediate CA", async () => {
    const rsa = await generateKeyPair({ algorithm: "RSA", keySize: 2048 });
    const leaf = await issueCertificate({
      issuer: ca.issuer,
      publicKey: rsa.publicKey,
      subject: { commonName: "rsa-user" },
      validity: { notAfter: days(30) },
    });
    expect(decodeCertificate(leaf.pem).keyUsages).toEqual(["digitalSignature", "keyEncipherment"]);

    const interKey = await generateKeyPair({ algorithm: "EC", curve: "P-256" });
    const inter = await issueCertificate({
      issuer: ca.issuer,
      publicKey: interKey.publicKey,
      subject: { commonName: "intermediate" },
      isCA: true,
      validity: { notAfter: days(300) },
    });
    const grandchildKey = await generateKeyPair({ algorithm: "EC", curve: "P-256" });
    const grandchild = await issueCertificate({
      issuer: { certificatePem: inter.pem, signer: localSigner(interKey.privateKey) },
      publicKey: grandchildKey.publicKey,
      subject: { commonName: "leaf-under-intermediate", organizationalUnit: ["client"] },
      validity: { notAfter: days(30) },
    });
    const out = openssl([
      "verify",
      "-CAfile",
      file("ca.pem", ca.pem),
      "-untrusted",
      file("i.pem", inter.pem),
      file("g.pem", grandchild.pem),
    ]);
    expect(out).toMatch(/: OK$/m);
  });

  it.each<[string, KeySpec]>([
    ["P-384", { algorithm: "EC", curve: "P-384" }],
    ["P-521", { algorithm: "EC", curve: "P-521" }],
    ["secp256k1", { algorithm: "EC", curve: "secp256k1" }],
    ["Ed25519", { algorithm: "ED25519" }],
    ["RSA 2048", { algorithm: "RSA", keySize: 2048 }],
  ])("a %s CA issues certificates openssl verifies", async (_label, spec) => {
    const other = await makeCa(spec);
    const subjectKey = await generateKeyPair({ algorithm: "EC", curve: "secp256k1" });
    const leaf = await issueCertificate({
      issuer: other.issuer,
      publicKey: subjectKey.publicKey,
      subject: { commonName: "leaf", organizationalUnit: ["admin"] },
      validity: { notAfter: days(10) },
    });
    expect(openssl(["verify", "-CAfile", file("ca.pem", other.pem), file("leaf.pem", leaf.pem)])).toMatch(/: OK$/m);
  });
});

describe("named input errors", () => {
  it("rejects validity in the past, an issuer that is not a CA, a foreign signer, bad SANs", async () => {
    const ca = await makeCa({ algorithm: "EC", curve: "P-256" });
    const key = await generateKeyPair({ algorithm: "EC", curve: "P-256" });
    const base = { issuer: ca.issuer, publicKey: key.publicKey, subject: { commonName: "x" } };
    await expectInputErrorAsync(issueCertificate({ ...base, validity: { notAfter: days(-1) } }), "validity");
    await expectInputErrorAsync(
      createSelfSignedCertificate({
        signer: localSigner(key.privateKey),
        subject: { commonName: "x" },
        validity: { notAfter: days(-2) },
      }),
      "validity",
    );
    await expectInputErrorAsync(
      issueCertificate({ ...base, validity: { notBefore: days(5), notAfter: days(2) } }),
      "validity",
    );
    const leaf = await issueCertificate({ ...base, validity: { notAfter: days(5) } });
    await expectInputErrorAsync(
      issueCertificate({
        ...base,
        issuer: { certificatePem: leaf.pem, signer: localSigner(key.privateKey) },
        validity: { notAfter: days(5) },
      }),
      "issuer",
    );
    await expectInputErrorAsync(
      issueCertificate({
        ...base,
        issuer: { certificatePem: ca.pem, signer: localSigner(key.privateKey) },
        validity: { notAfter: days(5) },
      }),
      "issuer",
    );
    await expectInputErrorAsync(
      issueCertificate({ ...base, sans: { ipAddresses: ["300.1.1.1"] }, validity: { notAfter: days(5) } }),
      "ipAddresses",
    );
    await expectInputErrorAsync(
      issueCertificate({ ...base, sans: { dnsNames: ["bad name"] }, validity: { notAfter: days(5) } }),
      "dnsNames",
    );
    await expectInputErrorAsync(
      issueCertificate({ ...base, subject: { commonName: "" }, validity: { notAfter: days(5) } }),
      "commonName",
    );
  });

  it("parses Go-style durations", () => {
    expect(parseDuration("8760h")).toBe(365 * 86_400_000);
    expect(parseDuration("1h30m")).toBe(90 * 60_000);
    expect(parseDuration("10y")).toBe(3650 * 86_400_000);
    expectInputError(() => parseDuration("forever"), "validFor");
    expectInputError(() => parseDuration("-5h"), "validFor");
    expectInputError(() => parseDuration(""), "validFor");
  });
});

describe("CRL", () => {
  it("is signed by the CA, lists revoked serials, and makes openssl reject revoked certs", async () => {
    const ca = await makeCa({ algorithm: "EC", curve: "P-256" });
    const key = await generateKeyPair({ algorithm: "EC", curve: "P-256" });
    const issue = (cn: string): ReturnType<typeof issueCertificate> =>
      issueCertificate({
        issuer: ca.issuer,
        publicKey: key.publicKey,
        subject: { commonName: cn, organizationalUnit: ["client"] },
        validity: { notAfter: days(30) },
      });
    const revokedCert = await issue("revoked");
    const goodCert = await issue("good");
    const revokedAt = new Date(Date.now() - 60_000);
    const crl = await createCrl({
      issuer: ca.issuer,
      revoked: [
        { serialNumber: revokedCert.serialNumber, revocationDate: revokedAt, reason: 1 },
        { serialNumber: "0x0ABCDEF", revocationDate: revokedAt },
      ],
      crlNumber: 7,
      nextUpdate: days(7),
    });
    expect(crl.pem).toMatch(/^-----BEGIN X509 CRL-----/);
    const crlFile = file("crl.pem", crl.pem);
    const caFile = file("ca.pem", ca.pem);
    const text = openssl(["crl", "-in", crlFile, "-noout", "-text"]);
    expect(text).toContain(`Serial Number: ${revokedCert.serialNumber.toUpperCase()}`);
    expect(text).toContain("Serial Number: ABCDEF");
    expect(text).toMatch(/X509v3 CRL Number:\s*\n\s*7/);
    expect(text).toContain("Key Compromise");
    expect(text).toMatch(/Authority Key Identifier/);
    expect(text).toContain("Next Update:");
    expect(opensslStatus(["crl", "-in", crlFile, "-noout", "-CAfile", caFile]).out).toContain("verify OK");

    const bad = opensslStatus([
      "verify",
      "-crl_check",
      "-CAfile",
      caFile,
      "-CRLfile",
      crlFile,
      file("r.pem", revokedCert.pem),
    ]);
    expect(bad.status).not.toBe(0);
    expect(bad.out).toContain("certificate revoked");
    const ok = opensslStatus([
      "verify",
      "-crl_check",
      "-CAfile",
      caFile,
      "-CRLfile",
      crlFile,
      file("g.pem", goodCert.pem),
    ]);
    expect(ok.out).toMatch(/: OK/);
    expect(ok.status).toBe(0);
  });

  it("normalises serial numbers", () => {
    expect(normaliseSerialNumber("0x00:1B:cd")).toBe("1bcd");
    expect(normaliseSerialNumber("AB:CD")).toBe("00abcd");
    expect(normaliseSerialNumber("fff")).toBe("0fff");
    expect(normaliseSerialNumber("80")).toBe("0080");
    expectInputError(() => normaliseSerialNumber("xyz"), "serialNumber");
    expectInputError(() => normaliseSerialNumber("000"), "serialNumber");
  });
});

describe("certificate requests (PKCS#10)", () => {
  it.each<[string, KeySpec]>([
    ["P-256", { algorithm: "EC", curve: "P-256" }],
    ["P-384", { algorithm: "EC", curve: "P-384" }],
    ["RSA 2048", { algorithm: "RSA", keySize: 2048 }],
    ["Ed25519", { algorithm: "ED25519" }],
  ])("openssl verifies a %s request and reads its subject and SANs", async (_name, spec) => {
    const kp = await generateKeyPair(spec);
    const pem = await createCsr({
      signer: localSigner(kp.privateKey),
      subject: { commonName: "peer0.org1.example.com", organization: ["Org1MSP"], organizationalUnit: ["peer"] },
      sans: { dnsNames: ["peer0.org1.example.com", "localhost"], ipAddresses: ["127.0.0.1"] },
    });
    const out = openssl(["req", "-in", file("req.pem", pem), "-noout", "-verify", "-text"]);
    expect(out).toMatch(/O\s*=\s*Org1MSP, OU\s*=\s*peer, CN\s*=\s*peer0\.org1\.example\.com/);
    expect(out).toContain("DNS:peer0.org1.example.com, DNS:localhost, IP Address:127.0.0.1");
    const signatureOk = opensslStatus(["req", "-in", file("req.pem", pem), "-noout", "-verify"]);
    expect(signatureOk.out).toMatch(/verify OK|Certificate request self-signature verify OK/);
  });

  it("leaves the attributes empty without SANs", async () => {
    const kp = await generateKeyPair({ algorithm: "EC", curve: "P-256" });
    const pem = await createCsr({ signer: localSigner(kp.privateKey), subject: { commonName: "admin" } });
    const out = openssl(["req", "-in", file("req.pem", pem), "-noout", "-verify", "-text"]);
    expect(out).toContain("CN = admin");
    expect(out).not.toContain("Subject Alternative Name");
  });
});

describe("the signature check of a provider's signer", () => {
  const subject = { commonName: "peer0.org1.example.com", organization: ["Org1MSP"] };
  it("refuses a certificate a remote signer signed wrongly, naming its subject, and accepts a right one", async () => {
    const { kp, issuer } = await makeCa({ algorithm: "EC", curve: "P-256" });
    const leaf = await generateKeyPair({ algorithm: "EC", curve: "P-256" });
    const local = localSigner(kp.privateKey);
    // A remote signer as a KMS is: no inProcess flag. One signs the bytes, one something else.
    const remote = { spec: local.spec, publicKey: local.publicKey, sign: local.sign };
    const wrong = {
      ...remote,
      sign: (data: Uint8Array) => local.sign(Buffer.concat([Buffer.from(data), Buffer.from([0])])),
    };
    const issue = (signer: typeof remote) =>
      issueCertificate({
        issuer: { ...issuer, signer },
        publicKey: leaf.publicKey,
        subject,
        validity: { notAfter: days(30) },
      });
    const good = await issue(remote);
    expect(new X509Certificate(good.pem).verify(kp.publicKey)).toBe(true);
    await expect(issue(wrong)).rejects.toThrow(
      /"CN=peer0.org1.example.com, O=Org1MSP|O=Org1MSP, CN=peer0.org1.example.com" does not verify/,
    );
  });
  it("is skipped for the in-process signer, whose certificates verify", async () => {
    const { kp, issuer } = await makeCa({ algorithm: "EC", curve: "P-256" });
    expect(issuer.signer.inProcess).toBe(true);
    const leaf = await generateKeyPair({ algorithm: "EC", curve: "P-256" });
    const cert = await issueCertificate({
      issuer,
      publicKey: leaf.publicKey,
      subject,
      validity: { notAfter: days(30) },
    });
    expect(new X509Certificate(cert.pem).verify(kp.publicKey)).toBe(true);
  });
});
