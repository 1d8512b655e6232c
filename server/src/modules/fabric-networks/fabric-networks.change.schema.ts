import { z } from "zod";
import { builtOnce, dbId, lazySchema } from "../../http/schema-helpers.js";

const pem = lazySchema(() => z.string().min(20).max(20_000));
const mspId = lazySchema(() => z.string().min(1).max(100).describe("MSP id"));
const port = lazySchema(() => z.number().int().min(1).max(65535));
const host = lazySchema(() => z.string().min(1).max(253));
const duration = lazySchema(() =>
  z
    .string()
    .max(32)
    .regex(/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/, "must be a Go duration such as 2s or 500ms"),
);
const certs = {
  msp_id: mspId,
  root_certs: lazySchema(() =>
    z.array(pem).min(1).max(10).describe("Root CA certificates (PEM); the first is the NodeOU CA"),
  ),
  tls_root_certs: lazySchema(() => z.array(pem).min(1).max(10).describe("TLS root CA certificates (PEM)")),
};
const policy = lazySchema(() =>
  z
    .object({
      type: z.enum(["Signature", "ImplicitMeta"]).describe("Signature or ImplicitMeta"),
      rule: z.string().min(1).max(2000).describe("Policy rule"),
    })
    .strict(),
);
const policyPayload = lazySchema(() =>
  z.object({ policy_name: z.string().min(1).max(100).describe("Policy name"), policy }).strict(),
);
const op = <T extends string, P extends z.ZodType>(type: T, payload: P) =>
  z.object({ type: z.literal(type).describe("Operation"), payload }).strict();

const ordererEndpoints = lazySchema(() => z.array(z.string().max(300)).min(1).max(20).describe("host:port"));
const addOrg = lazySchema(() => z.object(certs).strict());
const addOrdererOrg = lazySchema(() => z.object({ ...certs, orderer_endpoints: ordererEndpoints }).strict());
const externalOrganizationId = lazySchema(() =>
  dbId().describe(
    "An external organization (GET /external-nodes/fabric-organizations) whose MSP id, sign CA and TLS CA certificates are used",
  ),
);

/** Every operation but the two that may name an external organization instead of certificates. */
const otherOperations = builtOnce(
  () =>
    [
      op("remove_org", z.object({ msp_id: mspId }).strict()),
      op("update_org_msp", z.object(certs).strict()),
      op("remove_orderer_org", z.object({ msp_id: mspId }).strict()),
      op("update_orderer_org_msp", z.object(certs).strict()),
      op(
        "set_anchor_peers",
        z
          .object({
            msp_id: mspId,
            anchor_peers: z
              .array(z.object({ host: host.describe("Host"), port: port.describe("Port") }).strict())
              .max(20)
              .describe("Anchor peers (empty removes them)"),
          })
          .strict(),
      ),
      op(
        "add_consenter",
        z
          .object({
            host: host.describe("Host"),
            port: port.describe("Port"),
            client_tls_cert: pem.describe("Client TLS cert"),
            server_tls_cert: pem.describe("Server TLS cert"),
          })
          .strict(),
      ),
      op("remove_consenter", z.object({ host: host.describe("Host"), port: port.describe("Port") }).strict()),
      op(
        "update_consenter",
        z
          .object({
            host: host.describe("Current host"),
            port: port.describe("Current port"),
            new_host: host.describe("New host"),
            new_port: port.describe("New port"),
            client_tls_cert: pem.describe("Client TLS cert"),
            server_tls_cert: pem.describe("Server TLS cert"),
          })
          .strict(),
      ),
      op(
        "update_etcd_raft_options",
        z
          .object({
            tick_interval: duration.optional().describe("Tick interval"),
            election_tick: z.number().int().min(1).max(1000).optional().describe("Election tick"),
            heartbeat_tick: z.number().int().min(1).max(1000).optional().describe("Heartbeat tick"),
            max_inflight_blocks: z.number().int().min(1).max(1000).optional().describe("Max inflight blocks"),
            snapshot_interval_size: dbId().optional().describe("Snapshot interval (bytes)"),
          })
          .strict(),
      ),
      op(
        "update_batch_size",
        z
          .object({
            max_message_count: z.number().int().min(1).max(100_000).optional().describe("Messages per block"),
            absolute_max_bytes: z
              .number()
              .int()
              .min(1)
              .max(2 ** 32 - 1)
              .optional()
              .describe("Absolute max bytes"),
            preferred_max_bytes: z
              .number()
              .int()
              .min(1)
              .max(2 ** 32 - 1)
              .optional()
              .describe("Preferred max bytes"),
          })
          .strict(),
      ),
      op("update_batch_timeout", z.object({ timeout: duration.describe("Batch timeout, e.g. 2s") }).strict()),
      op("update_application_policy", policyPayload),
      op("update_orderer_policy", policyPayload),
      op("update_channel_policy", policyPayload),
    ] as const,
);

/** An operation with its certificates spelled out: what is applied, and what the response lists. */
export const configOperation = lazySchema(() =>
  z.discriminatedUnion("type", [op("add_org", addOrg), op("add_orderer_org", addOrdererOrg), ...otherOperations()]),
);
export type ConfigOperation = z.infer<typeof configOperation>;

/**
 * An operation as a request may give it: `add_org` and `add_orderer_org` take either the
 * certificates (upstream's shape) or `external_organization_id`, resolved by the server from the
 * external organization (and, for an orderer org, its orderers' endpoints unless given).
 */
export const configOperationInput = lazySchema(() =>
  z.discriminatedUnion("type", [
    op("add_org", z.union([addOrg, z.object({ external_organization_id: externalOrganizationId }).strict()])),
    op(
      "add_orderer_org",
      z.union([
        addOrdererOrg,
        z
          .object({
            external_organization_id: externalOrganizationId,
            orderer_endpoints: ordererEndpoints.optional(),
          })
          .strict(),
      ]),
    ),
    ...otherOperations(),
  ]),
);
export type ConfigOperationInput = z.infer<typeof configOperationInput>;

export const updateConfigBody = lazySchema(() =>
  z
    .object({
      operations: z.array(configOperationInput).min(1).max(50).describe("Applied in order to the current config"),
      signing_org_ids: z
        .array(dbId())
        .max(50)
        .optional()
        .describe("Orgs whose admins sign; default: every org of the channel this console holds"),
    })
    .strict(),
);

export const updateConfigResponse = lazySchema(() =>
  z.object({
    id: z.string().describe("Transaction id of the config update"),
    network_id: z.number().int().describe("Network id"),
    channel_name: z.string().describe("Channel"),
    status: z.string().describe("applied: the new config block is on the chain"),
    operations: z.array(configOperation).describe("What was applied"),
    preview_json: z.string().describe("The config update (read/write sets) as JSON"),
    created_at: z.string().describe("When"),
    created_by: z.string().describe("Who"),
    configBlockNumber: z.number().int().describe("Number of the new config block"),
  }),
);

export const anchorPeersBody = lazySchema(() =>
  z
    .object({
      organizationId: dbId().describe("Organization (this console) whose anchor peers to set"),
      anchorPeers: z
        .array(z.object({ host: host.describe("Host"), port: port.describe("Port") }).strict())
        .max(20)
        .describe("Anchor peers; empty removes them"),
    })
    .strict(),
);

export const orgCrlBody = lazySchema(() =>
  z
    .object({
      organizationId: dbId().describe("Organization whose CRL to publish"),
    })
    .strict(),
);

export const transactionIdResponse = lazySchema(() =>
  z.object({ transactionId: z.string().describe("Config update tx id") }),
);
