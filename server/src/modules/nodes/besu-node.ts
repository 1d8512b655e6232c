import { mkdir, writeFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import {
  buildBesuCommand,
  enodeUrl,
  formatNodeKeyFile,
  renderPermissionsConfigToml,
  type BesuCommandOptions,
} from "../../besu/index.js";
import { loadPrivateKey } from "../../crypto/key-algorithms.js";
import { DEFAULT_IMAGE_REPOSITORIES } from "../../runtime/docker/images.js";
import type { ProcessSpec } from "../../runtime/index.js";
import type { BesuNodeConfig } from "./nodes.schema.js";

/** What creation resolved for a Besu node; stored as the node's `deployment` JSON. */
export interface BesuDeployment {
  kind: "besu";
  dir: string;
  logFile: string;
  dataPath: string;
  genesisFile: string;
  keyFile: string;
  /** The complete argv after the launcher, exactly as spawned. */
  args: string[];
  /** Environment on top of PATH/HOME (JAVA_OPTS, user env). */
  env: Record<string, string>;
  keyId: number;
  networkId: number;
  chainId: number;
  enodeUrl: string;
  ports: number[];
  healthUrl: string;
  /** "docker": runs as a container of `image`; absent: the besu launcher as a child process. */
  mode?: "docker";
  image?: string;
  props: {
    externalIp: string;
    internalIp: string;
    p2pHost: string;
    p2pPort: number;
    rpcHost: string;
    rpcPort: number;
    metricsEnabled: boolean;
    metricsHost: string;
    metricsPort: number;
    metricsProtocol: string;
    bootNodes: string[];
    minGasPrice: number;
    hostAllowList: string;
    accountsAllowList: string[];
    nodesAllowList: string[];
    jwtEnabled: boolean;
    jwtPublicKeyContent: string;
    jwtAuthenticationAlgorithm: string;
    version: string;
  };
}

/** Besu's default metrics port. */
export const BESU_DEFAULT_METRICS_PORT = 9545;

/** The 32-byte secp256k1 scalar of a PKCS#8 PEM, as Besu's key file line (`0x` + 64 hex). */
export function besuKeyFileFromPem(pem: string): string {
  const d = loadPrivateKey(pem).export({ format: "jwk" }).d ?? "";
  const hex = Buffer.from(d, "base64url").toString("hex").padStart(64, "0");
  return formatNodeKeyFile(hex, "besuNode.keyId");
}

/**
 * Plans a Besu node: paths under `dir`, the enode URL, and the complete command line built by
 * the besu library (which validates hosts, ports, bootnodes and allow-lists by field).
 */
export function planBesuNode(p: {
  dir: string;
  config: BesuNodeConfig;
  keyId: number;
  publicKeyPem: string;
  chainId: number;
}): BesuDeployment {
  const c = p.config;
  const metricsEnabled = c.metricsEnabled ?? true;
  const metricsPort = c.metricsPort ?? BESU_DEFAULT_METRICS_PORT;
  const hostAllowList = c.hostAllowList?.trim() || "*";
  const files = {
    dataPath: join(p.dir, "data"),
    genesisFile: join(p.dir, "config", "genesis.json"),
    keyFile: join(p.dir, "config", "key"),
    jwtFile: join(p.dir, "config", "jwt-public-key.pem"),
    permissionsFile: join(p.dir, "config", "permissions_config.toml"),
  };
  const jwtEnabled = c.jwtEnabled === true && !!c.jwtPublicKeyContent;
  const opts: BesuCommandOptions = {
    dataPath: files.dataPath,
    genesisFile: files.genesisFile,
    nodePrivateKeyFile: files.keyFile,
    networkId: p.chainId,
    rpc: { host: c.rpcHost, port: c.rpcPort, extraApis: ["WEB3", "TXPOOL"] },
    hostAllowlist: hostAllowList.split(",").map((h) => h.trim()),
    ...(metricsEnabled
      ? { metrics: { host: c.rpcHost, port: metricsPort, protocol: c.metricsProtocol ?? "PROMETHEUS" } }
      : {}),
    p2p: { host: c.externalIp, port: c.p2pPort, interface: c.p2pHost },
    bootnodes: c.bootNodes ?? [],
    ...(c.minGasPrice !== undefined ? { minGasPrice: c.minGasPrice } : {}),
    ...(jwtEnabled
      ? {
          jwt: {
            publicKeyFile: files.jwtFile,
            ...(c.jwtAuthenticationAlgorithm ? { algorithm: c.jwtAuthenticationAlgorithm } : {}),
          },
        }
      : {}),
    ...(c.accountsAllowList?.length || c.nodesAllowList?.length
      ? {
          permissions: {
            ...(c.accountsAllowList?.length ? { accountsConfigFile: files.permissionsFile } : {}),
            ...(c.nodesAllowList?.length ? { nodesConfigFile: files.permissionsFile } : {}),
          },
        }
      : {}),
    env: c.env ?? {},
  };
  const cmd = buildBesuCommand(opts);
  const rpcDial = c.rpcHost === "0.0.0.0" ? "127.0.0.1" : c.rpcHost;
  return {
    kind: "besu",
    dir: p.dir,
    logFile: join(p.dir, "logs", "besu.log"),
    dataPath: files.dataPath,
    genesisFile: files.genesisFile,
    keyFile: files.keyFile,
    args: cmd.args,
    env: cmd.env,
    keyId: p.keyId,
    networkId: 0,
    chainId: p.chainId,
    enodeUrl: enodeUrl(p.publicKeyPem, c.externalIp, c.p2pPort),
    ports: [c.p2pPort, c.rpcPort, ...(metricsEnabled ? [metricsPort] : [])],
    healthUrl: `http://${rpcDial}:${c.rpcPort}/liveness`,
    props: {
      externalIp: c.externalIp,
      internalIp: c.internalIp,
      p2pHost: c.p2pHost,
      p2pPort: c.p2pPort,
      rpcHost: c.rpcHost,
      rpcPort: c.rpcPort,
      metricsEnabled,
      metricsHost: c.rpcHost,
      metricsPort,
      metricsProtocol: c.metricsProtocol ?? "PROMETHEUS",
      bootNodes: c.bootNodes ?? [],
      minGasPrice: c.minGasPrice ?? 1_000_000_000,
      hostAllowList,
      accountsAllowList: c.accountsAllowList ?? [],
      nodesAllowList: c.nodesAllowList ?? [],
      jwtEnabled,
      jwtPublicKeyContent: c.jwtPublicKeyContent ?? "",
      jwtAuthenticationAlgorithm: c.jwtAuthenticationAlgorithm ?? "",
      version: c.version ?? "",
    },
  };
}

/** Writes the genesis, the node key file (0600), the JWT key and the permissions file. */
export async function writeBesuFiles(d: BesuDeployment, p: { genesis: string; keyFileContent: string }): Promise<void> {
  await mkdir(join(d.dir, "config"), { recursive: true });
  await mkdir(join(d.dir, "logs"), { recursive: true });
  await mkdir(d.dataPath, { recursive: true });
  await writeFile(d.genesisFile, p.genesis, { mode: 0o644 });
  await writeFile(d.keyFile, p.keyFileContent, { mode: 0o600 });
  if (d.props.jwtEnabled) await writeFile(join(d.dir, "config", "jwt-public-key.pem"), d.props.jwtPublicKeyContent);
  if (d.props.accountsAllowList.length || d.props.nodesAllowList.length) {
    await writeFile(
      join(d.dir, "config", "permissions_config.toml"),
      renderPermissionsConfigToml({
        ...(d.props.accountsAllowList.length ? { accountsAllowlist: d.props.accountsAllowList } : {}),
        ...(d.props.nodesAllowList.length
          ? { nodesAllowlist: d.props.nodesAllowList, bootnodes: d.props.bootNodes }
          : {}),
      }),
    );
  }
}

/**
 * The Besu image a container node runs: the node's version in `repository` (CHAINLAUNCH_BESU_IMAGE,
 * upstream's `hyperledger/besu` by default).
 */
export const besuImage = (
  d: Pick<BesuDeployment, "props">,
  repository: string = DEFAULT_IMAGE_REPOSITORIES.besu,
): string => `${repository}:${/^\d+\.\d+\.\d+/.test(d.props.version) ? d.props.version : "latest"}`;

/**
 * A Besu node as a container (mode "docker"): the image's entrypoint is besu, with the node's own
 * argv. Config, genesis and key are bound read-only and the data folder read-write, at the same
 * paths as outside; the listeners that bind loopback bind every interface inside (the ports are
 * published on loopback and on the advertised address). No Besu image can be obtained on the
 * project's machines, so this spec is tested up to the engine (a 400 naming the missing image).
 */
export function besuContainerSpec(slug: string, d: BesuDeployment): ProcessSpec {
  const inside = (a: string): string =>
    a.replace(/^--(rpc-http-host|metrics-host|p2p-interface)=(127\.0\.0\.1|localhost)$/, "--$1=0.0.0.0");
  const ip = d.props.externalIp;
  const hosts = ip && ip !== "127.0.0.1" && /^\d+\.\d+\.\d+\.\d+$/.test(ip) ? ["127.0.0.1", ip] : ["127.0.0.1"];
  return {
    id: slug,
    command: "besu",
    args: [],
    cwd: d.dir,
    logFile: d.logFile,
    startTimeoutMs: 120_000,
    container: {
      // Stored at creation (CHAINLAUNCH_BESU_IMAGE then): a node keeps its image.
      image: d.image ?? besuImage(d),
      cmd: d.args.map(inside),
      env: { ...d.env },
      binds: [
        { source: join(d.dir, "config"), target: join(d.dir, "config"), readOnly: true },
        { source: d.dataPath, target: d.dataPath, readOnly: false },
      ],
      ports: hosts.flatMap((hostIp) => d.ports.map((port) => ({ hostIp, hostPort: port, containerPort: port }))),
      network: "chainlaunch",
      aliases: [slug],
      labels: { "dev.chainlaunch.kind": "besu" },
    },
  };
}

/** The supervised process of a Besu node, once its launcher has been resolved. */
export function besuProcessSpec(slug: string, d: BesuDeployment, binary: string, javaHome?: string): ProcessSpec {
  const base = process.env;
  const path = base.PATH ?? "/usr/local/bin:/usr/bin:/bin";
  return {
    id: slug,
    command: binary,
    args: d.args,
    env: {
      PATH: javaHome ? `${join(javaHome, "bin")}${delimiter}${path}` : path,
      ...(base.HOME ? { HOME: base.HOME } : {}),
      ...(javaHome ? { JAVA_HOME: javaHome } : base.JAVA_HOME ? { JAVA_HOME: base.JAVA_HOME } : {}),
      ...d.env,
    },
    cwd: d.dir,
    logFile: d.logFile,
    startTimeoutMs: 120_000,
  };
}
