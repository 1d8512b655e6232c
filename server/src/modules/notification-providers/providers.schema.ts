import { z } from "zod";
import { builtOnce, lazySchema, MAX_DB_ID } from "../../http/schema-helpers.js";

export const idParams = lazySchema(() =>
  z.object({ id: z.coerce.number().int().min(1).max(MAX_DB_ID).describe("Provider id") }).strict(),
);

/** What a secret looks like in a response: set or not, never its value. */
export const MASKED = "********";

export const PROVIDER_TYPES = ["SMTP", "WEBHOOK"] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];
export const TEST_STATUSES = ["success", "failure"] as const;

/** The routing flags, camelCase as in the API; each maps to a column and to event types (events/bus.ts). */
const flag = (what: string) =>
  z.boolean().optional().describe(`Send ${what} to this provider (omitted: false on create, unchanged on update)`);
const flagFields = builtOnce(() => ({
  notifyNodeDowntime: flag("node down / recovered events"),
  notifyBackupSuccess: flag("completed backups"),
  notifyBackupFailure: flag("failed backups"),
  notifyS3ConnIssue: flag("S3 connection issues"),
  notifyCertExpiry: flag("certificate expiry alerts"),
  notifyPeerLag: flag("peer lagging / caught up alerts"),
  notifyRaftHealth: flag("Raft leader lost / consenter unreachable / recovered alerts"),
}));

/** snake_case spellings the upstream Terraform provider sends; the camelCase field wins when both are given. */
const alias = (of: string) => z.boolean().optional().describe(`Alias of ${of} (Terraform provider spelling)`);
const aliasFields = builtOnce(() => ({
  is_default: alias("isDefault"),
  notify_node_downtime: alias("notifyNodeDowntime"),
  notify_backup_success: alias("notifyBackupSuccess"),
  notify_backup_failure: alias("notifyBackupFailure"),
  notify_s3_conn_issue: alias("notifyS3ConnIssue"),
}));

const providerFields = builtOnce(() => ({
  name: z.string().trim().min(1).max(255).describe("Provider name (unique)"),
  type: z.enum(PROVIDER_TYPES).describe("SMTP (email) or WEBHOOK (signed HTTPS POST)"),
  config: z
    .record(z.string().max(64), z.unknown())
    .describe(
      "SMTP: host, port (587), username, password, from_email, from_name (ChainLaunch), to_email (comma-separated), " +
        "use_tls (true), skip_tls_verify (false). WEBHOOK: url (https; http only to loopback), secret (HMAC key, " +
        "at least 16 characters), headers (name -> value), skip_tls_verify (false), ca_cert (PEM). Secrets " +
        "(password, secret, header values) omitted or sent as '********' on update keep their stored values",
    ),
  isDefault: z.boolean().optional().describe("The default provider; setting it clears the flag on the others"),
  ...flagFields(),
  ...aliasFields(),
}));

export const createProviderBody = lazySchema(() => z.object(providerFields()));
export const updateProviderBody = lazySchema(() => z.object(providerFields()));
export type ProviderBody = z.infer<typeof createProviderBody>;

export const providerResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int(),
      name: z.string(),
      type: z.enum(PROVIDER_TYPES).describe("SMTP or WEBHOOK"),
      config: z
        .record(z.string(), z.unknown())
        .describe(`The provider's settings; secrets are '${MASKED}' when set and never returned`),
      isDefault: z.boolean(),
      notifyNodeDowntime: z.boolean(),
      notifyBackupSuccess: z.boolean(),
      notifyBackupFailure: z.boolean(),
      notifyS3ConnIssue: z.boolean(),
      notifyCertExpiry: z.boolean(),
      notifyPeerLag: z.boolean(),
      notifyRaftHealth: z.boolean(),
      lastTestAt: z.string().nullable().describe("When Send test last ran"),
      lastTestStatus: z.enum(TEST_STATUSES).nullable().describe("success or failure of the last Send test"),
      lastTestMessage: z.string().nullable().describe("What the last Send test reported"),
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .meta({ id: "NotificationProvider" }),
);
export type ProviderResponse = z.infer<typeof providerResponse>;

export const testProviderBody = lazySchema(() =>
  z.object({
    testEmail: z
      .email()
      .max(320)
      .optional()
      .describe("Where the test email goes (required for SMTP; ignored for WEBHOOK)"),
  }),
);
export const testProviderResponse = lazySchema(() =>
  z
    .object({
      status: z.enum(TEST_STATUSES).describe("success or failure"),
      message: z
        .string()
        .describe("The receiver's status (HTTP status or SMTP reply code) or the failure; never its reply text"),
      testedAt: z.string(),
    })
    .meta({ id: "NotificationProviderTest" }),
);
export type TestProviderResponse = z.infer<typeof testProviderResponse>;
