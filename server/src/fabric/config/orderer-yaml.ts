import { stringify } from "yaml";
import type { TlsFiles } from "./core-yaml.js";
import { FabricConfigError, fabricConfigFlavour, splitHostPort } from "./version.js";

/** Everything that differs between orderers. Paths should be absolute. */
export interface OrdererConfigOptions {
  /** Fabric version, e.g. "3.1.5" (selects 2.5 vs 3.x keys: unknown keys are a load error in the orderer). */
  version: string;
  /** Used only in the file header. */
  name: string;
  mspId: string;
  mspDir: string;
  /** General listener (Broadcast/Deliver, and cluster traffic unless `cluster` is set), e.g. "0.0.0.0:7050". */
  listenAddress: string;
  /** The node's TLS pair; also used as cluster client/server TLS and admin TLS. */
  tls: TlsFiles & {
    /** CAs trusted for cluster (Raft) connections; default [rootCertFile]. Add other orderer orgs' TLS CAs here. */
    clusterRootCAFiles?: string[];
  };
  /**
   * A separate cluster listener. Upstream requires its address, port, server cert and key all
   * together or none; without it the general listener (which then needs TLS) carries Raft.
   */
  cluster?: { listenAddress: string };
  /** Channel participation API listener (osnadmin), HTTPS with client certificates required. */
  adminListenAddress: string;
  /** CAs whose client certs may call the admin API, e.g. the org's TLS CA. Default [rootCertFile]. */
  adminClientRootCAFiles?: string[];
  /** Operations (/healthz, /metrics), plain HTTP. */
  operationsListenAddress: string;
  /** Block store root. */
  fileLedgerLocation: string;
  /** Consensus WAL and snapshots (etcdraft, and SmartBFT's WAL on 3.x); default `<fileLedgerLocation>/consensus/{wal,snapshot}`. */
  walDir?: string;
  snapDir?: string;
}

export type OrdererYaml = Record<string, unknown>;

/**
 * Builds a complete orderer.yaml for a channel-participation orderer (no system channel).
 * The orderer decodes this file with ErrorUnused, so only keys of its config struct for the
 * given version may appear; `buildOrdererYaml` writes nothing else.
 */
export function buildOrdererYaml(o: OrdererConfigOptions): OrdererYaml {
  const flavour = fabricConfigFlavour(o.version);
  const general = splitHostPort(o.listenAddress, "listenAddress");
  splitHostPort(o.adminListenAddress, "adminListenAddress");
  splitHostPort(o.operationsListenAddress, "operationsListenAddress");
  const clusterListener = o.cluster ? splitHostPort(o.cluster.listenAddress, "cluster.listenAddress") : undefined;
  if (clusterListener && clusterListener.port === general.port && clusterListener.host === general.host) {
    throw new FabricConfigError("cluster.listenAddress", "a separate cluster listener needs its own port");
  }
  const clusterRootCAs = o.tls.clusterRootCAFiles ?? [o.tls.rootCertFile];

  const cluster: Record<string, unknown> = {
    SendBufferSize: 100,
    ClientCertificate: o.tls.certFile,
    ClientPrivateKey: o.tls.keyFile,
    RootCAs: clusterRootCAs,
    DialTimeout: "5s",
    RPCTimeout: "7s",
    ReplicationBufferSize: 20971520,
    ReplicationPullTimeout: "5s",
    ReplicationRetryTimeout: "5s",
    ReplicationMaxRetries: 12,
    CertExpirationWarningThreshold: "168h",
  };
  if (clusterListener) {
    Object.assign(cluster, {
      ListenAddress: clusterListener.host,
      ListenPort: clusterListener.port,
      ServerCertificate: o.tls.certFile,
      ServerPrivateKey: o.tls.keyFile,
    });
  }
  if (flavour === "3.x") cluster.ReplicationPolicy = "consensus";

  const generalSection: Record<string, unknown> = {
    ListenAddress: general.host,
    ListenPort: general.port,
    // TLS is mandatory when Raft shares the general listener ("TLS is required for running
    // ordering nodes of cluster type").
    TLS: {
      Enabled: true,
      PrivateKey: o.tls.keyFile,
      Certificate: o.tls.certFile,
      RootCAs: [o.tls.rootCertFile],
      ClientAuthRequired: false,
      ClientRootCAs: [o.tls.rootCertFile],
    },
    Keepalive: { ServerMinInterval: "60s", ServerInterval: "7200s", ServerTimeout: "20s" },
    MaxRecvMsgSize: 104857600,
    MaxSendMsgSize: 104857600,
    Cluster: cluster,
    LocalMSPDir: o.mspDir,
    LocalMSPID: o.mspId,
    Profile: { Enabled: false, Address: "127.0.0.1:6060" },
    BCCSP: {
      Default: "SW",
      SW: { Hash: "SHA2", Security: 256, FileKeyStore: { KeyStore: `${o.mspDir}/keystore` } },
    },
    Authentication: { TimeWindow: "15m" },
  };
  if (flavour === "2.5") {
    // 2.5 defaults to "file" (a system-channel genesis block); we run without a system channel.
    generalSection.BootstrapMethod = "none";
  } else {
    generalSection.Backoff = { BaseDelay: "1s", Multiplier: 1.6, MaxDelay: "2m" };
    generalSection.Throttling = { Rate: 0, InactivityTimeout: "5s" };
  }

  return {
    General: generalSection,
    FileLedger: { Location: o.fileLedgerLocation },
    Operations: { ListenAddress: o.operationsListenAddress, TLS: { Enabled: false } },
    Metrics: { Provider: "prometheus" },
    Admin: {
      ListenAddress: o.adminListenAddress,
      // Mutual TLS: the participation API answers 401 unless the client cert verifies against ClientRootCAs.
      TLS: {
        Enabled: true,
        PrivateKey: o.tls.keyFile,
        Certificate: o.tls.certFile,
        RootCAs: [o.tls.rootCertFile],
        ClientAuthRequired: true,
        ClientRootCAs: o.adminClientRootCAFiles ?? [o.tls.rootCertFile],
      },
    },
    // 2.5 defaults to disabled; 3.x always enables it (deprecated there, but written to keep its log quiet).
    ChannelParticipation: { Enabled: true, MaxRequestBodySize: 1048576 },
    Consensus: {
      WALDir: o.walDir ?? `${o.fileLedgerLocation}/consensus/wal`,
      SnapDir: o.snapDir ?? `${o.fileLedgerLocation}/consensus/snapshot`,
    },
  };
}

/** Renders {@link buildOrdererYaml} as YAML text. */
export function renderOrdererYaml(o: OrdererConfigOptions): string {
  return `# Generated by ChainLaunch for orderer ${o.name} (Fabric ${o.version}). Edits are overwritten.\n${stringify(
    buildOrdererYaml(o),
    { lineWidth: 0 },
  )}`;
}
