import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { z } from "zod";
import { parseMasterKey } from "../crypto/envelope.js";
import { lazySchema } from "../http/schema-helpers.js";
import { defaultDockerEndpoint } from "../runtime/docker/engine.js";
import { DEFAULT_IMAGE_REPOSITORIES } from "../runtime/docker/images.js";

function isMasterKey(value: string): boolean {
  try {
    parseMasterKey(value);
    return true;
  } catch {
    return false;
  }
}

/** Docker's grammar for a repository (distribution's reference): an optional `host[:port]/`, then lowercase path components. */
const domainComponent = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
const pathComponent = "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*";
const REPOSITORY_RE = new RegExp(
  `^(?:${domainComponent}(?:\\.${domainComponent})*(?::[0-9]+)?/)?${pathComponent}(?:/${pathComponent})*$`,
);

/** An image repository without a tag; the tag is the node's version. */
const imageRepository = (example: string) =>
  z
    .string()
    .max(255, "must be at most 255 characters")
    .regex(
      REPOSITORY_RE,
      `must be an image repository without a tag, like ${example} or registry.example.com:5000/${example} (lowercase; the tag is the node's version)`,
    );

const bool = lazySchema(() =>
  z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => v === "true" || v === "1"),
);

/** Environment variables the server reads. Each one is documented in README.md. */
const envSchema = lazySchema(() =>
  z.object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8100),
    HOST: z.string().min(1).default("0.0.0.0"),
    CHAINLAUNCH_DATA: z.string().min(1).optional(),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
    CHAINLAUNCH_ADMIN_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
    CHAINLAUNCH_DEMO: bool,
    CHAINLAUNCH_WEB_DIST: z.string().min(1).optional(),
    CHAINLAUNCH_SESSION_TTL_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 365)
      .default(24 * 7),
    CHAINLAUNCH_LOGIN_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10_000).default(10),
    CHAINLAUNCH_LOGIN_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
    CHAINLAUNCH_DOWNTIME_GRACE_SECONDS: z.coerce.number().min(0).max(3600).default(30),
    CHAINLAUNCH_TRUST_PROXY: bool,
    CHAINLAUNCH_ALLOWED_ORIGINS: z
      .string()
      .default("")
      .refine(
        (v) =>
          v
            .split(",")
            .map((o) => o.trim())
            .filter(Boolean)
            .every((o) => /^https?:\/\/[^/]+$/.test(o)),
        "must be a comma-separated list of origins like https://console.example.com",
      ),
    CHAINLAUNCH_MASTER_KEY: z
      .string()
      .refine(isMasterKey, "must be 32 bytes encoded as 64 hex characters or base64 (openssl rand -base64 32)")
      .optional(),
    CHAINLAUNCH_PUBLIC_URL: z
      .string()
      .regex(/^https?:\/\/[^\s]+$/, "must be an absolute http(s) URL like https://console.example.com")
      .optional(),
    CHAINLAUNCH_FABRIC_BIN_DIR: z.string().min(1).optional(),
    CHAINLAUNCH_FABRIC_DOWNLOAD: z.enum(["true", "false", "1", "0", ""]).optional(),
    CHAINLAUNCH_BESU_BIN: z.string().min(1).optional(),
    CHAINLAUNCH_BESU_DOWNLOAD: z.enum(["true", "false", "1", "0", ""]).optional(),
    CHAINLAUNCH_PROMETHEUS_BIN: z.string().min(1).optional(),
    CHAINLAUNCH_BUILTINS_DIR: z.string().min(1).optional(),
    CHAINLAUNCH_BACKUP_LOCAL_ROOTS: z
      .string()
      .default("")
      .refine(
        (v) =>
          v
            .split(":")
            .map((d) => d.trim())
            .filter(Boolean)
            .every((d) => d.startsWith("/")),
        "must be a colon-separated list of absolute directories like /srv/backups",
      ),
    CHAINLAUNCH_FEDERATION_PING_SECONDS: z.coerce.number().min(0.05).max(3600).default(30),
    CHAINLAUNCH_SANDBOX: z.enum(["auto", "bwrap", "off"]).default("auto"),
    CHAINLAUNCH_SANDBOX_USER: z
      .string()
      .regex(/^[a-z_][a-z0-9_-]{0,31}$/, "must be a system user name like chainlaunch-sandbox")
      .default("chainlaunch-sandbox"),
    CHAINLAUNCH_SANDBOX_CACHE: z.string().min(1).optional(),
    CHAINLAUNCH_DOCKER_HOST: z
      .string()
      .regex(/^(unix:\/\/\/|tcp:\/\/)\S+$/, "must be unix:///path/to/docker.sock or tcp://host:port")
      .optional(),
    CHAINLAUNCH_FABRIC_IMAGE: imageRepository("chainlaunch/fabric").default(DEFAULT_IMAGE_REPOSITORIES.fabric),
    CHAINLAUNCH_BESU_IMAGE: imageRepository("hyperledger/besu").default(DEFAULT_IMAGE_REPOSITORIES.besu),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  }),
);

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  adminPassword: string | undefined;
  demoMode: boolean;
  webDist: string | undefined;
  sessionTtlMs: number;
  loginMaxAttempts: number;
  loginWindowMs: number;
  /** A node down longer than this is reported as node.downtime (a crash restarted sooner is not). */
  downtimeGraceMs: number;
  trustProxy: boolean;
  /** Origins (scheme://host[:port]) besides this server's own from which cookie changes and websockets are accepted. */
  allowedOrigins: string[];
  /** 32-byte key (hex or base64) that encrypts private keys; a key file in dataDir is used when unset. */
  masterKey: string | undefined;
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  /** The console's address as users reach it; makes the links in emails and webhooks absolute. */
  publicUrl: string | undefined;
  /** A directory of Fabric binaries (`{version}` is replaced), searched before the cache. */
  fabricBinDir: string | undefined;
  /** Download official Fabric release tarballs into the cache when a version is missing. */
  fabricDownload: boolean;
  /** The besu launcher; PATH is searched when unset. */
  besuBin: string | undefined;
  /** Download the official Besu release into the cache when none is installed. */
  besuDownload: boolean;
  /** The prometheus binary of the managed Prometheus; PATH is searched when unset. */
  prometheusBin: string | undefined;
  /** Folder of the built-in programs plugins run (fabric-rest-gateway.js); found beside the server when unset. */
  builtinsDir: string | undefined;
  /** How often each connected console is pinged (federation status: connected / unreachable). */
  federationPingMs: number;
  /** The execution boundary of user code (chaincode, projects, plugins): auto, bwrap or off (unsafe). */
  sandbox: "auto" | "bwrap" | "off";
  /** The OS user sandboxed programs run as when the console runs as root. */
  sandboxUser: string;
  /** Caches (npm, Go) that sandboxed builds share; default `<dataDir>/sandbox-cache`. */
  sandboxCacheDir: string | undefined;
  /** Directories LOCAL backup targets may use; empty means `<dataDir>/backups/local`. */
  backupLocalRoots: string[];
  /**
   * The Docker engine of mode "docker": CHAINLAUNCH_DOCKER_HOST, else DOCKER_HOST, else
   * /var/run/docker.sock when it exists; undefined when there is none (mode "docker" is then a 400).
   */
  dockerHost: string | undefined;
  /** Repository (no tag) of the Fabric image container peers and orderers run, tagged with their version. */
  fabricImage: string;
  /** Repository (no tag) of the Besu image container Besu nodes run, tagged with their version. */
  besuImage: string;
}

/** Thrown when the environment is invalid; lists every problem at once. */
export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join("\n  ")}`);
  }
}

/** Parses the environment once at boot. Fails fast, naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.CHAINLAUNCH_DATA ?? join(homedir(), ".chainlaunch")),
    databaseUrl: e.DATABASE_URL,
    adminPassword: e.CHAINLAUNCH_ADMIN_PASSWORD,
    demoMode: e.CHAINLAUNCH_DEMO,
    webDist: e.CHAINLAUNCH_WEB_DIST,
    sessionTtlMs: e.CHAINLAUNCH_SESSION_TTL_HOURS * 3600_000,
    loginMaxAttempts: e.CHAINLAUNCH_LOGIN_MAX_ATTEMPTS,
    loginWindowMs: e.CHAINLAUNCH_LOGIN_WINDOW_SECONDS * 1000,
    downtimeGraceMs: Math.round(e.CHAINLAUNCH_DOWNTIME_GRACE_SECONDS * 1000),
    trustProxy: e.CHAINLAUNCH_TRUST_PROXY,
    allowedOrigins: e.CHAINLAUNCH_ALLOWED_ORIGINS.split(",")
      .map((o) => o.trim().toLowerCase())
      .filter(Boolean),
    masterKey: e.CHAINLAUNCH_MASTER_KEY,
    logLevel: e.LOG_LEVEL,
    publicUrl: e.CHAINLAUNCH_PUBLIC_URL?.replace(/\/+$/, ""),
    fabricBinDir: e.CHAINLAUNCH_FABRIC_BIN_DIR,
    fabricDownload: !(e.CHAINLAUNCH_FABRIC_DOWNLOAD === "0" || e.CHAINLAUNCH_FABRIC_DOWNLOAD === "false"),
    besuBin: e.CHAINLAUNCH_BESU_BIN,
    besuDownload: !(e.CHAINLAUNCH_BESU_DOWNLOAD === "0" || e.CHAINLAUNCH_BESU_DOWNLOAD === "false"),
    prometheusBin: e.CHAINLAUNCH_PROMETHEUS_BIN,
    builtinsDir: e.CHAINLAUNCH_BUILTINS_DIR,
    federationPingMs: Math.round(e.CHAINLAUNCH_FEDERATION_PING_SECONDS * 1000),
    sandbox: e.CHAINLAUNCH_SANDBOX,
    sandboxUser: e.CHAINLAUNCH_SANDBOX_USER,
    sandboxCacheDir: e.CHAINLAUNCH_SANDBOX_CACHE ? resolve(e.CHAINLAUNCH_SANDBOX_CACHE) : undefined,
    backupLocalRoots: e.CHAINLAUNCH_BACKUP_LOCAL_ROOTS.split(":")
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => resolve(d)),
    dockerHost: e.CHAINLAUNCH_DOCKER_HOST ?? defaultDockerEndpoint(env)?.host,
    fabricImage: e.CHAINLAUNCH_FABRIC_IMAGE,
    besuImage: e.CHAINLAUNCH_BESU_IMAGE,
  };
}
