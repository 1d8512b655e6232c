import { isIP } from "node:net";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  CCAAS_BUILDER_NAME,
  fabricNodeEnv,
  splitHostPort,
  writeCcaasBuilder,
  writeCoreYaml,
  writeOrdererYaml,
  type TlsFiles,
} from "../../fabric/config/index.js";
import { writeLocalMsp } from "../../fabric/msp/index.js";
import { DEFAULT_IMAGE_REPOSITORIES } from "../../runtime/docker/images.js";
import { allProbes, httpHealthProbe, tcpProbe, type ProcessSpec, type ReadinessProbe } from "../../runtime/index.js";
import type { CertificateSpec, KeysService } from "../keys/keys.service.js";

export type FabricRole = "peer" | "orderer";

/** Everything creation resolved for a Fabric node; stored as the node's `deployment` JSON. */
export interface FabricDeployment {
  kind: "fabric";
  role: FabricRole;
  version: string;
  /** Absolute path of the peer or orderer binary. */
  binary: string;
  dir: string;
  logFile: string;
  mspId: string;
  organizationId: number;
  listenAddress: string;
  externalEndpoint: string;
  operationsAddress: string;
  chaincodeAddress?: string;
  adminAddress?: string;
  /**
   * A peer's eventsAddress as upstream's clients send it, stored and echoed back. Nothing listens
   * there: Fabric 2+ delivers events on the peer's own port.
   */
  eventsAddress?: string;
  domainNames: string[];
  addressOverrides: { from: string; to: string; tlsCACert: string }[];
  ordererAddressOverrides: { from: string; to: string; tlsCACert: string }[];
  env: Record<string, string>;
  /** Every port the node binds (other nodes may not use them). */
  ports: number[];
  healthUrl: string;
  signKeyId: number;
  tlsKeyId: number;
  signCert: string;
  tlsCert: string;
  signCaCert: string;
  tlsCaCert: string;
  certValidDays: number;
  /** "docker": runs as a container of `image` on the console's engine; absent: a child process. */
  mode?: "docker";
  image?: string;
  /** Mode docker: a registered engine's name; absent means the local engine. */
  engine?: string;
}

/** The user-defined network the console's containers join (they reach each other by name). */
export const CONSOLE_NETWORK = "chainlaunch";

export interface OrgCas {
  mspId: string;
  providerId: number;
  signCaKeyId: number;
  tlsCaKeyId: number;
  signCaCert: string;
  tlsCaCert: string;
}

const P256 = { algorithm: "EC", curve: "P-256" } as const;

/** A host for the operations URL: wildcard listeners are reached on loopback. */
export function dialHost(host: string): string {
  return host === "0.0.0.0" || host === "::" || host === "" ? "127.0.0.1" : host;
}

/** Where chaincode reaches the peer: the listen address, with a wildcard host replaced by the external host. */
export function dialableChaincodeAddress(d: Pick<FabricDeployment, "chaincodeAddress" | "externalEndpoint">): string {
  const cc = d.chaincodeAddress ?? "";
  const i = cc.lastIndexOf(":");
  const host = cc.slice(0, i);
  if (host !== "0.0.0.0" && host !== "::" && host !== "[::]" && host !== "") return cc;
  const external = d.externalEndpoint.slice(0, d.externalEndpoint.lastIndexOf(":"));
  return `${external || "127.0.0.1"}:${cc.slice(i + 1)}`;
}

/** TLS SANs: localhost, 127.0.0.1, the external endpoint's host and every domain name. */
export function tlsSans(externalHost: string, domainNames: string[]): { dnsNames: string[]; ipAddresses: string[] } {
  const dns = new Set(["localhost"]);
  const ips = new Set(["127.0.0.1"]);
  for (const name of [externalHost, ...domainNames]) {
    if (!name) continue;
    if (isIP(name)) ips.add(name);
    else dns.add(name);
  }
  return { dnsNames: [...dns], ipAddresses: [...ips] };
}

function certSpecs(
  name: string,
  role: FabricRole,
  cas: OrgCas,
  sans: { dnsNames: string[]; ipAddresses: string[] },
  validDays: number,
): { sign: CertificateSpec; tls: CertificateSpec } {
  const subject = { commonName: name, organization: [cas.mspId], organizationalUnit: [role] };
  const validForMs = validDays * 86_400_000;
  return {
    sign: { subject, validForMs, extKeyUsage: [], signingKeyId: cas.signCaKeyId },
    tls: { subject, sans, validForMs, extKeyUsage: ["serverAuth", "clientAuth"], signingKeyId: cas.tlsCaKeyId },
  };
}

type Keys = Pick<KeysService, "createKey" | "recertify" | "exportPrivateKeyPem">;

/**
 * Issues the node's signing identity (OU peer/orderer) from the org's sign CA and its TLS pair
 * from the org's TLS CA. `onCreated` learns each new key id so a failed creation can remove it.
 */
export async function issueFabricIdentities(
  keys: Keys,
  p: {
    slug: string;
    name: string;
    role: FabricRole;
    cas: OrgCas;
    externalHost: string;
    domainNames: string[];
    validDays: number;
  },
  onCreated: (keyId: number) => void,
): Promise<{ signKeyId: number; tlsKeyId: number; signCert: string; tlsCert: string }> {
  const specs = certSpecs(p.name, p.role, p.cas, tlsSans(p.externalHost, p.domainNames), p.validDays);
  const sign = await keys.createKey({
    name: `${p.slug}-sign`,
    description: `Signing identity of ${p.role} ${p.name}`,
    spec: P256,
    providerId: p.cas.providerId,
    exportable: true,
    certificate: specs.sign,
  });
  onCreated(sign.id);
  const tls = await keys.createKey({
    name: `${p.slug}-tls`,
    description: `TLS identity of ${p.role} ${p.name}`,
    spec: P256,
    providerId: p.cas.providerId,
    exportable: true,
    certificate: specs.tls,
  });
  onCreated(tls.id);
  return { signKeyId: sign.id, tlsKeyId: tls.id, signCert: sign.certificate ?? "", tlsCert: tls.certificate ?? "" };
}

/** Reissues both certificates for the same key pairs (renewal, or new SANs after an update). */
export async function reissueFabricCertificates(
  keys: Keys,
  d: FabricDeployment,
  name: string,
  cas: OrgCas,
): Promise<{ signCert: string; tlsCert: string }> {
  const host = d.externalEndpoint.slice(0, d.externalEndpoint.lastIndexOf(":")).replace(/^\[|\]$/g, "");
  const specs = certSpecs(name, d.role, cas, tlsSans(host, d.domainNames), d.certValidDays);
  const sign = await keys.recertify(d.signKeyId, specs.sign);
  const tls = await keys.recertify(d.tlsKeyId, specs.tls);
  return { signCert: sign.certificate ?? "", tlsCert: tls.certificate ?? "" };
}

const paths = (dir: string) => ({
  msp: join(dir, "msp"),
  config: join(dir, "config"),
  tls: {
    certFile: join(dir, "tls", "server.crt"),
    keyFile: join(dir, "tls", "server.key"),
    rootCertFile: join(dir, "tls", "ca.crt"),
  } satisfies TlsFiles,
  data: join(dir, "data"),
  builders: join(dir, "builders", "ccaas"),
});

/**
 * Writes (or rewrites) everything the node reads: the local MSP, the TLS pair, the ccaas
 * builder and core.yaml / orderer.yaml. Private keys come from the keys service and go only
 * into 0600 files.
 */
export async function writeFabricFiles(keys: Keys, d: FabricDeployment, slug: string): Promise<void> {
  const p = paths(d.dir);
  // A node's files are a few small PEMs and YAMLs on the local disk: written synchronously (see
  // writeLocalMsp), without a thread-pool round trip per call.
  mkdirSync(join(d.dir, "tls"), { recursive: true });
  mkdirSync(join(d.dir, "logs"), { recursive: true });
  mkdirSync(p.data, { recursive: true });
  await writeLocalMsp(p.msp, {
    caCertPem: d.signCaCert,
    signCertPem: d.signCert,
    privateKeyPem: await keys.exportPrivateKeyPem(d.signKeyId),
    tlsCaCertPem: d.tlsCaCert,
  });
  writeFileSync(p.tls.certFile, d.tlsCert, { mode: 0o644 });
  writeFileSync(p.tls.keyFile, await keys.exportPrivateKeyPem(d.tlsKeyId), { mode: 0o600 });
  writeFileSync(p.tls.rootCertFile, d.tlsCaCert, { mode: 0o644 });
  if (d.role === "peer") {
    const overrides = await Promise.all(
      d.ordererAddressOverrides.map(async (o, i) => {
        // No CA of its own: Fabric then checks the endpoint against the channel's TLS roots.
        if (!o.tlsCACert) return { from: o.from, to: o.to, caCertsFile: "" };
        const caCertsFile = join(d.dir, "tls", `orderer-override-${i}.pem`);
        writeFileSync(caCertsFile, o.tlsCACert, { mode: 0o644 });
        return { from: o.from, to: o.to, caCertsFile };
      }),
    );
    const builderDir = await writeCcaasBuilder(p.builders);
    await writeCoreYaml(p.config, {
      version: d.version,
      peerId: slug,
      mspId: d.mspId,
      mspDir: p.msp,
      fileSystemPath: p.data,
      listenAddress: d.listenAddress,
      externalEndpoint: d.externalEndpoint,
      chaincodeListenAddress: d.chaincodeAddress ?? "",
      // The address chaincode dials back may not be a wildcard ("IP cannot be 0.0.0.0 in non-dev mode").
      chaincodeAddress: dialableChaincodeAddress(d),
      tls: p.tls,
      operationsListenAddress: d.operationsAddress,
      externalBuilders: [{ name: CCAAS_BUILDER_NAME, path: builderDir }],
      ordererAddressOverrides: overrides,
    });
  } else {
    await writeOrdererYaml(p.config, {
      version: d.version,
      name: slug,
      mspId: d.mspId,
      mspDir: p.msp,
      listenAddress: d.listenAddress,
      tls: p.tls,
      adminListenAddress: d.adminAddress ?? "",
      operationsListenAddress: d.operationsAddress,
      fileLedgerLocation: p.data,
    });
  }
}

/**
 * When a Fabric node is ready: its operations /healthz says OK and its gRPC listener (and an orderer's
 * channel-participation listener) accepts connections. Both binaries start the operations server
 * before they bind those ports, so /healthz alone can pass while a join would still be refused.
 */
export function fabricReadinessProbe(
  d: Pick<FabricDeployment, "role" | "healthUrl" | "listenAddress" | "adminAddress">,
): ReadinessProbe {
  const listening = (address: string): ReadinessProbe => {
    const { host, port } = splitHostPort(address);
    return tcpProbe(dialHost(host), port);
  };
  return allProbes(
    httpHealthProbe(d.healthUrl),
    listening(d.listenAddress),
    ...(d.role === "orderer" && d.adminAddress ? [listening(d.adminAddress)] : []),
  );
}

/**
 * Where a container node's ports are published: on the external endpoint's address (other nodes
 * dial it), and on loopback too, where the console probes and calls it.
 */
function publishedHosts(d: FabricDeployment): string[] {
  const host = d.externalEndpoint.slice(0, d.externalEndpoint.lastIndexOf(":")).replace(/^\[|\]$/g, "");
  if (host === "127.0.0.1" || host === "localhost") return ["127.0.0.1"];
  return isIP(host) === 4 ? ["127.0.0.1", host] : ["0.0.0.0"];
}

/** How the supervisor runs the node: argv and env only, ready when fabricReadinessProbe passes. */
export function fabricProcessSpec(slug: string, d: FabricDeployment): ProcessSpec {
  if (d.mode === "docker") {
    const p = paths(d.dir);
    // Same paths inside as outside: core.yaml / orderer.yaml stay valid in both modes.
    const ro = (dir: string) => ({ source: dir, target: dir, readOnly: true });
    const externalHost = d.externalEndpoint.slice(0, d.externalEndpoint.lastIndexOf(":"));
    return {
      id: slug,
      command: d.role,
      args: [],
      cwd: d.dir,
      logFile: d.logFile,
      probe: fabricReadinessProbe(d),
      startTimeoutMs: 60_000,
      container: {
        // Stored at creation (CHAINLAUNCH_FABRIC_IMAGE then): a node keeps its image.
        image: d.image ?? `${DEFAULT_IMAGE_REPOSITORIES.fabric}:${d.version}`,
        cmd: d.role === "peer" ? ["peer", "node", "start"] : ["orderer"],
        // Nothing of the console's environment: the image's PATH, a HOME it can write.
        env: fabricNodeEnv({ configDir: p.config, extra: d.env, base: { PATH: "/usr/local/bin:/bin", HOME: "/tmp" } }),
        binds: [
          ro(p.msp),
          ro(join(d.dir, "tls")),
          ro(p.config),
          ro(join(d.dir, "builders")),
          { source: p.data, target: p.data, readOnly: false },
        ],
        ports: publishedHosts(d).flatMap((hostIp) =>
          d.ports.map((port) => ({ hostIp, hostPort: port, containerPort: port })),
        ),
        network: CONSOLE_NETWORK,
        aliases: [slug, ...(externalHost && !isIP(externalHost) ? [externalHost] : [])],
        labels: { "dev.chainlaunch.kind": `fabric-${d.role}`, "dev.chainlaunch.msp": d.mspId },
        ...(d.engine ? { engine: d.engine } : {}),
      },
    };
  }
  return {
    id: slug,
    command: d.binary,
    args: d.role === "peer" ? ["node", "start"] : [],
    env: fabricNodeEnv({ configDir: paths(d.dir).config, extra: d.env }),
    cwd: d.dir,
    ownsCwd: true,
    logFile: d.logFile,
    probe: fabricReadinessProbe(d),
    startTimeoutMs: 60_000,
  };
}
