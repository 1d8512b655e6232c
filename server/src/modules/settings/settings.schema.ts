import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";

const duration = lazySchema(() =>
  z
    .string()
    .regex(/^\d{1,6}(ms|s|m|h)$/, "must look like 500ms, 30s, 5m or 1h")
    .describe("Duration such as 30s or 5m"),
);

const host = lazySchema(() =>
  z
    .string()
    .max(253)
    .regex(/^$|^[A-Za-z0-9.:\-[\]]+$/, "must be a host name or IP address")
    .describe("Host name or IP address"),
);

/** The settings document. Every field has a default, so a partial POST is completed, not rejected. */
export const settingConfig = lazySchema(() =>
  z
    .object({
      defaultNodeExposeIP: host
        .default("")
        .describe("External host or IP that new nodes advertise; empty for 127.0.0.1"),
      peerTemplateCMD: z.string().max(4096).default("").describe("Extra command-line template for peers"),
      ordererTemplateCMD: z.string().max(4096).default("").describe("Extra command-line template for orderers"),
      besuTemplateCMD: z.string().max(4096).default("").describe("Extra command-line template for Besu nodes"),
      demoMode: z.boolean().default(false).describe("Reserved: demo mode is set by CHAINLAUNCH_DEMO at boot"),
      healthCheckInterval: duration.default("30s").describe("How often node health is polled"),
      healthCheckTimeout: duration.default("5s").describe("Timeout of one health check"),
      healthCheckRetention: z.number().int().min(1).max(100_000).default(1000).describe("Health results kept per node"),
      portRangeStart: z.number().int().min(1024).max(65535).default(7050).describe("First port proposed for new nodes"),
      portRangeEnd: z.number().int().min(1024).max(65535).default(9999).describe("Last port proposed for new nodes"),
      alertEvaluationInterval: duration.default("30s").describe("How often the alert rules are evaluated"),
      alertCooldownMinutes: z
        .number()
        .int()
        .min(0)
        .max(10_080)
        .default(60)
        .describe("Minutes after an alert during which the same alert coming back is not sent again"),
      alertCertExpiryDays: z
        .number()
        .int()
        .min(1)
        .max(3650)
        .default(30)
        .describe("Alert when a certificate expires within this many days"),
      alertPeerLagBlocks: z
        .number()
        .int()
        .min(1)
        .max(1_000_000)
        .default(10)
        .describe("Alert when a peer is more than this many blocks behind its orderers"),
      alertPeerLagMinutes: z
        .number()
        .int()
        .min(0)
        .max(1440)
        .default(5)
        .describe("Minutes a peer must stay behind before the lag alert"),
      alertRaftMinutes: z
        .number()
        .int()
        .min(0)
        .max(1440)
        .default(1)
        .describe("Minutes a Raft problem (no leader, consenter unreachable) must last before the alert"),
      nodeDowntimeGraceSeconds: z
        .number()
        .int()
        .min(0)
        .max(3600)
        .optional()
        .describe(
          "Seconds a node must stay down before node.downtime is sent; unset: CHAINLAUNCH_DOWNTIME_GRACE_SECONDS (default 30)",
        ),
      pluginRegistries: z
        .array(
          z
            .string()
            .max(2048)
            .regex(/^https?:\/\/\S+$/, "must be an http(s) URL of a plugin index")
            .describe("URL of a plugin index (JSON: {plugins: [{name, url | raw_yaml, ...}]})"),
        )
        .max(20)
        .default([])
        .describe("Plugin registries whose plugins /plugins/available lists beside the built-in catalogue"),
      federationEndpoint: z
        .string()
        .max(2048)
        .regex(/^$|^https?:\/\/[^\s/]+(\/[^\s]*)?$/, "must be an http(s) URL like https://console.example.com")
        .default("")
        .describe(
          "URL other consoles reach this one at (invitations carry it; its federation routes are below /api/v1/federation); empty: CHAINLAUNCH_PUBLIC_URL",
        ),
      troubleshootingRequireAuth: z
        .boolean()
        .default(false)
        .describe("Require a signed-in user or API key for /troubleshooting/* (anonymous by default, rate-limited)"),
      publicIpLookupUrl: z
        .string()
        .max(2048)
        .regex(/^$|^https?:\/\/\S+$/, "must be an http(s) URL that answers with the caller's IP address")
        .default("")
        .describe(
          "Optional service that echoes the console's public IP (GET /troubleshooting/public-ip asks it when defaultNodeExposeIP is empty); empty: none, no outside service is assumed",
        ),
    })
    .strict()
    .refine((c) => c.portRangeEnd > c.portRangeStart, {
      message: "must be greater than portRangeStart",
      path: ["portRangeEnd"],
    })
    .describe("Global settings")
    .meta({ id: "SettingConfig" }),
);
export type SettingConfig = z.infer<typeof settingConfig>;

export const settingResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("Settings id"),
      config: settingConfig,
      created_at: z.string().describe("Creation time"),
      updated_at: z.string().describe("Last change"),
    })
    .describe("Global settings")
    .meta({ id: "Setting" }),
);

export const settingBody = lazySchema(() => z.object({ config: settingConfig }).strict().describe("New settings"));
