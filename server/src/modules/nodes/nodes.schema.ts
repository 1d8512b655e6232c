import { z } from "zod";
import { builtOnce, dbId, dbIdQuery, idPathParams, lazySchema } from "../../http/schema-helpers.js";

export const PLATFORMS = ["FABRIC", "BESU"] as const;
export const NODE_TYPES = ["FABRIC_PEER", "FABRIC_ORDERER", "BESU_FULLNODE"] as const;
export const NODE_STATUSES = ["PENDING", "STARTING", "RUNNING", "ERROR", "STOPPING", "STOPPED"] as const;
export type Platform = (typeof PLATFORMS)[number];
export type NodeType = (typeof NODE_TYPES)[number];

const address = lazySchema(() => z.string().trim().max(300).describe("host:port"));
const env = lazySchema(() =>
  z
    .record(
      z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, "must be an environment variable name"),
      z.string().max(4096),
    )
    .describe("Extra environment variables for the process"),
);
const domainNames = lazySchema(() =>
  z.array(z.string().trim().min(1).max(253)).max(50).describe("Extra DNS names or IPs for the TLS certificate"),
);
/** A release number, never a path: it names a folder of the Besu cache and the image tag. */
const besuVersion = lazySchema(() =>
  z
    .string()
    .max(32)
    .regex(/^$|^\d+\.\d+\.\d+(?:-[A-Za-z0-9]+)?$/, "must be a release number like 25.6.0"),
);
const mode = lazySchema(() =>
  z
    .enum(["service", "docker"])
    .describe("Deployment mode: service (a child process, the default) or docker (a container; Fabric nodes)"),
);
const addressOverride = lazySchema(() =>
  z
    .object({
      from: z.string().max(300).describe("Address in the channel config"),
      to: z.string().max(300).describe("Address to dial instead"),
      tlsCACert: z
        .string()
        .max(20_000)
        .default("")
        .describe("TLS CA certificate (PEM) of the `to` endpoint; when empty, the channel's TLS roots are used"),
    })
    .strict(),
);
const compat = builtOnce(() => ({
  autoRenewalDays: z
    .number()
    .int()
    .min(0)
    .max(3650)
    .optional()
    .describe("Accepted for compatibility; not used yet (0, Go's zero, is unset)"),
  autoRenewalEnabled: z.boolean().optional().describe("Accepted for compatibility; not used yet"),
  certificateExpiration: z
    .number()
    .int()
    .min(0)
    .max(3650)
    .optional()
    .describe("Certificate validity in days (365; 0, Go's zero, is the default)"),
  mode: mode.optional(),
  type: z.string().max(32).optional().describe("Node type hint (fabric-peer, fabric-orderer, besu); ignored"),
  name: z.string().max(100).optional().describe("Ignored: the top-level name names the node"),
}));

const fabricCommon = builtOnce(() => ({
  organizationId: dbId().describe("Organization that owns the node"),
  mspId: z.string().trim().min(1).max(249).describe("MSP id; must be the organization's"),
  listenAddress: address.optional().describe("gRPC listen address, e.g. 0.0.0.0:7051 (proposed when absent)"),
  externalEndpoint: address.optional().describe("Endpoint other nodes and clients dial, host:port"),
  operationsListenAddress: address.optional().describe("Operations (/healthz, /metrics) listen address"),
  domainNames: domainNames.optional(),
  env: env.optional(),
  version: z.string().max(32).optional().describe("Fabric version, e.g. 3.1.5 (default: newest installed)"),
  addressOverrides: z.array(addressOverride).max(50).optional().describe("Address overrides"),
  dockerEngine: z
    .string()
    .max(64)
    .optional()
    .describe("Mode docker: the engine to run on, 'local' (default) or a registered engine's name"),
  ...compat(),
}));

export const fabricPeerConfig = lazySchema(() =>
  z
    .object({
      ...fabricCommon(),
      chaincodeAddress: address.optional().describe("Chaincode listen address (each peer needs its own port)"),
      eventsAddress: address
        .optional()
        .describe("Stored and echoed for upstream's clients; nothing listens there (Fabric 2+ has no event hub)"),
      ordererAddressOverrides: z
        .array(addressOverride)
        .max(50)
        .optional()
        .describe("Orderer endpoints the peer dials elsewhere (peer.deliveryclient.addressOverrides)"),
    })
    .strict()
    .describe("Fabric peer"),
);
export type FabricPeerConfig = z.infer<typeof fabricPeerConfig>;

export const fabricOrdererConfig = lazySchema(() =>
  z
    .object({
      ...fabricCommon(),
      adminAddress: address.optional().describe("Channel participation (osnadmin) listen address"),
    })
    .strict()
    .describe("Fabric orderer"),
);
export type FabricOrdererConfig = z.infer<typeof fabricOrdererConfig>;

/** External Besu nodes (synced from other consoles) whose enode URLs join the bootnodes. */
const externalBootnodeIds = lazySchema(() =>
  z
    .array(dbId())
    .max(100)
    .optional()
    .describe(
      "External Besu nodes (GET /external-nodes/besu-nodes) used as bootnodes: their enode URLs are added to the bootnodes, without duplicates",
    ),
);
const port = lazySchema(() => z.number().int().min(1).max(65535));
export const besuNodeConfig = lazySchema(() =>
  z
    .object({
      networkId: dbId().describe("Besu network (its genesis) the node runs"),
      keyId: dbId().describe("secp256k1 node key"),
      externalIp: z.string().trim().min(1).max(253).describe("Advertised IP (enode host)"),
      internalIp: z.string().trim().min(1).max(253).describe("Internal IP"),
      p2pHost: z.string().trim().min(1).max(253).describe("P2P listen interface"),
      p2pPort: port.describe("P2P port"),
      rpcHost: z.string().trim().min(1).max(253).describe("JSON-RPC HTTP host"),
      rpcPort: port.describe("JSON-RPC HTTP port"),
      metricsEnabled: z.boolean().optional().describe("Prometheus metrics (default true)"),
      metricsPort: port.optional().describe("Metrics port (default 9545)"),
      metricsProtocol: z
        .string()
        .regex(/^(prometheus|opentelemetry)$/i, "must be PROMETHEUS or OPENTELEMETRY (any case)")
        .transform((v) => v.toUpperCase() as "PROMETHEUS" | "OPENTELEMETRY")
        .optional()
        .describe("Metrics protocol: PROMETHEUS or OPENTELEMETRY, in any case"),
      bootNodes: z.array(z.string().max(400)).max(100).optional().describe("Bootnode enode URLs"),
      externalBootnodeIds,
      minGasPrice: z.number().int().min(0).optional().describe("Minimum gas price, wei"),
      hostAllowList: z.string().max(1000).optional().describe("Comma-separated host allow-list (default *)"),
      accountsAllowList: z.array(z.string().max(42)).max(1000).optional().describe("Accounts allow-list"),
      nodesAllowList: z.array(z.string().max(400)).max(1000).optional().describe("Nodes allow-list (enode URLs)"),
      jwtEnabled: z.boolean().optional().describe("JWT authentication of JSON-RPC"),
      jwtPublicKeyContent: z.string().max(20_000).optional().describe("JWT public key (PEM)"),
      jwtAuthenticationAlgorithm: z
        .enum(["RS256", "RS384", "RS512", "ES256", "ES384", "ES512"])
        .optional()
        .describe("JWT algorithm"),
      env: env.optional(),
      version: besuVersion.optional().describe("Besu release (25.6.0); names the binary to use or download"),
      mode: mode.optional(),
      type: z.string().max(32).optional().describe("Node type hint; ignored"),
    })
    .strict()
    .describe("Besu node"),
);
export type BesuNodeConfig = z.infer<typeof besuNodeConfig>;

export const nodeName = lazySchema(() =>
  z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/, "letters, digits, space, dot, underscore and dash only")
    .describe("Node name, unique"),
);

export const createNodeBody = lazySchema(() =>
  z
    .object({
      name: nodeName,
      blockchainPlatform: z.enum(PLATFORMS).describe("FABRIC or BESU"),
      fabricPeer: fabricPeerConfig.optional(),
      fabricOrderer: fabricOrdererConfig.optional(),
      besuNode: besuNodeConfig.optional(),
    })
    .strict()
    .describe("A new node: exactly one of fabricPeer, fabricOrderer or besuNode"),
);
export type CreateNodeBody = z.infer<typeof createNodeBody>;

export const createNodeQuery = lazySchema(() =>
  z
    .object({
      start: z
        .enum(["true", "false"])
        .default("true")
        .transform((v) => v === "true")
        .describe("Start the node right after creating it (default true)"),
    })
    .strict(),
);

/**
 * Fields of the node's read shape (types.FabricPeerConfig / FabricOrdererConfig) that clients echo
 * back into an update, as the upstream server accepts them. They can't change a node: a value that
 * differs from the node's own is refused naming the field; an equal one is accepted.
 */
const updateEcho = builtOnce(() => ({
  organizationId: dbId().optional().describe("The node's organization (read shape; cannot change)"),
  mspId: z.string().max(249).optional().describe("The node's MSP id (read shape; cannot change)"),
  name: z.string().max(100).optional().describe("The node's name (read shape; rename with the top-level name)"),
  type: z.string().max(32).optional().describe("The node's type (read shape; cannot change)"),
  certificateExpiration: z
    .number()
    .int()
    .min(0)
    .max(3650)
    .optional()
    .describe("Certificate validity in days, used when certificates are next issued (0, Go's zero, keeps it)"),
  autoRenewalEnabled: z.boolean().optional().describe("Accepted for compatibility; not used yet"),
  autoRenewalDays: z
    .number()
    .int()
    .min(0)
    .max(3650)
    .optional()
    .describe("Accepted for compatibility; not used yet (0, Go's zero, is unset)"),
}));
const updateFabricCommon = builtOnce(() => ({
  ...updateEcho(),
  listenAddress: address.optional().describe("gRPC listen address"),
  externalEndpoint: address.optional().describe("External endpoint"),
  operationsListenAddress: address.optional().describe("Operations listen address"),
  domainNames: domainNames.optional(),
  env: env.optional(),
  version: z.string().max(32).optional().describe("Fabric version"),
  mode: mode.optional(),
}));
export const updateNodeBody = lazySchema(() =>
  z
    .object({
      name: nodeName.optional(),
      blockchainPlatform: z.enum(PLATFORMS).optional().describe("Must match the node's platform"),
      fabricPeer: z
        .object({
          ...updateFabricCommon(),
          chaincodeAddress: address.optional().describe("Chaincode listen address"),
          eventsAddress: address
            .optional()
            .describe("Stored and echoed; nothing listens there (no event hub in Fabric 2+)"),
          addressOverrides: z.array(addressOverride).max(50).optional().describe("Address overrides"),
          ordererAddressOverrides: z
            .array(addressOverride)
            .max(50)
            .optional()
            .describe("Orderer endpoints the peer dials elsewhere"),
        })
        .strict()
        .optional()
        .describe("Peer changes"),
      fabricOrderer: z
        .object({ ...updateFabricCommon(), adminAddress: address.optional().describe("Admin listen address") })
        .strict()
        .optional()
        .describe("Orderer changes"),
      besuNode: z
        .object({
          externalIp: z.string().trim().min(1).max(253).optional().describe("Advertised IP"),
          internalIp: z.string().trim().min(1).max(253).optional().describe("Internal IP"),
          p2pHost: z.string().trim().min(1).max(253).optional().describe("P2P interface"),
          p2pPort: port.optional().describe("P2P port"),
          rpcHost: z.string().trim().min(1).max(253).optional().describe("RPC host"),
          rpcPort: port.optional().describe("RPC port"),
          metricsEnabled: z.boolean().optional().describe("Metrics"),
          metricsPort: port.optional().describe("Metrics port"),
          bootnodes: z.array(z.string().max(400)).max(100).optional().describe("Bootnode enode URLs"),
          externalBootnodeIds,
          minGasPrice: z.number().int().min(0).optional().describe("Minimum gas price"),
          hostAllowList: z.string().max(1000).optional().describe("Host allow-list"),
          accountsAllowList: z.array(z.string().max(42)).max(1000).optional().describe("Accounts allow-list"),
          nodesAllowList: z.array(z.string().max(400)).max(1000).optional().describe("Nodes allow-list"),
          jwtEnabled: z.boolean().optional().describe("JWT authentication"),
          jwtPublicKeyContent: z.string().max(20_000).optional().describe("JWT public key"),
          jwtAuthenticationAlgorithm: z
            .enum(["RS256", "RS384", "RS512", "ES256", "ES384", "ES512"])
            .optional()
            .describe("JWT algorithm"),
          env: env.optional(),
          networkId: dbId().optional().describe("Network; must stay the same"),
          version: besuVersion.optional().describe("Besu release"),
          mode: mode.optional(),
        })
        .strict()
        .optional()
        .describe("Besu node changes"),
    })
    .strict()
    .describe("Changes to a node; its config is regenerated and it restarts"),
);
export type UpdateNodeBody = z.infer<typeof updateNodeBody>;

const addressOverrideOut = lazySchema(() =>
  z.object({
    from: z.string().describe("Address in the channel config"),
    to: z.string().describe("Address dialled instead"),
    tlsCACert: z.string().describe("TLS CA certificate of `to`"),
  }),
);
const fabricOut = builtOnce(() => ({
  organizationId: z.number().int().describe("Owning organization"),
  mspId: z.string().describe("MSP id"),
  listenAddress: z.string().describe("gRPC listen address"),
  externalEndpoint: z.string().describe("External endpoint"),
  operationsAddress: z.string().describe("Operations listen address"),
  domainNames: z.array(z.string()).describe("Extra TLS names"),
  mode: z.string().describe("Deployment mode: service or docker"),
  dockerEngine: z.string().optional().describe("Mode docker: the engine it runs on (local or a registered name)"),
  version: z.string().describe("Fabric version"),
  signKeyId: z.number().int().describe("Signing identity key"),
  tlsKeyId: z.number().int().describe("TLS key"),
  signCert: z.string().describe("Signing certificate (PEM)"),
  tlsCert: z.string().describe("TLS certificate (PEM)"),
  signCaCert: z.string().describe("Organization sign CA (PEM)"),
  tlsCaCert: z.string().describe("Organization TLS CA (PEM)"),
  externalNodeId: z.number().int().optional().describe("Unused (external nodes)"),
}));
export const fabricPeerProperties = lazySchema(() =>
  z
    .object({
      ...fabricOut(),
      chaincodeAddress: z.string().describe("Chaincode listen address"),
      eventsAddress: z.string().describe("As given on create or update (empty when none); nothing listens there"),
      addressOverrides: z.array(addressOverrideOut).describe("Address overrides"),
    })
    .describe("Peer properties"),
);
export const fabricOrdererProperties = lazySchema(() =>
  z
    .object({ ...fabricOut(), adminAddress: z.string().describe("Channel participation API address") })
    .describe("Orderer properties"),
);
export const besuNodeProperties = lazySchema(() =>
  z
    .object({
      networkId: z.number().int().describe("Besu network"),
      keyId: z.number().int().describe("Node key"),
      enodeUrl: z.string().describe("enode URL"),
      externalIp: z.string().describe("Advertised IP"),
      internalIp: z.string().describe("Internal IP"),
      p2pHost: z.string().describe("P2P interface"),
      p2pPort: z.number().int().describe("P2P port"),
      rpcHost: z.string().describe("RPC host"),
      rpcPort: z.number().int().describe("RPC port"),
      metricsEnabled: z.boolean().describe("Metrics on"),
      metricsHost: z.string().describe("Metrics host"),
      metricsPort: z.number().int().describe("Metrics port"),
      metricsProtocol: z.string().describe("Metrics protocol"),
      bootNodes: z.array(z.string()).describe("Bootnodes"),
      minGasPrice: z.number().describe("Minimum gas price"),
      hostAllowList: z.string().describe("Host allow-list"),
      accountsAllowList: z.array(z.string()).describe("Accounts allow-list"),
      nodesAllowList: z.array(z.string()).describe("Nodes allow-list"),
      jwtEnabled: z.boolean().describe("JWT authentication"),
      jwtPublicKeyContent: z.string().describe("JWT public key"),
      jwtAuthenticationAlgorithm: z.string().describe("JWT algorithm"),
      mode: z.string().describe("Deployment mode"),
      version: z.string().describe("Besu version"),
      externalNodeId: z.number().int().optional().describe("Unused (external nodes)"),
    })
    .describe("Besu node properties"),
);

export const nodeResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("Node id"),
      name: z.string().describe("Name"),
      platform: z.enum(PLATFORMS).describe("FABRIC or BESU"),
      nodeType: z.enum(NODE_TYPES).describe("FABRIC_PEER, FABRIC_ORDERER or BESU_FULLNODE"),
      status: z.enum(NODE_STATUSES).describe("Process status"),
      errorMessage: z.string().optional().describe("Why the node is in ERROR (with its last log lines)"),
      endpoint: z.string().describe("External endpoint"),
      createdAt: z.string().describe("Creation time"),
      updatedAt: z.string().describe("Last change"),
      fabricPeer: fabricPeerProperties.optional(),
      fabricOrderer: fabricOrdererProperties.optional(),
      besuNode: besuNodeProperties.optional(),
    })
    .describe("A node")
    .meta({ id: "NodeResponse" }),
);
export type NodeResponse = z.infer<typeof nodeResponse>;

export const paginatedNodes = lazySchema(() =>
  z
    .object({
      items: z.array(nodeResponse).describe("This page"),
      total: z.number().int().describe("Matching nodes"),
      page: z.number().int().describe("Page number (from 1)"),
      pageCount: z.number().int().describe("Number of pages"),
      hasNextPage: z.boolean().describe("Whether another page follows"),
    })
    .describe("A page of nodes"),
);

const pageParams = builtOnce(() => ({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1).describe("Page number"),
  limit: z.coerce.number().int().min(1).max(1000).default(10).describe("Items per page"),
}));
export const listNodesQuery = lazySchema(() =>
  z
    .object({
      ...pageParams(),
      name: z.string().max(100).optional().describe("Part of the name (case-insensitive on SQLite)"),
      slug: z.string().max(100).optional().describe("Exact slug"),
      status: z.enum(NODE_STATUSES).optional().describe("Status"),
      platform: z.enum(PLATFORMS).optional().describe("Platform"),
      nodeType: z.enum(NODE_TYPES).optional().describe("Node type"),
      networkId: dbIdQuery().optional().describe("Besu network"),
      organizationId: dbIdQuery().optional().describe("Organization (Fabric)"),
    })
    .strict(),
);
export const pageQuery = lazySchema(() => z.object(pageParams()).strict());

export const idParams = idPathParams("Node id");

export const nodeEvent = lazySchema(() =>
  z.object({
    id: z.number().int().describe("Event id"),
    node_id: z.number().int().describe("Node id"),
    type: z.string().describe("status, crash, spawned, adopted, created, updated, certificates_renewed…"),
    data: z.record(z.string(), z.unknown()).describe("Event details"),
    created_at: z.string().describe("When"),
  }),
);
export const paginatedEvents = lazySchema(() =>
  z
    .object({
      items: z.array(nodeEvent).describe("Newest first"),
      total: z.number().int().describe("Events of the node"),
      page: z.number().int().describe("Page number"),
    })
    .describe("A page of node events"),
);

export const logsQuery = lazySchema(() =>
  z
    .object({
      tail: z.coerce.number().int().min(0).max(10_000).default(100).describe("Lines from the end"),
      follow: z
        .enum(["true", "false", "1", "0"])
        .default("false")
        .transform((v) => v === "true" || v === "1")
        .describe("Keep streaming new lines until the client disconnects"),
    })
    .strict(),
);

export const HEALTH_STATUSES = ["healthy", "unhealthy", "unreachable"] as const;
export const healthStatus = lazySchema(() =>
  z
    .object({
      nodeId: z.number().int().describe("Node id"),
      nodeName: z.string().optional().describe("Node name (signed-in callers only)"),
      platform: z.string().optional().describe("Platform (signed-in callers only)"),
      endpoint: z.string().optional().describe("The URL checked (signed-in callers only)"),
      status: z.enum(HEALTH_STATUSES).describe("healthy, unhealthy or unreachable"),
      responseTimeMs: z.number().int().describe("Time to answer"),
      errorMessage: z.string().optional().describe("Why it is not healthy (signed-in callers only)"),
      lastChecked: z.string().describe("When it was checked"),
      metadata: z
        .record(z.string(), z.unknown())
        .optional()
        .describe("The health body and HTTP status (signed-in callers only)"),
    })
    .describe("A node's latest health; without credentials only its status and timing"),
);
export const healthHistoryQuery = lazySchema(() =>
  z
    .object({
      start_time: z.string().datetime({ offset: true }).optional().describe("Start (RFC 3339)"),
      end_time: z.string().datetime({ offset: true }).optional().describe("End (RFC 3339)"),
      hours: z.coerce
        .number()
        .int()
        .min(1)
        .max(24 * 90)
        .optional()
        .describe("Hours back from now (default 24)"),
    })
    .strict(),
);
export const healthHistory = lazySchema(() =>
  z
    .object({
      nodeId: z.number().int().describe("Node id"),
      nodeName: z.string().optional().describe("Node name (signed-in callers only)"),
      platform: z.string().optional().describe("Platform (signed-in callers only)"),
      interval: z.string().describe("Polling interval"),
      timeRange: z.object({ startTime: z.string().describe("Start"), endTime: z.string().describe("End") }),
      healthchecks: z.array(
        z.object({
          checkedAt: z.string().describe("When"),
          status: z.enum(HEALTH_STATUSES).describe("Result"),
          responseTimeMs: z.number().int().describe("Time to answer"),
          errorMessage: z.string().optional().describe("Why not healthy (signed-in callers only)"),
          metadata: z.record(z.string(), z.unknown()).optional().describe("Details (signed-in callers only)"),
        }),
      ),
      summary: z.object({
        totalChecks: z.number().int().describe("Checks in the range"),
        healthyCount: z.number().int().describe("Healthy checks"),
        unhealthyCount: z.number().int().describe("Unhealthy or unreachable checks"),
        uptime: z.number().describe("Healthy share, percent"),
        avgResponseMs: z.number().describe("Mean response time"),
      }),
    })
    .describe("Stored health checks of a node"),
);
