/**
 * The `besu` command line for one QBFT node, as an argv array (never a shell string), plus
 * an equivalent TOML config rendering of the same options.
 *
 * Every flag name and value form is checked against Besu's options reference:
 * https://besu.hyperledger.org/public-networks/reference/cli/options and, for permissions,
 * https://besu.hyperledger.org/private-networks/reference/cli/options
 * `--p2p-enabled` and `--discovery-enabled` are declared with arity 1 in Besu, so they carry
 * `=true`; the other booleans are plain switches and are passed bare.
 */
import { delimiter, isAbsolute, posix } from "node:path";
import { BesuInputError } from "./errors.js";
import { MAX_INT64, parseInteger, parseQuantity } from "./encoding.js";
import { parseEnodeUrl } from "./keys.js";

/** JSON-RPC API groups Besu documents for `--rpc-http-api`. */
export const BESU_RPC_APIS = [
  "ADMIN",
  "DEBUG",
  "ENGINE",
  "ETH",
  "IBFT",
  "MINER",
  "NET",
  "PERM",
  "PLUGINS",
  "QBFT",
  "TRACE",
  "TXPOOL",
  "WEB3",
] as const;
/** One `--rpc-http-api` group. */
export type BesuRpcApi = (typeof BESU_RPC_APIS)[number];
/** Always enabled: what the console's RPC explorer and validator voting need. */
export const REQUIRED_RPC_APIS: readonly BesuRpcApi[] = ["ETH", "NET", "QBFT"];
/** Documented `--profile` values (ENTERPRISE and PRIVATE are aliases). */
export const BESU_PROFILES = [
  "MINIMALIST_STAKER",
  "STAKER",
  "ENTERPRISE",
  "PRIVATE",
  "PERFORMANCE",
  "PERFORMANCE_RPC",
] as const;
/** Documented `--rpc-http-authentication-jwt-algorithm` values. */
export const BESU_JWT_ALGORITHMS = ["RS256", "RS384", "RS512", "ES256", "ES384", "ES512"] as const;
/** chainlaunch's default minimum gas price (1 gwei); Besu's own default is 1000 wei. */
export const DEFAULT_MIN_GAS_PRICE = 1_000_000_000n;
/** chainlaunch's default JVM options for Besu. */
export const DEFAULT_JAVA_OPTS = "-Xmx4g";

/** Options for {@link buildBesuCommand}. All paths must be absolute. */
export interface BesuCommandOptions {
  /** The `besu` launcher: a bare name looked up on PATH, or an absolute path. Default `besu`. */
  binary?: string;
  dataPath: string;
  genesisFile: string;
  nodePrivateKeyFile: string;
  networkId: number;
  rpc: {
    host: string;
    port: number;
    /** Added after ETH,NET,QBFT, e.g. WEB3 and TXPOOL. */
    extraApis?: readonly BesuRpcApi[];
    /** Default `["all"]`. */
    corsOrigins?: readonly string[];
  };
  /** `--host-allowlist`; default `["*"]`. */
  hostAllowlist?: readonly string[];
  /** Omit to leave metrics disabled. */
  metrics?: { host: string; port: number; protocol?: "PROMETHEUS" | "OPENTELEMETRY" };
  p2p: {
    /** Advertised P2P host (the address in this node's enode URL). */
    host: string;
    port: number;
    /** Listen interface, `--p2p-interface`; Besu's default is 0.0.0.0. */
    interface?: string;
    /** Default true. */
    discoveryEnabled?: boolean;
  };
  /** Enode URLs; `--bootnodes` is omitted when empty. */
  bootnodes?: readonly string[];
  /** Wei. Default {@link DEFAULT_MIN_GAS_PRICE}. */
  minGasPrice?: string | number | bigint;
  /** Default ENTERPRISE; null omits `--profile`. */
  profile?: (typeof BESU_PROFILES)[number] | null;
  /** JWT public-key authentication for JSON-RPC HTTP. */
  jwt?: { publicKeyFile: string; algorithm?: (typeof BESU_JWT_ALGORITHMS)[number] };
  /** Local permissioning files (see `renderPermissionsConfigToml`); each enables its check. */
  permissions?: { accountsConfigFile?: string; nodesConfigFile?: string };
  java?: {
    /** Sets JAVA_HOME and puts `<home>/bin` first on PATH. */
    home?: string;
    /** JAVA_OPTS; default {@link DEFAULT_JAVA_OPTS}. */
    opts?: string;
    /** PATH to extend when `home` is set; default this process's PATH. */
    basePath?: string;
  };
  /** Extra environment variables, applied last. */
  env?: Readonly<Record<string, string>>;
}

/** A process to spawn: `command` with `args`, and `env` on top of the inherited environment. */
export interface BesuCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** One Besu option; `bare` switches render as `--name` on the command line. */
export interface BesuOption {
  name: string;
  value: string | number | bigint | boolean | readonly string[];
  bare?: boolean;
}

function path(value: unknown, field: string): string {
  if (typeof value !== "string" || value.length === 0 || !isAbsolute(value) || /[\0\r\n]/.test(value)) {
    throw new BesuInputError(field, "must be an absolute path");
  }
  return value;
}

function token(value: unknown, field: string): string {
  if (typeof value !== "string" || !/^[^\s,"'=]+$/.test(value)) {
    throw new BesuInputError(
      field,
      `must be non-empty without spaces, commas, quotes or "=", got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function list(values: readonly string[] | undefined, fallback: readonly string[], field: string): string[] {
  const items = values ?? fallback;
  if (!Array.isArray(items) || items.length === 0) {
    throw new BesuInputError(field, "must list at least one entry");
  }
  return items.map((v, i) => token(v, `${field}[${i}]`));
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], field: string): T {
  if (!allowed.includes(value as T)) {
    throw new BesuInputError(field, `must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`);
  }
  return value as T;
}

function checkPortsDistinct(ports: [string, number | undefined][]): void {
  const seen = new Map<number, string>();
  for (const [field, port] of ports) {
    if (port === undefined) continue;
    const other = seen.get(port);
    if (other !== undefined) {
      throw new BesuInputError(field, `port ${port} clashes with ${other}`);
    }
    seen.set(port, field);
  }
}

/**
 * Validates the options and returns them as an ordered list of Besu options; both the argv
 * and the TOML rendering come from this list, so they cannot drift apart.
 */
export function buildBesuOptions(opts: BesuCommandOptions): BesuOption[] {
  const rpcPort = parseInteger(opts.rpc.port, "rpc.port", 1, 65535);
  const p2pPort = parseInteger(opts.p2p.port, "p2p.port", 1, 65535);
  const metricsPort = opts.metrics ? parseInteger(opts.metrics.port, "metrics.port", 1, 65535) : undefined;
  checkPortsDistinct([
    ["rpc.port", rpcPort],
    ["p2p.port", p2pPort],
    ["metrics.port", metricsPort],
  ]);

  const extra = (opts.rpc.extraApis ?? []).map((api, i) => oneOf(api, BESU_RPC_APIS, `rpc.extraApis[${i}]`));
  const apis = [...new Set([...REQUIRED_RPC_APIS, ...extra])];
  const out: BesuOption[] = [
    { name: "data-path", value: path(opts.dataPath, "dataPath") },
    { name: "genesis-file", value: path(opts.genesisFile, "genesisFile") },
    { name: "node-private-key-file", value: path(opts.nodePrivateKeyFile, "nodePrivateKeyFile") },
    { name: "network-id", value: parseInteger(opts.networkId, "networkId", 1) },
    { name: "rpc-http-enabled", value: true, bare: true },
    { name: "rpc-http-api", value: apis },
    { name: "rpc-http-host", value: token(opts.rpc.host, "rpc.host") },
    { name: "rpc-http-port", value: rpcPort },
    { name: "rpc-http-cors-origins", value: list(opts.rpc.corsOrigins, ["all"], "rpc.corsOrigins") },
    { name: "host-allowlist", value: list(opts.hostAllowlist, ["*"], "hostAllowlist") },
  ];
  if (opts.jwt) {
    out.push(
      { name: "rpc-http-authentication-enabled", value: true, bare: true },
      { name: "rpc-http-authentication-jwt-public-key-file", value: path(opts.jwt.publicKeyFile, "jwt.publicKeyFile") },
    );
    if (opts.jwt.algorithm !== undefined) {
      const algorithm = oneOf(opts.jwt.algorithm, BESU_JWT_ALGORITHMS, "jwt.algorithm");
      out.push({ name: "rpc-http-authentication-jwt-algorithm", value: algorithm });
    }
  }
  if (opts.metrics && metricsPort !== undefined) {
    out.push(
      { name: "metrics-enabled", value: true, bare: true },
      { name: "metrics-host", value: token(opts.metrics.host, "metrics.host") },
      { name: "metrics-port", value: metricsPort },
      {
        name: "metrics-protocol",
        value: oneOf(opts.metrics.protocol ?? "PROMETHEUS", ["PROMETHEUS", "OPENTELEMETRY"], "metrics.protocol"),
      },
    );
  }
  out.push(
    { name: "p2p-enabled", value: true },
    { name: "p2p-host", value: token(opts.p2p.host, "p2p.host") },
    { name: "p2p-port", value: p2pPort },
  );
  if (opts.p2p.interface !== undefined) {
    out.push({ name: "p2p-interface", value: token(opts.p2p.interface, "p2p.interface") });
  }
  out.push(
    { name: "nat-method", value: "NONE" },
    { name: "discovery-enabled", value: opts.p2p.discoveryEnabled ?? true },
  );
  const bootnodes = (opts.bootnodes ?? []).map((url, i) => {
    parseEnodeUrl(url, `bootnodes[${i}]`);
    return url.trim();
  });
  if (bootnodes.length > 0) {
    out.push({ name: "bootnodes", value: bootnodes });
  }
  const minGasPrice = parseQuantity(opts.minGasPrice ?? DEFAULT_MIN_GAS_PRICE, "minGasPrice", { max: MAX_INT64 });
  out.push({ name: "min-gas-price", value: minGasPrice });
  if (opts.permissions?.accountsConfigFile !== undefined) {
    out.push(
      { name: "permissions-accounts-config-file-enabled", value: true, bare: true },
      {
        name: "permissions-accounts-config-file",
        value: path(opts.permissions.accountsConfigFile, "permissions.accountsConfigFile"),
      },
    );
  }
  if (opts.permissions?.nodesConfigFile !== undefined) {
    out.push(
      { name: "permissions-nodes-config-file-enabled", value: true, bare: true },
      {
        name: "permissions-nodes-config-file",
        value: path(opts.permissions.nodesConfigFile, "permissions.nodesConfigFile"),
      },
    );
  }
  const profile = opts.profile === undefined ? "ENTERPRISE" : opts.profile;
  if (profile !== null) {
    out.push({ name: "profile", value: oneOf(profile, BESU_PROFILES, "profile") });
  }
  return out;
}

function buildEnv(opts: BesuCommandOptions): Record<string, string> {
  const env: Record<string, string> = { JAVA_OPTS: opts.java?.opts ?? DEFAULT_JAVA_OPTS };
  if (opts.java?.home !== undefined) {
    const home = path(opts.java.home, "java.home");
    const base = opts.java.basePath ?? process.env.PATH ?? "";
    env.JAVA_HOME = home;
    env.PATH = base ? `${posix.join(home, "bin")}${delimiter}${base}` : posix.join(home, "bin");
  }
  for (const [key, value] of Object.entries(opts.env ?? {})) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) || typeof value !== "string" || value.includes("\0")) {
      throw new BesuInputError(`env.${key}`, "must be a valid variable name with a string value");
    }
    env[key] = value;
  }
  return env;
}

/** Renders one option as a single argv element. */
export function optionToArg(option: BesuOption): string {
  if (option.bare && option.value === true) {
    return `--${option.name}`;
  }
  const value = Array.isArray(option.value) ? option.value.join(",") : String(option.value);
  return `--${option.name}=${value}`;
}

/**
 * Builds the complete `besu` invocation for a QBFT node. Throws {@link BesuInputError}
 * naming the field for bad paths, ports (including clashes between this node's ports),
 * hosts, bootnode URLs, API names and environment entries.
 */
export function buildBesuCommand(opts: BesuCommandOptions): BesuCommand {
  const binary = opts.binary ?? "besu";
  if (binary !== "besu" && !isAbsolute(binary)) {
    throw new BesuInputError("binary", "must be `besu` (looked up on PATH) or an absolute path");
  }
  return { command: binary, args: buildBesuOptions(opts).map(optionToArg), env: buildEnv(opts) };
}
