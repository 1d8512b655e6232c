import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import {
  buildCoreYaml,
  buildOrdererYaml,
  CCAAS_BUILDER_NAME,
  fabricConfigFlavour,
  fabricNodeEnv,
  splitHostPort,
  writeCcaasBuilder,
  writeCoreYaml,
  writeOrdererYaml,
  type OrdererConfigOptions,
  type PeerConfigOptions,
  renderCoreYaml,
} from "./index.js";

const dir = mkdtempSync(join(tmpdir(), "cl-fabcfg-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tls = { certFile: "/n/tls/server.crt", keyFile: "/n/tls/server.key", rootCertFile: "/n/tls/ca.crt" };
const peerOpts = (version: string): PeerConfigOptions => ({
  version,
  peerId: "peer0-org1",
  mspId: "Org1MSP",
  mspDir: "/n/msp",
  fileSystemPath: "/n/data",
  listenAddress: "0.0.0.0:7051",
  externalEndpoint: "peer0.org1.example.com:7051",
  chaincodeListenAddress: "0.0.0.0:7052",
  tls,
  operationsListenAddress: "127.0.0.1:9443",
  externalBuilders: [{ name: CCAAS_BUILDER_NAME, path: "/n/builders/ccaas" }],
});
const ordererOpts = (version: string, extra: Partial<OrdererConfigOptions> = {}): OrdererConfigOptions => ({
  version,
  name: "orderer0",
  mspId: "OrdererMSP",
  mspDir: "/o/msp",
  listenAddress: "0.0.0.0:7050",
  tls,
  adminListenAddress: "127.0.0.1:7053",
  operationsListenAddress: "127.0.0.1:8443",
  fileLedgerLocation: "/o/data",
  ...extra,
});

type Obj = Record<string, unknown>;
const at = (o: unknown, path: string): unknown =>
  path.split(".").reduce<unknown>((v, k) => (v && typeof v === "object" ? (v as Obj)[k] : undefined), o);

/** Leaf key paths of a parsed YAML tree; arrays count as leaves. */
function leafPaths(o: Obj, prefix = ""): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    v && typeof v === "object" && !Array.isArray(v) ? leafPaths(v as Obj, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

/**
 * The orderer decodes orderer.yaml with ErrorUnused, so any key outside its config struct is fatal.
 * These are the struct paths (orderer/common/localconfig/config.go) at v2.5.16 and v3.1.5 that our
 * template may use; Consensus and BCCSP are free-form/decoded separately.
 */
const TLS_KEYS = ["Enabled", "PrivateKey", "Certificate", "RootCAs", "ClientAuthRequired", "ClientRootCAs"];
const COMMON_ORDERER_KEYS = [
  "General.ListenAddress",
  "General.ListenPort",
  ...TLS_KEYS.map((k) => `General.TLS.${k}`),
  "General.Keepalive.ServerMinInterval",
  "General.Keepalive.ServerInterval",
  "General.Keepalive.ServerTimeout",
  ...[
    "ListenAddress",
    "ListenPort",
    "ServerCertificate",
    "ServerPrivateKey",
    "ClientCertificate",
    "ClientPrivateKey",
    "RootCAs",
    "DialTimeout",
    "RPCTimeout",
    "ReplicationBufferSize",
    "ReplicationPullTimeout",
    "ReplicationRetryTimeout",
    "ReplicationMaxRetries",
    "SendBufferSize",
    "CertExpirationWarningThreshold",
  ].map((k) => `General.Cluster.${k}`),
  "General.BootstrapMethod",
  "General.Profile.Enabled",
  "General.Profile.Address",
  "General.LocalMSPDir",
  "General.LocalMSPID",
  "General.Authentication.TimeWindow",
  "General.MaxRecvMsgSize",
  "General.MaxSendMsgSize",
  "FileLedger.Location",
  "Operations.ListenAddress",
  ...TLS_KEYS.map((k) => `Operations.TLS.${k}`),
  "Metrics.Provider",
  "Admin.ListenAddress",
  ...TLS_KEYS.map((k) => `Admin.TLS.${k}`),
  "ChannelParticipation.Enabled",
  "ChannelParticipation.MaxRequestBodySize",
];
const V3_ONLY_ORDERER_KEYS = [
  "General.Backoff.BaseDelay",
  "General.Backoff.Multiplier",
  "General.Backoff.MaxDelay",
  "General.Throttling.Rate",
  "General.Throttling.InactivityTimeout",
  "General.Cluster.ReplicationPolicy",
];

describe("core.yaml", () => {
  for (const version of ["2.5.16", "3.1.5"]) {
    it(`has every section the ${version} peer needs in the file`, () => {
      const text = renderCoreYaml(peerOpts(version));
      const y = parse(text) as Obj;
      expect(at(y, "peer.BCCSP")).toEqual({
        Default: "SW",
        SW: { Hash: "SHA2", Security: 256, FileKeyStore: { KeyStore: "/n/msp/keystore" } },
      });
      expect(at(y, "chaincode.system")).toEqual({
        _lifecycle: "enable",
        cscc: "enable",
        lscc: "enable",
        qscc: "enable",
      });
      expect(at(y, "peer.handlers.endorsers.escc.name")).toBe("DefaultEndorsement");
      expect(at(y, "peer.handlers.validators.vscc.name")).toBe("DefaultValidation");
      expect(at(y, "peer.handlers.decorators")).toEqual([{ name: "DefaultDecorator" }]);
      const filters = (at(y, "peer.handlers.authFilters") as { name: string }[]).map((f) => f.name);
      expect(filters).toEqual(
        version.startsWith("3")
          ? ["DefaultAuth", "ExpirationCheck", "TimeWindowCheck"]
          : ["DefaultAuth", "ExpirationCheck"],
      );
      expect(text).toMatch(/^vm:\n {2}endpoint: ""$/m);
      expect(at(y, "chaincode.externalBuilders")).toEqual([
        {
          name: CCAAS_BUILDER_NAME,
          path: "/n/builders/ccaas",
          propagateEnvironment: ["CHAINCODE_AS_A_SERVICE_BUILDER_CONFIG"],
        },
      ]);
      expect(at(y, "peer.localMspId")).toBe("Org1MSP");
      expect(at(y, "peer.mspConfigPath")).toBe("/n/msp");
      expect(at(y, "peer.fileSystemPath")).toBe("/n/data");
      expect(at(y, "ledger.snapshots.rootDir")).toBe("/n/data/snapshots");
      expect(at(y, "ledger.state.stateDatabase")).toBe("goleveldb");
      expect(at(y, "peer.listenAddress")).toBe("0.0.0.0:7051");
      expect(at(y, "peer.address")).toBe("peer0.org1.example.com:7051");
      expect(at(y, "peer.chaincodeListenAddress")).toBe("0.0.0.0:7052");
      expect(at(y, "peer.gossip")).toMatchObject({
        bootstrap: ["peer0.org1.example.com:7051"],
        endpoint: "peer0.org1.example.com:7051",
        externalEndpoint: "peer0.org1.example.com:7051",
        orgLeader: true,
        useLeaderElection: false,
      });
      expect(at(y, "peer.tls")).toMatchObject({
        enabled: true,
        clientAuthRequired: false,
        cert: { file: tls.certFile },
        key: { file: tls.keyFile },
        rootcert: { file: tls.rootCertFile },
      });
      expect(at(y, "operations")).toEqual({ listenAddress: "127.0.0.1:9443", tls: { enabled: false } });
      expect(at(y, "metrics.provider")).toBe("prometheus");
    });
  }

  it("writes orderer address overrides for the delivery client", () => {
    const y = buildCoreYaml({
      ...peerOpts("3.1.5"),
      ordererAddressOverrides: [{ from: "orderer.example.com:7050", to: "127.0.0.1:7050", caCertsFile: "/n/o-ca.pem" }],
    });
    expect(at(y, "peer.deliveryclient.addressOverrides")).toEqual([
      { from: "orderer.example.com:7050", to: "127.0.0.1:7050", caCertsFile: "/n/o-ca.pem" },
    ]);
    expect(at(buildCoreYaml(peerOpts("3.1.5")), "peer.deliveryclient.addressOverrides")).toBeUndefined();
  });

  it("refuses a peer without external builders and malformed addresses", () => {
    expect(() => buildCoreYaml({ ...peerOpts("3.1.5"), externalBuilders: [] })).toThrow(/external builder/);
    expect(() => buildCoreYaml({ ...peerOpts("3.1.5"), listenAddress: "7051" })).toThrow(/listenAddress/);
    expect(() => buildCoreYaml({ ...peerOpts("2.4.9") })).toThrow(/not supported/);
  });
});

describe("orderer.yaml", () => {
  for (const version of ["2.5.16", "3.1.5"]) {
    it(`uses only keys the ${version} orderer knows, with the required ones set`, () => {
      for (const opts of [ordererOpts(version), ordererOpts(version, { cluster: { listenAddress: "0.0.0.0:7055" } })]) {
        const y = buildOrdererYaml(opts);
        const allowed = new Set([...COMMON_ORDERER_KEYS, ...(version.startsWith("3") ? V3_ONLY_ORDERER_KEYS : [])]);
        const unknown = leafPaths(y)
          .filter((p) => !p.startsWith("Consensus.") && !p.startsWith("General.BCCSP."))
          .filter((p) => !allowed.has(p));
        expect(unknown).toEqual([]);
        expect(at(y, "General.TLS.Enabled")).toBe(true);
        expect(at(y, "Admin.TLS")).toMatchObject({
          Enabled: true,
          ClientAuthRequired: true,
          ClientRootCAs: [tls.rootCertFile],
        });
        expect(at(y, "ChannelParticipation.Enabled")).toBe(true);
        expect(at(y, "Operations.TLS.Enabled")).toBe(false);
        expect(at(y, "Metrics.Provider")).toBe("prometheus");
        expect(at(y, "Consensus")).toEqual({ WALDir: "/o/data/consensus/wal", SnapDir: "/o/data/consensus/snapshot" });
        expect(at(y, "General.BootstrapMethod")).toBe(version.startsWith("2") ? "none" : undefined);
        expect(at(y, "General.ListenAddress")).toBe("0.0.0.0");
        expect(at(y, "General.ListenPort")).toBe(7050);
        // The cluster listener's four keys come all together or not at all.
        const clusterKeys = ["ListenAddress", "ListenPort", "ServerCertificate", "ServerPrivateKey"].map((k) =>
          at(y, `General.Cluster.${k}`),
        );
        expect(clusterKeys.every((v) => v === undefined) || clusterKeys.every((v) => v !== undefined)).toBe(true);
      }
    });
  }

  it("rejects a cluster listener on the general port", () => {
    expect(() => buildOrdererYaml(ordererOpts("3.1.5", { cluster: { listenAddress: "0.0.0.0:7050" } }))).toThrow(
      /own port/,
    );
  });
});

describe("writers and helpers", () => {
  it("writes core.yaml and orderer.yaml that parse back to the built trees", async () => {
    for (const version of ["2.5.16", "3.1.5"]) {
      const corePath = await writeCoreYaml(join(dir, `peer-${version}`), peerOpts(version));
      expect(parse(readFileSync(corePath, "utf8"))).toEqual(buildCoreYaml(peerOpts(version)));
      const ordPath = await writeOrdererYaml(join(dir, `orderer-${version}`), ordererOpts(version));
      expect(parse(readFileSync(ordPath, "utf8"))).toEqual(buildOrdererYaml(ordererOpts(version)));
      expect(existsSync(`${ordPath}.tmp`)).toBe(false);
    }
  });

  it("maps versions and addresses", () => {
    expect(fabricConfigFlavour("2.5.16")).toBe("2.5");
    expect(fabricConfigFlavour("v3.1.5")).toBe("3.x");
    expect(() => fabricConfigFlavour("latest")).toThrow();
    expect(splitHostPort("[::1]:7051")).toEqual({ host: "::1", port: 7051 });
    expect(() => splitHostPort("host:99999")).toThrow();
    const env = fabricNodeEnv({ configDir: "/n/config", base: { PATH: "/bin", SECRET: "x" } });
    expect(env).toMatchObject({ PATH: "/bin", FABRIC_CFG_PATH: "/n/config", FABRIC_LOGGING_SPEC: "info" });
    expect(env.SECRET).toBeUndefined();
  });
});

describe("ccaas builder scripts", () => {
  it("detect accepts only ccaas packages; build and release place connection.json where the peer reads it", async () => {
    const builder = await writeCcaasBuilder(join(dir, "ccaas"));
    const bin = (name: string): string => join(builder, "bin", name);
    expect(statSync(bin("detect")).mode & 0o777).toBe(0o755);

    const src = join(dir, "cc", "src");
    const meta = join(dir, "cc", "meta");
    const out = join(dir, "cc", "out");
    const rel = join(dir, "cc", "release");
    mkdirSync(join(src, "META-INF", "statedb", "couchdb", "indexes"), { recursive: true });
    mkdirSync(meta, { recursive: true });
    const connection = '{"address":"127.0.0.1:9999","dial_timeout":"10s","tls_required":false}';
    writeFileSync(join(src, "connection.json"), connection);
    writeFileSync(join(src, "META-INF", "statedb", "couchdb", "indexes", "i.json"), "{}");

    writeFileSync(join(meta, "metadata.json"), '{ "type" : "CCaaS", "label": "basic_1.0" }');
    expect(spawnSync(bin("detect"), [src, meta]).status).toBe(0);
    writeFileSync(join(meta, "metadata.json"), '{"type":"golang","label":"basic_1.0"}');
    const rejected = spawnSync(bin("detect"), [src, meta], { encoding: "utf8" });
    expect(rejected.status).toBe(1);
    expect(rejected.stderr).toContain("does not declare type ccaas");
    writeFileSync(join(meta, "metadata.json"), '{"type":"ccaas","label":"basic_1.0"}');

    execFileSync(bin("build"), [src, meta, out]);
    expect(readFileSync(join(out, "connection.json"), "utf8")).toBe(connection);
    expect(existsSync(join(out, "META-INF", "statedb", "couchdb", "indexes", "i.json"))).toBe(true);

    execFileSync(bin("release"), [out, rel]);
    expect(readFileSync(join(rel, "chaincode", "server", "connection.json"), "utf8")).toBe(connection);
    expect(existsSync(join(rel, "statedb", "couchdb", "indexes", "i.json"))).toBe(true);

    const missing = spawnSync(bin("build"), [join(dir, "nothing"), meta, out], { encoding: "utf8" });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("connection.json not found");
  });
});
