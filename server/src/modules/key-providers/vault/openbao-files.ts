import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createSelfSignedCertificate, issueCertificate } from "../../../crypto/certificates.js";
import { generateKeyPair, privateKeyToPem } from "../../../crypto/key-algorithms.js";
import { localSigner } from "../../../crypto/signer.js";

/** The files of one managed OpenBao under `<dataDir>/vaults/<id>/`. */
export interface OpenBaoLayout {
  dir: string;
  /** Raft storage (OpenBao 2.x has no `file` storage backend). */
  dataDir: string;
  tlsDir: string;
  caCertFile: string;
  certFile: string;
  keyFile: string;
  configFile: string;
  logFile: string;
}

export function openBaoLayout(consoleDataDir: string, providerId: number): OpenBaoLayout {
  const dir = join(consoleDataDir, "vaults", String(providerId));
  const tlsDir = join(dir, "tls");
  return {
    dir,
    dataDir: join(dir, "data"),
    tlsDir,
    caCertFile: join(tlsDir, "ca.crt"),
    certFile: join(tlsDir, "server.crt"),
    keyFile: join(tlsDir, "server.key"),
    configFile: join(dir, "config.hcl"),
    logFile: join(dir, "logs", "openbao.log"),
  };
}

async function writeAtomic(path: string, text: string, mode: number): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, text, { mode });
  await chmod(tmp, mode);
  await rename(tmp, path);
}

/**
 * The listener's TLS: a CA made for this server alone and a certificate for 127.0.0.1 it issues.
 * The CA's key is dropped once the certificate is issued (nothing else is ever signed with it), so
 * the only private key on disk is the listener's own (0600), which guards no provider key.
 * Returns the CA certificate PEM clients trust. Kept across restarts.
 */
export async function ensureListenerTls(layout: OpenBaoLayout): Promise<string> {
  const existing = await readFile(layout.caCertFile, "utf8").catch(() => undefined);
  if (existing) return existing;
  await mkdir(layout.tlsDir, { recursive: true, mode: 0o700 });
  const notAfter = new Date(Date.now() + 10 * 365 * 24 * 3600 * 1000);
  const caKey = await generateKeyPair({ algorithm: "EC", curve: "P-256" });
  const ca = await createSelfSignedCertificate({
    signer: localSigner(caKey.privateKey),
    subject: { commonName: "ChainLaunch managed OpenBao CA", organization: ["ChainLaunch"] },
    validity: { notAfter },
  });
  const leaf = await generateKeyPair({ algorithm: "EC", curve: "P-256" });
  const cert = await issueCertificate({
    issuer: { certificatePem: ca.pem, signer: localSigner(caKey.privateKey) },
    publicKey: leaf.publicKey,
    subject: { commonName: "127.0.0.1", organization: ["ChainLaunch"] },
    sans: { ipAddresses: ["127.0.0.1"], dnsNames: ["localhost"] },
    extKeyUsage: ["serverAuth"],
    validity: { notAfter },
  });
  await writeAtomic(layout.keyFile, privateKeyToPem(leaf.privateKey), 0o600);
  await writeAtomic(layout.certFile, cert.pem, 0o644);
  // Written last: its presence means the set is complete.
  await writeAtomic(layout.caCertFile, ca.pem, 0o644);
  return ca.pem;
}

/**
 * The server config: raft storage in the data dir (OpenBao 2.x refuses `file` storage and
 * `disable_mlock`), TLS on loopback, the cluster port right after the API port.
 */
export async function writeServerConfig(layout: OpenBaoLayout, port: number): Promise<void> {
  const q = (s: string): string => JSON.stringify(s);
  const hcl = [
    "ui = false",
    `storage "raft" {`,
    `  path = ${q(layout.dataDir)}`,
    `  node_id = "chainlaunch"`,
    // One node: raft's timings at their tightest, so the first election (which sys/init waits for)
    // takes about a second instead of five to ten on a loaded machine.
    `  performance_multiplier = 1`,
    `}`,
    `listener "tcp" {`,
    `  address = ${q(`127.0.0.1:${port}`)}`,
    `  cluster_address = ${q(`127.0.0.1:${port + 1}`)}`,
    `  tls_cert_file = ${q(layout.certFile)}`,
    `  tls_key_file = ${q(layout.keyFile)}`,
    `}`,
    `api_addr = ${q(`https://127.0.0.1:${port}`)}`,
    `cluster_addr = ${q(`https://127.0.0.1:${port + 1}`)}`,
    "",
  ].join("\n");
  await mkdir(layout.dataDir, { recursive: true, mode: 0o700 });
  await mkdir(join(layout.dir, "logs"), { recursive: true, mode: 0o700 });
  await writeAtomic(layout.configFile, hcl, 0o600);
}
