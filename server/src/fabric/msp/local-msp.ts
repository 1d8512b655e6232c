import { chmodSync, mkdirSync, readdirSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { certificatePublicKey, decodeCertificate } from "../../crypto/certificate-decoder.js";
import { CryptoInputError } from "../../crypto/errors.js";
import { loadPrivateKey, publicKeyToDer } from "../../crypto/key-algorithms.js";

/** Everything a peer, orderer or client needs in its local MSP folder. PEM strings throughout. */
export interface LocalMspMaterial {
  /** The org's signing root CA (also the NodeOUs identifier certificate). */
  caCertPem: string;
  /** This identity's signing certificate; must carry a NodeOU (peer, orderer, admin, client). */
  signCertPem: string;
  /** This identity's private key (PKCS#8). Written with mode 0600. */
  privateKeyPem: string;
  /** The org's TLS root CA. */
  tlsCaCertPem: string;
  /** Optional intermediate CAs between caCert and signCert. */
  intermediate?: string[];
  /** Optional CRLs signed by the CA (PEM "X509 CRL"). */
  crls?: string[];
}

/** Fixed file names: chainlaunch uses these too, so MSP folders are interchangeable. */
export const LOCAL_MSP_FILES = {
  caCert: "cacerts/cacert.pem",
  signCert: "signcerts/cert.pem",
  key: "keystore/key.pem",
  tlsCaCert: "tlscacerts/tlsca.pem",
  config: "config.yaml",
} as const;

/** The four NodeOU roles. Identity certs must carry exactly one as an OU. */
export const NODE_OU_ROLES = ["client", "peer", "admin", "orderer"] as const;
export type NodeOuRole = (typeof NODE_OU_ROLES)[number];

/**
 * The NodeOUs config.yaml. Every identifier points at the signing root CA, as chainlaunch's
 * `configYamlContent` does; with NodeOUs enabled `admincerts/` is not needed.
 */
export function nodeOusConfigYaml(caCertPath: string = LOCAL_MSP_FILES.caCert): string {
  const identifier = (key: string, ou: NodeOuRole): string =>
    `  ${key}:\n    Certificate: ${caCertPath}\n    OrganizationalUnitIdentifier: ${ou}\n`;
  return (
    "NodeOUs:\n" +
    "  Enable: true\n" +
    identifier("ClientOUIdentifier", "client") +
    identifier("PeerOUIdentifier", "peer") +
    identifier("AdminOUIdentifier", "admin") +
    identifier("OrdererOUIdentifier", "orderer")
  );
}

/**
 * Checks what Fabric's MSP setup would reject, so a node fails here with a named field
 * instead of at start-up: the CA must be a CA with a Subject Key Identifier
 * (msp/mspimplsetup.go), and the keystore key must belong to the signing certificate.
 * @throws CryptoInputError
 */
export function validateLocalMsp(material: LocalMspMaterial): void {
  for (const [field, pem] of [
    ["caCertPem", material.caCertPem],
    ["tlsCaCertPem", material.tlsCaCertPem],
    ...(material.intermediate ?? []).map((p) => ["intermediate", p] as const),
  ] as const) {
    const cert = decodeCertificate(pem);
    if (!cert.isCA) throw new CryptoInputError(field, `${field} "${cert.subject.text}" is not a CA`);
    if (!cert.subjectKeyId) {
      throw new CryptoInputError(
        field,
        `${field} "${cert.subject.text}" has no Subject Key Identifier, which Fabric requires`,
      );
    }
  }
  let key;
  try {
    key = loadPrivateKey(material.privateKeyPem);
  } catch {
    throw new CryptoInputError("privateKeyPem", "privateKeyPem is not a PEM private key");
  }
  const certKey = certificatePublicKey(material.signCertPem);
  if (!publicKeyToDer(key).equals(publicKeyToDer(certKey))) {
    throw new CryptoInputError("privateKeyPem", "the private key does not belong to the signing certificate");
  }
}

/*
 * The MSP files are a few small PEMs on the local disk: written synchronously, each is a few
 * microseconds of the event loop, where the asynchronous calls cost thread-pool round trips and
 * promises for every open, write, chmod and rename (~40 ms of CPU over a 5-node bring-up).
 */
function writeAtomic(path: string, content: string, mode: number): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, content, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

/** Removes files in `dir` that we did not write this time (stale keys, CRLs, intermediates). */
function prune(dir: string, keep: Set<string>): void {
  for (const name of readdirSync(dir)) {
    if (!keep.has(name)) {
      try {
        unlinkSync(join(dir, name));
      } catch {
        // gone already
      }
    }
  }
}

/**
 * Writes a Fabric local MSP folder:
 * `cacerts/cacert.pem`, `signcerts/cert.pem`, `keystore/key.pem` (0600, folder 0700),
 * `tlscacerts/tlsca.pem`, optional `intermediatecerts/` and `crls/`, and a NodeOUs `config.yaml`.
 * Files are written as *.tmp and renamed; rewriting an existing folder replaces its content.
 * Fabric's SW keystore finds the key by scanning keystore/ for the cert's key, so the
 * fixed name `key.pem` works.
 * @returns the relative paths written.
 */
export async function writeLocalMsp(dir: string, material: LocalMspMaterial): Promise<string[]> {
  validateLocalMsp(material);
  const files = new Map<string, { content: string; mode: number }>();
  const pemText = (pem: string): string => (pem.endsWith("\n") ? pem : `${pem}\n`);
  files.set(LOCAL_MSP_FILES.caCert, { content: pemText(material.caCertPem), mode: 0o644 });
  files.set(LOCAL_MSP_FILES.signCert, { content: pemText(material.signCertPem), mode: 0o644 });
  files.set(LOCAL_MSP_FILES.key, { content: pemText(material.privateKeyPem), mode: 0o600 });
  files.set(LOCAL_MSP_FILES.tlsCaCert, { content: pemText(material.tlsCaCertPem), mode: 0o644 });
  (material.intermediate ?? []).forEach((pem, i) =>
    files.set(`intermediatecerts/intermediate-${i}.pem`, { content: pemText(pem), mode: 0o644 }),
  );
  (material.crls ?? []).forEach((pem, i) => files.set(`crls/crl-${i}.pem`, { content: pemText(pem), mode: 0o644 }));
  files.set(LOCAL_MSP_FILES.config, { content: nodeOusConfigYaml(), mode: 0o644 });

  const subdirs = ["cacerts", "signcerts", "keystore", "tlscacerts", "intermediatecerts", "crls"];
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  for (const sub of subdirs) {
    const used = [...files.keys()].some((f) => f.startsWith(`${sub}/`));
    const path = join(dir, sub);
    if (!used) {
      // Optional folders that exist from an earlier write must not keep stale material.
      try {
        prune(path, new Set());
      } catch {
        // no such folder
      }
      continue;
    }
    mkdirSync(path, { recursive: true, mode: sub === "keystore" ? 0o700 : 0o755 });
    if (sub === "keystore") chmodSync(path, 0o700);
  }
  for (const [rel, { content, mode }] of files) writeAtomic(join(dir, rel), content, mode);
  for (const sub of subdirs) {
    const keep = new Set([...files.keys()].filter((f) => f.startsWith(`${sub}/`)).map((f) => f.slice(sub.length + 1)));
    if (keep.size > 0) prune(join(dir, sub), keep);
  }
  return [...files.keys()];
}
