import { z } from "zod";
import { builtOnce, dbId, lazySchema, MAX_DB_ID } from "../../http/schema-helpers.js";

const id = lazySchema(() => z.coerce.number().int().min(1).max(MAX_DB_ID));
export const chaincodeIdParams = lazySchema(() => z.object({ id: id.describe("Chaincode id") }).strict());
export const chaincodeParams = lazySchema(() => z.object({ chaincodeId: id.describe("Chaincode id") }).strict());
export const definitionParams = lazySchema(() =>
  z.object({ definitionId: id.describe("Chaincode definition id") }).strict(),
);
export const chaincodeDefinitionParams = lazySchema(() =>
  z.object({ chaincodeId: id.describe("Chaincode id"), definitionId: id.describe("Chaincode definition id") }).strict(),
);
export const peerParams = lazySchema(() => z.object({ peerId: id.describe("Peer node id") }).strict());
export const networkParams = lazySchema(() => z.object({ id: id.describe("Fabric network (channel) id") }).strict());

export const SOURCE_TYPES = ["docker", "node", "go", "executable", "none"] as const;
export const DEPLOY_STATUSES = ["none", "building", "running", "stopped", "error"] as const;
/**
 * console: created and driven here; adopted: committed on the channel outside this console, read from
 * the peers; package: recorded by upstream's per-peer lifecycle or one-shot deploy, with the caller's package.
 */
export const DEFINITION_ORIGINS = ["console", "adopted", "package"] as const;
const origin = lazySchema(() =>
  z
    .enum(DEFINITION_ORIGINS)
    .describe(
      "console: created here and taken through the lifecycle by this console; adopted: committed on the channel outside this console (peer CLI, another console) and recorded from the peers; package: approved or committed through /sc/fabric/peer/{peerId}/chaincode/* or /sc/fabric/deploy with the caller's package",
    ),
);

export const chaincodeResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("Chaincode id"),
      name: z.string().describe("Chaincode name on the channel"),
      network_id: z.number().int().describe("The Fabric network (channel)"),
      network_name: z.string().describe("Channel name"),
      network_platform: z.string().describe("FABRIC"),
      created_at: z.string().describe("Creation time"),
      definitions_count: z.number().int().describe("Number of definitions"),
      latest_definition: z
        .object({
          id: z.number().int(),
          version: z.string(),
          sequence: z.number().int(),
          deploy_status: z.enum(DEPLOY_STATUSES),
          origin,
        })
        .nullable()
        .describe("The definition with the highest sequence"),
    })
    .meta({ id: "FabricChaincode" }),
);

const collection = lazySchema(() =>
  z
    .object({
      name: z.string().min(1).max(128).describe("Collection name"),
      policy: z.string().min(1).max(2000).describe("Member orgs, e.g. OR('Org1MSP.member','Org2MSP.member')"),
      requiredPeerCount: z
        .number()
        .int()
        .min(0)
        .max(100)
        .optional()
        .describe("Peers the data must reach at endorsement"),
      maxPeerCount: z.number().int().min(0).max(100).optional().describe("Peers the data is sent to at most"),
      blockToLive: z
        .number()
        .int()
        .min(0)
        .max(Number.MAX_SAFE_INTEGER)
        .optional()
        .describe("Blocks before purge; 0 = never"),
      memberOnlyRead: z.boolean().optional().describe("Only member orgs' clients may read (default true)"),
      memberOnlyWrite: z.boolean().optional().describe("Only member orgs' clients may write (default true)"),
      endorsementPolicy: z
        .object({
          signaturePolicy: z.string().max(2000).optional(),
          channelConfigPolicy: z.string().max(500).optional(),
        })
        .strict()
        .optional()
        .describe("Collection-level endorsement policy"),
    })
    .strict(),
);

export const definitionResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("Definition id"),
      chaincode_id: z.number().int().describe("Chaincode id"),
      version: z.string().describe("Version label"),
      sequence: z.number().int().describe("Definition sequence on the channel"),
      endorsement_policy: z.string().describe("Signature-policy DSL, channel policy path, or empty (channel default)"),
      docker_image: z.string().describe("Image to run (needs a Docker engine)"),
      chaincode_address: z.string().describe("host:port of the chaincode server the peers dial"),
      created_at: z.string().describe("Creation time"),
      init_required: z.boolean().describe("The chaincode's Init must be invoked first"),
      collections: z.array(collection).describe("Private data collections"),
      source_type: z.enum(SOURCE_TYPES).describe("Where the code comes from"),
      source_path: z.string().nullable().describe("Source folder or executable in the data directory"),
      tls: z.boolean().describe("TLS between peer and chaincode server"),
      package_id: z.string().nullable().describe("ccaas package id (label:sha256) once packaged"),
      environment_variables: z.record(z.string(), z.string()).describe("Extra environment of the chaincode server"),
      deploy_status: z.enum(DEPLOY_STATUSES).describe("The chaincode server's state"),
      deploy_error: z.string().nullable().describe("Why the last build or start failed"),
      origin,
      updated_at: z.string().describe("Last change"),
    })
    .meta({ id: "FabricChaincodeDefinition" }),
);

const policy = lazySchema(() => z.string().max(4000));
const envVars = lazySchema(() =>
  z
    .record(
      z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name"),
      z.string().max(10_000),
    )
    .refine((r) => Object.keys(r).length <= 100, "at most 100 variables"),
);

const definitionFields = builtOnce(() => ({
  version: z.string().min(1).max(255).describe("Version label, [A-Za-z0-9_.+-]"),
  sequence: z.number().int().min(1).max(MAX_DB_ID).describe("Must be the channel's committed sequence + 1"),
  endorsement_policy: policy.optional().describe("e.g. AND('Org1MSP.peer','Org2MSP.peer'); empty = channel default"),
  docker_image: z.string().max(500).optional().describe("Image to run; needs a Docker engine"),
  chaincode_address: z
    .string()
    .max(255)
    // Upstream's Go client sends "" when the user gave none.
    .regex(/^([A-Za-z0-9.-]+:\d{1,5})?$/, "must be host:port")
    .optional()
    .describe("host:port the peers dial; a free port is chosen when empty"),
  init_required: z.boolean().optional().describe("Require Init before other calls"),
  collections: z.array(collection).max(50).optional().describe("Private data collections"),
  source_type: z.enum(SOURCE_TYPES).optional().describe("docker, node, go, executable or none (upload later)"),
  source_path: z.string().max(4096).optional().describe("A directory (node/go) or executable on this host to copy"),
  tls: z.boolean().optional().describe("TLS between peer and chaincode server"),
  environment_variables: envVars.optional().describe("Extra environment of the chaincode server"),
}));

export const createDefinitionBody = lazySchema(() =>
  z.object({ chaincode_id: dbId().optional().describe("Chaincode id (the path's)"), ...definitionFields() }).strict(),
);
export const updateDefinitionBody = lazySchema(() => z.object(definitionFields()).strict());

export const createChaincodeBody = lazySchema(() =>
  z
    .object({
      name: z.string().min(1).max(255).describe("Chaincode name"),
      network_id: dbId().describe("Fabric network (channel) id"),
    })
    .strict(),
);

export const installBody = lazySchema(() =>
  z.object({ peer_ids: z.array(dbId()).min(1).max(100).describe("Peers to install on") }).strict(),
);
export const peerBody = lazySchema(() =>
  z.object({ peer_id: dbId().describe("A peer of the org that acts") }).strict(),
);
export const deployBody = lazySchema(() =>
  z
    .object({ environment_variables: envVars.optional().describe("Extra environment of the chaincode server") })
    .strict(),
);

const transient = lazySchema(() =>
  z
    .record(z.string().min(1).max(255), z.array(z.number().int().min(0).max(255)).max(1_000_000))
    .describe("Transient data: name → bytes"),
);
export const callBody = lazySchema(() =>
  z
    .object({
      function: z.string().min(1).max(500).describe("Function name, e.g. CreateAsset or MyContract:CreateAsset"),
      args: z.array(z.string().max(1_000_000)).max(100).default([]).describe("Arguments"),
      channel: z.string().max(249).optional().describe("Channel (must be the chaincode's)"),
      key_id: z.string().max(20).optional().describe("Key (with a certificate of a channel org) to sign with"),
      transient: transient.optional(),
    })
    .strict(),
);
export const callResponse = lazySchema(() =>
  z.object({
    status: z.string().describe("success"),
    message: z.string().describe("What happened"),
    result: z.unknown().describe("Decoded result: JSON when it parses, else text"),
    transaction_id: z.string().describe("Transaction id"),
  }),
);

export const committedChaincode = lazySchema(() =>
  z
    .object({
      name: z.string().describe("Chaincode name"),
      version: z.string().describe("Committed version"),
      sequence: z.number().int().describe("Committed sequence"),
      endorsement_plugin: z.string().describe("Endorsement plugin the peers run (escc unless the committer chose one)"),
      validation_plugin: z.string().describe("Validation plugin (vscc unless the committer chose one)"),
      endorsement_policy: z.string().describe("Signature-policy DSL, or the channel policy it references"),
      init_required: z.boolean().describe("Init must be invoked first"),
      collections: z.array(collection).describe("Private data collections"),
      chaincode_id: z
        .number()
        .int()
        .nullable()
        .describe("This console's chaincode record (null: it could not be made)"),
      definition_id: z
        .number()
        .int()
        .nullable()
        .describe("This console's definition at the committed sequence (null: it could not be made)"),
      origin: origin
        .nullable()
        .describe("Who made that definition: console, or adopted (committed outside this console)"),
      adopted_now: z
        .boolean()
        .describe("This call recorded the definition: the console had no definition at that sequence before"),
      error: z.string().optional().describe("Why the definition could not be recorded"),
    })
    .meta({ id: "FabricCommittedChaincode" }),
);

export const committedResponse = lazySchema(() =>
  z.object({
    network_id: z.number().int().describe("The Fabric network"),
    channel: z.string().describe("Channel name"),
    peer: z
      .object({ id: z.number().int(), name: z.string(), msp_id: z.string() })
      .describe("The peer of this console that was asked"),
    chaincodes: z.array(committedChaincode).describe("Every chaincode committed on the channel, by name"),
  }),
);

export const messageResponse = lazySchema(() => z.record(z.string(), z.string()));

export const eventResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int(),
      definition_id: z.number().int(),
      event_type: z.string().describe("install, approve, commit, deploy, undeploy, build, crash"),
      event_data: z.unknown().describe("status, user, peer/org, error and details"),
      created_at: z.string(),
    })
    .meta({ id: "FabricChaincodeEvent" }),
);

export const statusResponse = lazySchema(() =>
  z.object({
    definition_id: z.number().int(),
    channel: z.string(),
    package_id: z.string().nullable().describe("The package this definition installs"),
    peers: z.array(
      z.object({
        peer_id: z.number().int(),
        peer_name: z.string(),
        msp_id: z.string(),
        status: z.string().describe("The peer process status"),
        installed: z.boolean().describe("This definition's package is installed"),
        package_ids: z.array(z.string()).describe("Packages of this chaincode's label installed there"),
        error: z.string().optional().describe("Why the peer could not be asked"),
      }),
    ),
    orgs: z.array(
      z.object({
        msp_id: z.string(),
        approved: z.boolean().nullable().describe("Approved this definition (CheckCommitReadiness); null if unknown"),
      }),
    ),
    committed: z
      .object({ sequence: z.number().int(), version: z.string(), endorsement_policy: z.string() })
      .nullable()
      .describe("What the channel has committed under this name"),
    next_sequence: z.number().int().describe("The sequence a new definition must use"),
    readiness_error: z.string().optional(),
    deploy: z.object({
      status: z.enum(DEPLOY_STATUSES),
      pid: z.number().int().nullable(),
      restarts: z.number().int(),
      error: z.string().nullable(),
    }),
  }),
);

export const dockerInfoResponse = lazySchema(() =>
  z.object({
    id: z.string().describe("Process id"),
    name: z.string().describe("Supervised process name"),
    image: z.string().describe("The command run"),
    state: z.string().describe("running, exited, ..."),
    status: z.string().describe("Human readable status"),
    docker_status: z.string().describe("Process status"),
    created: z.number().int().describe("Start time (unix seconds)"),
    ports: z.array(z.string()).describe("Listen address"),
  }),
);

export const sequenceQuery = lazySchema(() =>
  z
    .object({
      chaincodeName: z.string().min(1).max(255).describe("Chaincode name"),
      channelName: z.string().min(1).max(249).describe("Channel name"),
    })
    .strict(),
);
export const sequenceResponse = lazySchema(() =>
  z.object({
    chaincode_name: z.string(),
    channel_name: z.string(),
    sequence: z.number().int().describe("Committed sequence; 0 when none"),
    status: z.string(),
    message: z.string(),
  }),
);

export const logsQuery = lazySchema(() =>
  z
    .object({
      follow: z
        .enum(["true", "false"])
        .default("false")
        .transform((v) => v === "true")
        .describe("Stream with Server-Sent Events"),
      tail: z.coerce.number().int().min(1).max(10_000).default(100).describe("Lines from the end"),
    })
    .strict(),
);

export const sourceQuery = lazySchema(() =>
  z
    .object({
      type: z.enum(["auto", "node", "go", "executable"]).default("auto").describe("Source type; auto detects it"),
    })
    .strict(),
);

export type ChaincodeResponse = z.infer<typeof chaincodeResponse>;
export type DefinitionResponse = z.infer<typeof definitionResponse>;
export type CreateDefinitionBody = z.infer<typeof createDefinitionBody>;
export type UpdateDefinitionBody = z.infer<typeof updateDefinitionBody>;
export type CallBody = z.infer<typeof callBody>;
export type StatusResponse = z.infer<typeof statusResponse>;
export type CommittedResponse = z.infer<typeof committedResponse>;
export type CommittedChaincode = z.infer<typeof committedChaincode>;
export type CollectionBody = z.infer<typeof collection>;
