import { describe, expect, it } from "vitest";
import { buildBesuCommand, buildBesuOptions, type BesuCommandOptions } from "./command.js";
import { renderBesuConfigToml } from "./config-toml.js";
import { BesuInputError } from "./errors.js";
import { enodeUrl, publicKeyFromPrivateKey } from "./keys.js";
import { renderPermissionsConfigToml } from "./permissions.js";
import { TEST_PRIVATE_KEYS } from "./test-vectors.js";

/**
 * Options as documented in Besu's CLI reference, with how each takes its value:
 * "switch" = boolean without arity (passed bare), "bool1" = boolean with arity 1 (needs
 * =true/false), "value" = takes a value. Sources:
 * https://besu.hyperledger.org/public-networks/reference/cli/options
 * https://besu.hyperledger.org/private-networks/reference/cli/options
 */
const DOCUMENTED: Record<string, "switch" | "bool1" | "value"> = {
  "data-path": "value",
  "genesis-file": "value",
  "node-private-key-file": "value",
  "network-id": "value",
  "rpc-http-enabled": "switch",
  "rpc-http-api": "value",
  "rpc-http-host": "value",
  "rpc-http-port": "value",
  "rpc-http-cors-origins": "value",
  "host-allowlist": "value",
  "rpc-http-authentication-enabled": "switch",
  "rpc-http-authentication-jwt-public-key-file": "value",
  "rpc-http-authentication-jwt-algorithm": "value",
  "metrics-enabled": "switch",
  "metrics-host": "value",
  "metrics-port": "value",
  "metrics-protocol": "value",
  "p2p-enabled": "bool1",
  "p2p-host": "value",
  "p2p-port": "value",
  "p2p-interface": "value",
  "nat-method": "value",
  "discovery-enabled": "bool1",
  bootnodes: "value",
  "min-gas-price": "value",
  profile: "value",
  "permissions-accounts-config-file-enabled": "switch",
  "permissions-accounts-config-file": "value",
  "permissions-nodes-config-file-enabled": "switch",
  "permissions-nodes-config-file": "value",
};

const enode = (i: number, port: number): string =>
  enodeUrl(publicKeyFromPrivateKey(TEST_PRIVATE_KEYS[i] ?? ""), "10.0.0.1", port);

const base: BesuCommandOptions = {
  binary: "/opt/besu/bin/besu",
  dataPath: "/var/lib/chainlaunch/besu/node1/data",
  genesisFile: "/var/lib/chainlaunch/besu/node1/genesis.json",
  nodePrivateKeyFile: "/var/lib/chainlaunch/besu/node1/key",
  networkId: 1337,
  rpc: { host: "0.0.0.0", port: 8545 },
  metrics: { host: "0.0.0.0", port: 9545 },
  p2p: { host: "10.0.0.1", port: 30303 },
  bootnodes: [enode(1, 30304), enode(2, 30305)],
};

function fieldOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(BesuInputError);
    expect((err as Error).message).toContain((err as BesuInputError).field);
    return (err as BesuInputError).field;
  }
  throw new Error("expected a BesuInputError");
}

describe("buildBesuCommand", () => {
  it("builds the full argv, flag by flag", () => {
    const cmd = buildBesuCommand(base);
    expect(cmd.command).toBe("/opt/besu/bin/besu");
    expect(cmd.args).toEqual([
      "--data-path=/var/lib/chainlaunch/besu/node1/data",
      "--genesis-file=/var/lib/chainlaunch/besu/node1/genesis.json",
      "--node-private-key-file=/var/lib/chainlaunch/besu/node1/key",
      "--network-id=1337",
      "--rpc-http-enabled",
      "--rpc-http-api=ETH,NET,QBFT",
      "--rpc-http-host=0.0.0.0",
      "--rpc-http-port=8545",
      "--rpc-http-cors-origins=all",
      "--host-allowlist=*",
      "--metrics-enabled",
      "--metrics-host=0.0.0.0",
      "--metrics-port=9545",
      "--metrics-protocol=PROMETHEUS",
      "--p2p-enabled=true",
      "--p2p-host=10.0.0.1",
      "--p2p-port=30303",
      "--nat-method=NONE",
      "--discovery-enabled=true",
      `--bootnodes=${enode(1, 30304)},${enode(2, 30305)}`,
      "--min-gas-price=1000000000",
      "--profile=ENTERPRISE",
    ]);
    expect(cmd.env).toEqual({ JAVA_OPTS: "-Xmx4g" });
  });

  it("uses only documented option names, each in its documented form", () => {
    const all = buildBesuCommand({
      ...base,
      rpc: { ...base.rpc, extraApis: ["WEB3", "TXPOOL"] },
      p2p: { ...base.p2p, interface: "0.0.0.0" },
      jwt: { publicKeyFile: "/keys/jwt.pem", algorithm: "ES256" },
      permissions: { accountsConfigFile: "/cfg/perm.toml", nodesConfigFile: "/cfg/perm.toml" },
    });
    const names = new Set<string>();
    for (const arg of all.args) {
      const m = /^--([a-z0-9-]+)(?:=(.*))?$/.exec(arg);
      expect(m, arg).not.toBeNull();
      const [, name = "", value] = m ?? [];
      expect(DOCUMENTED[name], `--${name} is not a documented Besu option`).toBeDefined();
      if (DOCUMENTED[name] === "switch") expect(value, arg).toBeUndefined();
      if (DOCUMENTED[name] === "bool1") expect(value, arg).toMatch(/^(true|false)$/);
      if (DOCUMENTED[name] === "value") expect(value, arg).toBeTruthy();
      expect(names.has(name), `--${name} given twice`).toBe(false);
      names.add(name);
    }
    expect(all.args).toContain("--rpc-http-api=ETH,NET,QBFT,WEB3,TXPOOL");
    expect(all.args).toContain("--p2p-interface=0.0.0.0");
    expect(all.args).toEqual(
      expect.arrayContaining([
        "--rpc-http-authentication-enabled",
        "--rpc-http-authentication-jwt-public-key-file=/keys/jwt.pem",
        "--rpc-http-authentication-jwt-algorithm=ES256",
        "--permissions-accounts-config-file-enabled",
        "--permissions-accounts-config-file=/cfg/perm.toml",
        "--permissions-nodes-config-file-enabled",
        "--permissions-nodes-config-file=/cfg/perm.toml",
      ]),
    );
  });

  it("omits bootnodes, metrics, JWT and permissions when not asked for", () => {
    const { metrics: _m, bootnodes: _b, ...rest } = base;
    const args = buildBesuCommand({ ...rest, bootnodes: [] }).args;
    expect(args.some((a) => a.startsWith("--bootnodes"))).toBe(false);
    expect(args.some((a) => a.startsWith("--metrics"))).toBe(false);
    expect(args.some((a) => a.includes("authentication"))).toBe(false);
    expect(args.some((a) => a.includes("permissions"))).toBe(false);
  });

  it("honours discovery, gas price, profile, CORS and host allow-list settings", () => {
    const args = buildBesuCommand({
      ...base,
      p2p: { ...base.p2p, discoveryEnabled: false },
      minGasPrice: 0,
      profile: null,
      rpc: { ...base.rpc, corsOrigins: ["http://localhost:3000", "http://127.0.0.1:3000"], extraApis: ["ETH", "WEB3"] },
      hostAllowlist: ["localhost", "console.example.com"],
    }).args;
    expect(args).toContain("--discovery-enabled=false");
    expect(args).toContain("--min-gas-price=0");
    expect(args.some((a) => a.startsWith("--profile"))).toBe(false);
    expect(args).toContain("--rpc-http-cors-origins=http://localhost:3000,http://127.0.0.1:3000");
    expect(args).toContain("--host-allowlist=localhost,console.example.com");
    expect(args).toContain("--rpc-http-api=ETH,NET,QBFT,WEB3");
  });

  it("sets JAVA_HOME, PATH and extra environment", () => {
    const env = buildBesuCommand({
      ...base,
      java: { home: "/opt/jdk-21", opts: "-Xmx1g", basePath: "/usr/bin:/bin" },
      env: { BESU_LOGGING: "INFO" },
    }).env;
    expect(env).toEqual({
      JAVA_OPTS: "-Xmx1g",
      JAVA_HOME: "/opt/jdk-21",
      PATH: "/opt/jdk-21/bin:/usr/bin:/bin",
      BESU_LOGGING: "INFO",
    });
  });

  it("keeps paths with spaces as single argv elements (no shell involved)", () => {
    const args = buildBesuCommand({ ...base, dataPath: "/srv/my nodes/$(rm -rf)/data" }).args;
    expect(args[0]).toBe("--data-path=/srv/my nodes/$(rm -rf)/data");
  });

  it.each<[string, Partial<BesuCommandOptions>]>([
    ["metrics.port", { metrics: { host: "0.0.0.0", port: 8545 } }],
    ["p2p.port", { p2p: { host: "10.0.0.1", port: 8545 } }],
    ["rpc.port", { rpc: { host: "0.0.0.0", port: 0 } }],
    ["dataPath", { dataPath: "relative/data" }],
    ["genesisFile", { genesisFile: "" }],
    ["binary", { binary: "bin/besu" }],
    ["networkId", { networkId: 0 }],
    ["rpc.host", { rpc: { host: "0.0.0.0 --evil", port: 8545 } }],
    ["hostAllowlist[1]", { hostAllowlist: ["localhost", "a,b"] }],
    ["rpc.corsOrigins", { rpc: { host: "0.0.0.0", port: 8545, corsOrigins: [] } }],
    ["rpc.extraApis[0]", { rpc: { host: "0.0.0.0", port: 8545, extraApis: ["SHELL" as "WEB3"] } }],
    ["bootnodes[1]", { bootnodes: [enode(1, 30304), "enode://nope@1.2.3.4:1"] }],
    ["minGasPrice", { minGasPrice: -1 }],
    ["profile", { profile: "FAST" as "STAKER" }],
    ["jwt.algorithm", { jwt: { publicKeyFile: "/k.pem", algorithm: "HS256" as "RS256" } }],
    ["jwt.publicKeyFile", { jwt: { publicKeyFile: "k.pem" } }],
    ["env.1BAD", { env: { "1BAD": "x" } }],
    ["java.home", { java: { home: "jdk" } }],
  ])("refuses bad %s", (field, patch) => {
    expect(fieldOf(() => buildBesuCommand({ ...base, ...patch }))).toBe(field);
  });
});

describe("renderBesuConfigToml", () => {
  it("renders the same options as TOML keys", () => {
    const toml = renderBesuConfigToml(base);
    const lines = toml.trimEnd().split("\n");
    expect(lines).toHaveLength(buildBesuOptions(base).length);
    expect(lines).toEqual(
      expect.arrayContaining([
        'data-path="/var/lib/chainlaunch/besu/node1/data"',
        "network-id=1337",
        "rpc-http-enabled=true",
        'rpc-http-api=["ETH","NET","QBFT"]',
        "rpc-http-port=8545",
        'host-allowlist=["*"]',
        "p2p-enabled=true",
        'nat-method="NONE"',
        "discovery-enabled=true",
        `bootnodes=["${enode(1, 30304)}","${enode(2, 30305)}"]`,
        "min-gas-price=1000000000",
        'profile="ENTERPRISE"',
      ]),
    );
  });
});

describe("renderPermissionsConfigToml", () => {
  it("renders Besu's allow-list keys", () => {
    const toml = renderPermissionsConfigToml({
      accountsAllowlist: ["0xB9B81EE349C3807E46BC71AA2632203C5B462032"],
      nodesAllowlist: [enode(1, 30304), enode(2, 30305)],
      bootnodes: [enode(2, 30305)],
    });
    expect(toml).toBe(
      'accounts-allowlist=["0xb9b81ee349c3807e46bc71aa2632203c5b462032"]\n' +
        `nodes-allowlist=["${enode(1, 30304)}","${enode(2, 30305)}"]\n`,
    );
    expect(renderPermissionsConfigToml({})).toBe("");
  });

  it("names bad entries and bootnodes missing from the nodes allow-list", () => {
    expect(fieldOf(() => renderPermissionsConfigToml({ accountsAllowlist: ["0x12"] }))).toBe("accountsAllowlist[0]");
    expect(fieldOf(() => renderPermissionsConfigToml({ nodesAllowlist: ["enode://x@1.2.3.4:1"] }))).toBe(
      "nodesAllowlist[0]",
    );
    expect(
      fieldOf(() => renderPermissionsConfigToml({ nodesAllowlist: [enode(1, 30304)], bootnodes: [enode(2, 30305)] })),
    ).toBe("bootnodes[0]");
  });
});
