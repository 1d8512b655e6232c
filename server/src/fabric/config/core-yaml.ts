import { stringify } from "yaml";
import { FabricConfigError, fabricConfigFlavour, splitHostPort } from "./version.js";

/** TLS material of a node, as absolute file paths. */
export interface TlsFiles {
  certFile: string;
  keyFile: string;
  /** The TLS CA that issued certFile (peers present it; clients verify against it). */
  rootCertFile: string;
}

export interface ExternalBuilderOption {
  name: string;
  /** The directory that contains bin/detect, bin/build and bin/release. */
  path: string;
  propagateEnvironment?: string[];
}

/**
 * Everything that differs between peers. Paths should be absolute: relative ones resolve against the
 * config dir. There is no events address: Fabric 2.0 removed the event hub (port 7053), and block
 * events come over the deliver service on the peer's main port.
 */
export interface PeerConfigOptions {
  /** Fabric version the peer runs, e.g. "3.1.5" (selects 2.5 vs 3.x keys). */
  version: string;
  /** peer.id, e.g. "peer0-org1". */
  peerId: string;
  networkId?: string;
  mspId: string;
  mspDir: string;
  /** Ledger root; snapshots go to `<fileSystemPath>/snapshots` unless snapshotsDir is set. */
  fileSystemPath: string;
  snapshotsDir?: string;
  /** Where the gRPC server binds, e.g. "0.0.0.0:7051". */
  listenAddress: string;
  /** The endpoint other nodes and clients use (peer.address), e.g. "peer0.org1.example.com:7051". */
  externalEndpoint: string;
  /** Chaincode listener (defaults to port 7052 upstream, which clashes between peers: always set it). */
  chaincodeListenAddress: string;
  /** The address chaincode dials back; defaults to chaincodeListenAddress. */
  chaincodeAddress?: string;
  gossip?: {
    /** Bootstrap peers in the same org; defaults to this peer's own external endpoint. */
    bootstrap?: string[];
    /** Defaults to externalEndpoint. */
    endpoint?: string;
    /** Published to other orgs (anchor/discovery); defaults to externalEndpoint. */
    externalEndpoint?: string;
  };
  tls: TlsFiles & {
    /** Client auth stays off by default; when on, these CAs may connect. */
    clientAuthRequired?: boolean;
    clientRootCAFiles?: string[];
  };
  /** Operations (/healthz, /metrics) listener, plain HTTP, e.g. "127.0.0.1:9443". */
  operationsListenAddress: string;
  /** At least one builder is required, as vm.endpoint is empty (no Docker). */
  externalBuilders: ExternalBuilderOption[];
  /**
   * Orderer endpoints to dial elsewhere (peer.deliveryclient.addressOverrides), e.g. when the
   * channel config names a host this machine can't reach. caCertsFile is the TLS CA of `to`.
   */
  ordererAddressOverrides?: { from: string; to: string; caCertsFile: string }[];
  /** Peer log spec is set through FABRIC_LOGGING_SPEC, not here; this is the shim level for chaincode. */
  chaincodeLogLevel?: string;
}

/** The shape of the generated core.yaml (loosely typed: Fabric reads it with viper). */
export type CoreYaml = Record<string, unknown>;

/**
 * Builds a complete peer core.yaml: every section Fabric reads with viper.Sub/UnmarshalKey
 * (BCCSP, handlers, externalBuilders, chaincode.system) is written out, because those can't
 * come from env vars reliably; `vm.endpoint` is empty so no Docker client is created.
 */
export function buildCoreYaml(o: PeerConfigOptions): CoreYaml {
  const flavour = fabricConfigFlavour(o.version);
  if (o.externalBuilders.length === 0) {
    // start.go panics "VMEndpoint not set and no ExternalBuilders defined".
    throw new FabricConfigError("externalBuilders", "a peer without Docker needs at least one external builder");
  }
  splitHostPort(o.listenAddress, "listenAddress");
  splitHostPort(o.externalEndpoint, "externalEndpoint");
  splitHostPort(o.chaincodeListenAddress, "chaincodeListenAddress");
  splitHostPort(o.operationsListenAddress, "operationsListenAddress");
  const gossipExternal = o.gossip?.externalEndpoint ?? o.externalEndpoint;

  const authFilters = [{ name: "DefaultAuth" }, { name: "ExpirationCheck" }];
  if (flavour === "3.x") authFilters.push({ name: "TimeWindowCheck" });

  return {
    peer: {
      id: o.peerId,
      networkId: o.networkId ?? "chainlaunch",
      listenAddress: o.listenAddress,
      address: o.externalEndpoint,
      addressAutoDetect: false,
      chaincodeListenAddress: o.chaincodeListenAddress,
      chaincodeAddress: o.chaincodeAddress ?? o.chaincodeListenAddress,
      gateway: { enabled: true, endorsementTimeout: "30s", broadcastTimeout: "30s", dialTimeout: "2m" },
      keepalive: {
        interval: "7200s",
        timeout: "20s",
        minInterval: "60s",
        client: { interval: "60s", timeout: "20s" },
        deliveryClient: { interval: "60s", timeout: "20s" },
      },
      gossip: {
        bootstrap: o.gossip?.bootstrap ?? [o.externalEndpoint],
        endpoint: o.gossip?.endpoint ?? o.externalEndpoint,
        externalEndpoint: gossipExternal,
        // Every peer leads its own org's block dissemination: no election to wait for.
        useLeaderElection: false,
        orgLeader: true,
        membershipTrackerInterval: "5s",
        maxBlockCountToStore: 10,
        maxPropagationBurstLatency: "10ms",
        maxPropagationBurstSize: 10,
        propagateIterations: 1,
        propagatePeerNum: 3,
        pullInterval: "4s",
        pullPeerNum: 3,
        requestStateInfoInterval: "4s",
        publishStateInfoInterval: "4s",
        publishCertPeriod: "10s",
        skipBlockVerification: false,
        dialTimeout: "3s",
        connTimeout: "2s",
        recvBuffSize: 20,
        sendBuffSize: 200,
        digestWaitTime: "1s",
        requestWaitTime: "1500ms",
        responseWaitTime: "2s",
        aliveTimeInterval: "5s",
        aliveExpirationTimeout: "25s",
        reconnectInterval: "25s",
        maxConnectionAttempts: 120,
        msgExpirationFactor: 20,
        election: {
          startupGracePeriod: "15s",
          membershipSampleInterval: "1s",
          leaderAliveThreshold: "10s",
          leaderElectionDuration: "5s",
        },
        pvtData: {
          pullRetryThreshold: "60s",
          transientstoreMaxBlockRetention: flavour === "3.x" ? 20000 : 1000,
          pushAckTimeout: "3s",
          btlPullMargin: 10,
          reconcileBatchSize: 10,
          reconcileSleepInterval: "1m",
          reconciliationEnabled: true,
          skipPullingInvalidTransactionsDuringCommit: false,
          implicitCollectionDisseminationPolicy: { requiredPeerCount: 0, maxPeerCount: 1 },
        },
        state: {
          enabled: false,
          checkInterval: "10s",
          responseTimeout: "3s",
          batchSize: 10,
          blockBufferSize: 20,
          maxRetries: 3,
        },
      },
      tls: {
        enabled: true,
        clientAuthRequired: o.tls.clientAuthRequired ?? false,
        cert: { file: o.tls.certFile },
        key: { file: o.tls.keyFile },
        rootcert: { file: o.tls.rootCertFile },
        clientRootCAs: { files: o.tls.clientRootCAFiles ?? [o.tls.rootCertFile] },
        // Client TLS for outbound calls (e.g. to orderers): the node's own pair.
        clientKey: { file: o.tls.keyFile },
        clientCert: { file: o.tls.certFile },
      },
      authentication: { timewindow: "15m" },
      fileSystemPath: o.fileSystemPath,
      BCCSP: {
        Default: "SW",
        SW: { Hash: "SHA2", Security: 256, FileKeyStore: { KeyStore: `${o.mspDir}/keystore` } },
      },
      mspConfigPath: o.mspDir,
      localMspId: o.mspId,
      localMspType: "bccsp",
      client: { connTimeout: "3s" },
      deliveryclient: {
        reconnectTotalTimeThreshold: "3600s",
        connTimeout: "3s",
        reConnectBackoffThreshold: "3600s",
        ...(o.ordererAddressOverrides?.length
          ? {
              addressOverrides: o.ordererAddressOverrides.map((a) => ({
                from: a.from,
                to: a.to,
                caCertsFile: a.caCertsFile,
              })),
            }
          : {}),
      },
      profile: { enabled: false },
      handlers: {
        authFilters,
        decorators: [{ name: "DefaultDecorator" }],
        endorsers: { escc: { name: "DefaultEndorsement" } },
        validators: { vscc: { name: "DefaultValidation" } },
      },
      discovery: {
        enabled: true,
        authCacheEnabled: true,
        authCacheMaxSize: 1000,
        authCachePurgeRetentionRatio: 0.75,
        orgMembersAllowedAccess: false,
      },
      // 0 would mean unlimited; these are the upstream defaults.
      limits: { concurrency: { endorserService: 2500, deliverService: 2500, gatewayService: 500 } },
      maxRecvMsgSize: 104857600,
      maxSendMsgSize: 104857600,
    },
    // Empty endpoint: no Docker. Must be in the file (2.5 ignores an empty CORE_VM_ENDPOINT).
    vm: { endpoint: "" },
    chaincode: {
      externalBuilders: o.externalBuilders.map((b) => ({
        name: b.name,
        path: b.path,
        propagateEnvironment: b.propagateEnvironment ?? ["CHAINCODE_AS_A_SERVICE_BUILDER_CONFIG"],
      })),
      installTimeout: "300s",
      startuptimeout: "300s",
      executetimeout: "30s",
      mode: "net",
      keepalive: 0,
      // Without this allowlist no system chaincode is deployed: JoinChain and _lifecycle would fail.
      system: { _lifecycle: "enable", cscc: "enable", lscc: "enable", qscc: "enable" },
      logging: { level: "info", shim: o.chaincodeLogLevel ?? "warning" },
    },
    ledger: {
      state: { stateDatabase: "goleveldb", totalQueryLimit: 100000 },
      history: { enableHistoryDatabase: true },
      pvtdataStore: {
        collElgProcMaxDbBatchSize: 5000,
        collElgProcDbBatchesInterval: 1000,
        deprioritizedDataReconcilerInterval: "60m",
        purgeInterval: 100,
        purgedKeyAuditLogging: true,
      },
      // The upstream default is under /var/hyperledger, which an unprivileged user can't create.
      snapshots: { rootDir: o.snapshotsDir ?? `${o.fileSystemPath}/snapshots` },
    },
    operations: {
      listenAddress: o.operationsListenAddress,
      tls: { enabled: false },
    },
    metrics: { provider: "prometheus" },
  };
}

/** Renders {@link buildCoreYaml} as YAML text. */
export function renderCoreYaml(o: PeerConfigOptions): string {
  return `# Generated by ChainLaunch for peer ${o.peerId} (Fabric ${o.version}). Edits are overwritten.\n${stringify(
    buildCoreYaml(o),
    { lineWidth: 0 },
  )}`;
}
