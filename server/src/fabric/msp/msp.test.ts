import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSelfSignedCertificate, issueCertificate, type Issuer } from "../../crypto/certificates.js";
import { createCrl } from "../../crypto/crl.js";
import { CryptoInputError } from "../../crypto/errors.js";
import { generateKeyPair, privateKeyToPem } from "../../crypto/key-algorithms.js";
import { localSigner } from "../../crypto/signer.js";
import { buildChannelMsp, isValidMspId, validateLocalMsp, writeLocalMsp, type LocalMspMaterial } from "./index.js";

const OPENSSL = "/usr/bin/openssl";
const dir = mkdtempSync(join(tmpdir(), "cl-msp-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const days = (n: number): Date => new Date(Date.now() + n * 86_400_000);
const openssl = (args: string[]): string =>
  execFileSync(OPENSSL, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

async function makeCa(cn: string): Promise<Issuer> {
  const kp = await generateKeyPair({ algorithm: "EC", curve: "P-256" });
  const signer = localSigner(kp.privateKey);
  const ca = await createSelfSignedCertificate({
    signer,
    subject: { commonName: cn, organization: ["Org1MSP"] },
    validity: { notAfter: days(365) },
  });
  return { certificatePem: ca.pem, signer };
}

let material: LocalMspMaterial;
let signCa: Issuer;
let tlsCa: Issuer;
let crlPem: string;

beforeAll(async () => {
  signCa = await makeCa("ca.org1");
  tlsCa = await makeCa("tlsca.org1");
  const key = await generateKeyPair({ algorithm: "EC", curve: "P-256" });
  const cert = await issueCertificate({
    issuer: signCa,
    publicKey: key.publicKey,
    subject: { commonName: "peer0.org1", organizationalUnit: ["peer"] },
    validity: { notAfter: days(30) },
  });
  crlPem = (
    await createCrl({
      issuer: signCa,
      revoked: [{ serialNumber: "1234", revocationDate: new Date() }],
      crlNumber: 1,
      nextUpdate: days(7),
    })
  ).pem;
  material = {
    caCertPem: signCa.certificatePem,
    signCertPem: cert.pem,
    privateKeyPem: privateKeyToPem(key.privateKey),
    tlsCaCertPem: tlsCa.certificatePem,
    crls: [crlPem],
  };
});

describe("writeLocalMsp", () => {
  it("writes the Fabric layout with a NodeOUs config.yaml and a 0600 key", async () => {
    const msp = join(dir, "peer0", "msp");
    const written = await writeLocalMsp(msp, material);
    expect(written).toEqual(
      expect.arrayContaining([
        "cacerts/cacert.pem",
        "signcerts/cert.pem",
        "keystore/key.pem",
        "tlscacerts/tlsca.pem",
        "crls/crl-0.pem",
        "config.yaml",
      ]),
    );
    expect(statSync(join(msp, "keystore/key.pem")).mode & 0o777).toBe(0o600);
    expect(statSync(join(msp, "keystore")).mode & 0o777).toBe(0o700);

    const config = parseYaml(readFileSync(join(msp, "config.yaml"), "utf8")) as {
      NodeOUs: Record<string, unknown> & { Enable: boolean };
    };
    expect(config.NodeOUs.Enable).toBe(true);
    for (const [key, ou] of [
      ["ClientOUIdentifier", "client"],
      ["PeerOUIdentifier", "peer"],
      ["AdminOUIdentifier", "admin"],
      ["OrdererOUIdentifier", "orderer"],
    ]) {
      expect(config.NodeOUs[key as string]).toEqual({
        Certificate: "cacerts/cacert.pem",
        OrganizationalUnitIdentifier: ou,
      });
    }

    // Independent checks: the signcert chains to cacerts, carries the peer OU, the keystore key is its key.
    expect(openssl(["verify", "-CAfile", join(msp, "cacerts/cacert.pem"), join(msp, "signcerts/cert.pem")])).toMatch(
      /: OK$/m,
    );
    expect(openssl(["x509", "-in", join(msp, "signcerts/cert.pem"), "-noout", "-subject"])).toContain("OU = peer");
    const fromKey = openssl(["pkey", "-in", join(msp, "keystore/key.pem"), "-pubout"]);
    const fromCert = openssl(["x509", "-in", join(msp, "signcerts/cert.pem"), "-noout", "-pubkey"]);
    expect(fromKey).toBe(fromCert);
    expect(
      openssl(["crl", "-in", join(msp, "crls/crl-0.pem"), "-noout", "-CAfile", join(msp, "cacerts/cacert.pem")]),
    ).toBe("");
    expect(existsSync(join(msp, "keystore/key.pem.tmp"))).toBe(false);

    // Rewriting without CRLs removes the stale one.
    await writeLocalMsp(msp, { ...material, crls: [] });
    expect(existsSync(join(msp, "crls/crl-0.pem"))).toBe(false);
  });

  it("refuses a key that does not match the signcert, or a CA without CA constraints", async () => {
    const other = await generateKeyPair({ algorithm: "EC", curve: "P-256" });
    const field = (fn: () => void): string | undefined => {
      try {
        fn();
      } catch (err) {
        expect(err).toBeInstanceOf(CryptoInputError);
        return (err as CryptoInputError).field;
      }
      return undefined;
    };
    expect(field(() => validateLocalMsp({ ...material, privateKeyPem: privateKeyToPem(other.privateKey) }))).toBe(
      "privateKeyPem",
    );
    expect(field(() => validateLocalMsp({ ...material, caCertPem: material.signCertPem }))).toBe("caCertPem");
    expect(field(() => validateLocalMsp(material))).toBeUndefined();
  });
});

describe("channel MSP", () => {
  it("builds FabricMSPConfig-shaped material with NodeOUs and no admins", () => {
    const msp = buildChannelMsp({
      mspId: "Org1MSP",
      caCertPem: signCa.certificatePem,
      tlsCaCertPem: tlsCa.certificatePem,
      crlPems: [crlPem],
    });
    expect(msp.name).toBe("Org1MSP");
    expect(msp.rootCerts).toEqual([signCa.certificatePem]);
    expect(msp.tlsRootCerts).toEqual([tlsCa.certificatePem]);
    expect(msp.admins).toEqual([]);
    expect(msp.revocationList).toEqual([crlPem]);
    expect(msp.fabricNodeOus.enable).toBe(true);
    expect(msp.fabricNodeOus.adminOuIdentifier).toEqual({
      certificate: signCa.certificatePem,
      organizationalUnitIdentifier: "admin",
    });
    expect(msp.cryptoConfig).toEqual({ signatureHashFamily: "SHA2", identityIdentifierHashFunction: "SHA256" });
  });

  it("validates MSP ids the way configtx does", () => {
    for (const ok of ["Org1MSP", "org-1.example", "A"]) expect(isValidMspId(ok)).toBe(true);
    for (const bad of ["", ".", "..", "Org 1", "org_1", "org/1", "x".repeat(250)])
      expect(isValidMspId(bad)).toBe(false);
    expect(() =>
      buildChannelMsp({ mspId: "bad id", caCertPem: signCa.certificatePem, tlsCaCertPem: tlsCa.certificatePem }),
    ).toThrow(CryptoInputError);
  });
});
