import { nodeResponse } from "../nodes/nodes.schema.js";
import { z } from "zod";
import { dbId, lazySchema, offsetQuery } from "../../http/schema-helpers.js";

const int32 = lazySchema(() => dbId());
const pem = lazySchema(() => z.string().min(20).max(20_000));
const duration = lazySchema(() =>
  z
    .string()
    .max(32)
    .regex(/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/, "must be a Go duration such as 2s or 500ms"),
);
const policy = lazySchema(() =>
  z
    .object({
      type: z.enum(["Signature", "ImplicitMeta"]).describe("Signature (policy DSL) or ImplicitMeta"),
      rule: z.string().min(1).max(2000).describe("OR('Org1MSP.admin') or MAJORITY Admins"),
    })
    .strict()
    .describe("A channel policy"),
);
const policies = lazySchema(() => z.record(z.string().min(1).max(100), policy));
const capabilities = lazySchema(() => z.array(z.string().regex(/^V\d+_\d+$/, "must look like V2_0")).max(10));

const orgConfig = lazySchema(() =>
  z
    .object({
      id: int32.describe("Organization id (this console)"),
      nodeIds: z.array(int32).max(50).default([]).describe("Node ids of this org to put in the channel"),
    })
    .strict(),
);

const externalOrg = lazySchema(() =>
  z
    .object({
      mspid: z.string().min(1).max(100).describe("MSP id of an organization this console does not hold"),
      signCACert: pem.describe("Its sign CA certificate (PEM)"),
      tlsCACert: pem.describe("Its TLS CA certificate (PEM)"),
      consenters: z
        .array(
          z
            .object({
              host: z.string().min(1).max(253).describe("Consenter host"),
              port: z.number().int().min(1).max(65535).describe("Consenter port"),
              tlsCert: pem.describe("Its TLS certificate (PEM), client and server"),
            })
            .strict(),
        )
        .max(20)
        .default([])
        .describe("Raft consenters of this orderer org"),
    })
    .strict(),
);

const etcdRaftOptions = lazySchema(() =>
  z
    .object({
      tickInterval: duration.optional().describe("Raft tick, e.g. 500ms"),
      electionTick: z.number().int().min(1).max(1000).optional().describe("Ticks before an election"),
      heartbeatTick: z.number().int().min(1).max(1000).optional().describe("Ticks between heartbeats"),
      maxInflightBlocks: z.number().int().min(1).max(1000).optional().describe("Blocks in flight"),
      snapshotIntervalSize: dbId().optional().describe("Bytes between snapshots"),
    })
    .strict(),
);

const batchSize = lazySchema(() =>
  z
    .object({
      maxMessageCount: z.number().int().min(1).max(100_000).optional().describe("Messages per block"),
      absoluteMaxBytes: z
        .number()
        .int()
        .min(1)
        .max(2 ** 32 - 1)
        .optional()
        .describe("Hard block size limit in bytes (uint32, as Fabric's BatchSize has it)"),
      preferredMaxBytes: z
        .number()
        .int()
        .min(1)
        .max(2 ** 32 - 1)
        .optional()
        .describe("Preferred block size in bytes (uint32)"),
    })
    .strict(),
);

const smartBftOptions = lazySchema(() =>
  z
    .object({
      requestBatchMaxCount: z.number().int().min(1).max(1_000_000).optional().describe("Requests per batch"),
      requestBatchMaxBytes: z.number().int().min(1).max(1_000_000_000).optional().describe("Bytes per batch"),
      requestBatchMaxInterval: duration.optional().describe("Max wait for a batch"),
      incomingMessageBufferSize: z.number().int().min(1).max(1_000_000).optional().describe("Message buffer"),
      requestPoolSize: z.number().int().min(1).max(1_000_000).optional().describe("Request pool size"),
      requestForwardTimeout: duration.optional().describe("Forward timeout"),
      requestComplainTimeout: duration.optional().describe("Complain timeout"),
      requestAutoRemoveTimeout: duration.optional().describe("Auto-remove timeout"),
      requestMaxBytes: z.number().int().min(1).max(1_000_000_000).optional().describe("Max request size"),
      viewChangeResendInterval: duration.optional().describe("View change resend interval"),
      viewChangeTimeout: duration.optional().describe("View change timeout"),
      leaderHeartbeatTimeout: duration.optional().describe("Leader heartbeat timeout"),
      leaderHeartbeatCount: z.number().int().min(1).max(1000).optional().describe("Heartbeats per timeout"),
      collectTimeout: duration.optional().describe("Collect timeout"),
      syncOnStart: z.boolean().optional().describe("Sync on start"),
      speedUpViewChange: z.boolean().optional().describe("Speed up view change"),
      leaderRotation: z
        .enum(["ROTATION_UNSPECIFIED", "ROTATION_OFF", "ROTATION_ON", "unspecified", "off", "on"])
        .optional()
        .describe("Leader rotation"),
      decisionsPerLeader: z.number().int().min(0).max(1_000_000).optional().describe("Decisions per leader"),
    })
    .strict(),
);

export const fabricNetworkConfig = lazySchema(() =>
  z
    .object({
      peerOrganizations: z.array(orgConfig).max(20).default([]).describe("Peer (application) orgs and their peers"),
      ordererOrganizations: z.array(orgConfig).min(1).max(20).describe("Orderer orgs and their orderers (consenters)"),
      externalPeerOrgs: z.array(externalOrg).max(20).default([]).describe("Peer orgs held elsewhere"),
      externalOrdererOrgs: z.array(externalOrg).max(20).default([]).describe("Orderer orgs held elsewhere"),
      consensusType: z
        .enum(["etcdraft", "smartbft", "BFT"])
        .default("etcdraft")
        .describe("etcdraft, or BFT (smartbft) on Fabric 3.x"),
      etcdRaftOptions: etcdRaftOptions.optional().describe("Raft options"),
      smartBFTOptions: smartBftOptions.optional().describe("smartbft.Options; unset fields take the defaults"),
      smartBFTConsenters: z
        .array(
          z
            .object({
              id: z.number().int().optional().describe("Consenter id"),
              address: z
                .object({ host: z.string().max(253).describe("Host"), port: z.number().int().describe("Port") })
                .optional()
                .describe("Endpoint"),
              mspId: z.string().max(100).optional().describe("MSP id"),
              identity: z.string().max(20_000).optional().describe("Identity certificate (PEM)"),
              clientTLSCert: z.string().max(20_000).optional().describe("Client TLS certificate"),
              serverTLSCert: z.string().max(20_000).optional().describe("Server TLS certificate"),
            })
            .strict(),
        )
        .max(0, "BFT consenters are derived from the orderer nodes listed in ordererOrganizations; leave this empty")
        .optional()
        .describe("Must be empty: BFT consenters are the orderer nodes listed in ordererOrganizations"),
      batchSize: batchSize.optional().describe("Batch size"),
      batchTimeout: duration.optional().describe("Batch timeout, e.g. 2s"),
      channelCapabilities: capabilities.optional().describe("Channel capabilities (default V2_0; V3_0 for BFT)"),
      ordererCapabilities: capabilities.optional().describe("Orderer capabilities"),
      applicationCapabilities: capabilities.optional().describe("Application capabilities"),
      channelPolicies: policies.optional().describe("Channel policies replacing the defaults of the same name"),
      ordererPolicies: policies.optional().describe("Orderer policies replacing the defaults"),
      applicationPolicies: policies.optional().describe("Application policies replacing the defaults"),
    })
    .strict()
    .describe("Channel parameters"),
);
export type FabricNetworkConfig = z.infer<typeof fabricNetworkConfig>;

export const createFabricNetworkBody = lazySchema(() =>
  z
    .object({
      name: z.string().min(1).max(249).describe("Channel name (Fabric rules: [a-z][a-z0-9.-]*)"),
      description: z.string().max(1000).optional().describe("Free text"),
      config: fabricNetworkConfig,
      joinNodes: z
        .boolean()
        .default(false)
        .describe("Join every listed orderer and peer right after creation (progress in GET .../nodes)"),
    })
    .strict(),
);
export type CreateFabricNetworkBody = z.infer<typeof createFabricNetworkBody>;

export const fabricNetworkResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("Network id"),
      name: z.string().describe("Channel name"),
      description: z.string().describe("Free text"),
      platform: z.literal("FABRIC").describe("Platform"),
      status: z
        .string()
        .describe(
          "From the nodes: genesis_block_created or imported (none joined yet), join_failed, partially_joined, running, degraded (a joined node is not running), stopped (no joined orderer runs)",
        ),
      config: z.string().describe("The creation parameters, base64 of their JSON"),
      deploymentConfig: z.string().describe("Unused (empty)"),
      domain: z.string().describe("Unused (empty)"),
      exposedPorts: z.array(z.number().int()).describe("Unused (empty)"),
      genesisBlock: z.string().describe("The genesis block, base64 of its protobuf"),
      currentConfigBlock: z
        .string()
        .describe("The newest config block as last read by reload-block, base64 of its protobuf (empty until then)"),
      createdBy: z.number().int().nullable().describe("Unused (null)"),
      createdAt: z.string().describe("Creation time"),
      updatedAt: z.string().describe("Last change"),
    })
    .describe("A Fabric network (channel)")
    .meta({ id: "FabricNetwork" }),
);
export type FabricNetworkResponse = z.infer<typeof fabricNetworkResponse>;

export const joinStatus = lazySchema(() => z.enum(["pending", "joined", "failed", "unjoined"]));

export const networkNodeResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("Membership id"),
      networkId: z.number().int().describe("Network id"),
      nodeId: z.number().int().describe("Node id"),
      role: z.enum(["peer", "orderer"]).describe("peer or orderer"),
      status: joinStatus.describe("Where the node's join stands"),
      error: z.string().optional().describe("Why the last join or unjoin failed"),
      node: nodeResponse.optional().describe("The node (absent if it was deleted)"),
      createdAt: z.string().describe("Added"),
      updatedAt: z.string().describe("Last status change"),
    })
    .meta({ id: "FabricNetworkNode" }),
);
export type NetworkNodeResponse = z.infer<typeof networkNodeResponse>;

export const addNodeBody = lazySchema(() =>
  z
    .object({
      nodeId: int32.describe("Node id"),
      role: z.enum(["peer", "orderer"]).describe("peer or orderer"),
    })
    .strict(),
);

export const listQuery = lazySchema(() =>
  z
    .object({
      limit: z.coerce.number().int().min(1).max(1000).default(10).describe("Page size"),
      offset: offsetQuery().describe("Offset"),
      name: z.string().max(100).optional().describe("Part of the name"),
    })
    .strict(),
);

export const importFabricNetworkBody = lazySchema(() =>
  z
    .object({
      description: z.string().max(1000).optional().describe("Free text"),
      genesisFile: z
        .string()
        .max(1_000_000)
        .describe("Base64 of the channel's genesis block (or a later config block), e.g. `base64 -w0 genesis.block`"),
    })
    .strict(),
);

export const importFabricNetworkWithOrgBody = lazySchema(() =>
  z
    .object({
      channelId: z.string().max(249).describe("Name of the existing channel"),
      description: z.string().max(1000).optional().describe("Free text"),
      ordererTlsCert: z
        .string()
        .max(100_000)
        .optional()
        .describe("PEM of the TLS CA certificate that issued the orderer's TLS certificate (with ordererUrl)"),
      ordererUrl: z
        .string()
        .max(300)
        .optional()
        .describe("An orderer of the channel: host:port or grpcs://host:port (or give externalOrdererId)"),
      externalOrdererId: int32
        .optional()
        .describe(
          "Instead of ordererUrl and ordererTlsCert: an external orderer (GET /external-nodes/fabric-orderers), whose endpoint and TLS CA certificate are used",
        ),
      organizationId: int32.describe("An organization of this console that is a member of the channel (reads it)"),
    })
    .strict(),
);

export const importNetworkResponse = lazySchema(() =>
  z
    .object({
      message: z.string().describe("What was imported"),
      networkId: z.number().int().describe("The new network's id"),
    })
    .meta({ id: "ImportNetworkResponse" }),
);
