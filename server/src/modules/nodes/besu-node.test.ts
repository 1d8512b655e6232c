import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { generateKeyPairSync } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { enodeUrl, parseNodeKeyFile, publicKeyFromPrivateKey } from "../../besu/index.js";
import { createBesuBinaryResolver, parseJavaMajor } from "./besu-binary.js";
import {
  besuContainerSpec,
  besuImage,
  besuKeyFileFromPem,
  besuProcessSpec,
  planBesuNode,
  writeBesuFiles,
} from "./besu-node.js";

const root = mkdtempSync(join(tmpdir(), "cl-besu-node-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const kp = generateKeyPairSync("ec", { namedCurve: "secp256k1" });
const privatePem = kp.privateKey.export({ type: "pkcs8", format: "pem" }) as string;
const publicPem = kp.publicKey.export({ type: "spki", format: "pem" }) as string;
const bootnode = enodeUrl(
  generateKeyPairSync("ec", { namedCurve: "secp256k1" }).publicKey.export({ type: "spki", format: "pem" }) as string,
  "10.0.0.6",
  30303,
);

describe("Besu node launcher", () => {
  it("writes genesis and key file and builds the command line flag by flag", async () => {
    const dir = join(root, "besu-1");
    const d = planBesuNode({
      dir,
      keyId: 7,
      publicKeyPem: publicPem,
      chainId: 1337,
      config: {
        networkId: 3,
        keyId: 7,
        externalIp: "10.0.0.5",
        internalIp: "127.0.0.1",
        p2pHost: "0.0.0.0",
        p2pPort: 30303,
        rpcHost: "127.0.0.1",
        rpcPort: 8545,
        metricsPort: 9545,
        minGasPrice: 0,
        bootNodes: [bootnode],
      },
    });
    // Each flag as Besu documents it (https://besu.hyperledger.org/public-networks/reference/cli/options).
    expect(d.args).toEqual([
      `--data-path=${dir}/data`,
      `--genesis-file=${dir}/config/genesis.json`,
      `--node-private-key-file=${dir}/config/key`,
      "--network-id=1337",
      "--rpc-http-enabled",
      "--rpc-http-api=ETH,NET,QBFT,WEB3,TXPOOL",
      "--rpc-http-host=127.0.0.1",
      "--rpc-http-port=8545",
      "--rpc-http-cors-origins=all",
      "--host-allowlist=*",
      "--metrics-enabled",
      "--metrics-host=127.0.0.1",
      "--metrics-port=9545",
      "--metrics-protocol=PROMETHEUS",
      "--p2p-enabled=true",
      "--p2p-host=10.0.0.5",
      "--p2p-port=30303",
      "--p2p-interface=0.0.0.0",
      "--nat-method=NONE",
      "--discovery-enabled=true",
      `--bootnodes=${bootnode}`,
      "--min-gas-price=0",
      "--profile=ENTERPRISE",
    ]);
    expect(d.env).toEqual({ JAVA_OPTS: "-Xmx4g" });
    expect(d.ports).toEqual([30303, 8545, 9545]);
    expect(d.enodeUrl).toMatch(/^enode:\/\/[0-9a-f]{128}@10\.0\.0\.5:30303$/);

    const keyLine = besuKeyFileFromPem(privatePem);
    await writeBesuFiles(d, { genesis: '{"config":{"chainId":1337}}', keyFileContent: keyLine });
    expect(JSON.parse(readFileSync(d.genesisFile, "utf8")).config.chainId).toBe(1337);
    const written = readFileSync(d.keyFile, "utf8");
    expect(written).toMatch(/^0x[0-9a-f]{64}$/);
    expect(statSync(d.keyFile).mode & 0o777).toBe(0o600);
    // The key file holds the same key: its public key is the one the enode URL names.
    const pub = publicKeyFromPrivateKey(parseNodeKeyFile(written)).slice(4);
    expect(d.enodeUrl).toContain(pub.toLowerCase());

    const spec = besuProcessSpec("besu-1", d, "/opt/besu/bin/besu");
    expect(spec).toMatchObject({ id: "besu-1", command: "/opt/besu/bin/besu", args: d.args, cwd: dir });
    expect(spec.env?.JAVA_OPTS).toBe("-Xmx4g");

    // Mode "docker": the same argv in the Besu image; loopback listeners bind every interface inside,
    // ports published on loopback and the advertised address, config read-only at the same paths.
    const inContainer = besuContainerSpec("besu-1", { ...d, props: { ...d.props, version: "24.12.2" } });
    const c = inContainer.container!;
    expect(c.image).toBe("hyperledger/besu:24.12.2");
    // CHAINLAUNCH_BESU_IMAGE: another repository, the same tag; a node keeps the image it was made with.
    expect(besuImage({ props: { ...d.props, version: "24.12.2" } }, "registry.example.com:5000/acme/besu")).toBe(
      "registry.example.com:5000/acme/besu:24.12.2",
    );
    expect(besuContainerSpec("besu-1", { ...d, image: "acme/besu:24.12.2" }).container?.image).toBe(
      "acme/besu:24.12.2",
    );
    expect(c.cmd).toContain("--rpc-http-host=0.0.0.0");
    expect(c.cmd).toContain("--metrics-host=0.0.0.0");
    expect(c.cmd).toContain("--p2p-host=10.0.0.5");
    expect(c.cmd).toContain(`--genesis-file=${dir}/config/genesis.json`);
    expect(c.binds).toEqual([
      { source: `${dir}/config`, target: `${dir}/config`, readOnly: true },
      { source: `${dir}/data`, target: `${dir}/data`, readOnly: false },
    ]);
    expect(c.ports).toEqual(
      ["127.0.0.1", "10.0.0.5"].flatMap((hostIp) =>
        [30303, 8545, 9545].map((port) => ({ hostIp, hostPort: port, containerPort: port })),
      ),
    );
    expect(c.env).toEqual({ JAVA_OPTS: "-Xmx4g" });
    expect(inContainer.logFile).toBe(d.logFile);
  });

  it("finds besu on PATH or CHAINLAUNCH_BESU_BIN, and says how to install it when absent", async () => {
    const empty = join(root, "empty");
    await expect(createBesuBinaryResolver({ env: { PATH: empty } }).resolve()).rejects.toThrow(
      /^besu binary not found on PATH or in CHAINLAUNCH_BESU_BIN; install Besu from https:\/\/github\.com\/hyperledger\/besu\/releases/,
    );
    await expect(
      createBesuBinaryResolver({ configured: join(root, "nope"), env: { PATH: empty } }).resolve(),
    ).rejects.toThrow(/CHAINLAUNCH_BESU_BIN=.*nope is not an executable file/);

    const bin = join(root, "bin");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(bin);
    for (const [name, body] of [
      ["besu", "#!/bin/sh\nexit 0\n"],
      ["java", `#!/bin/sh\necho 'openjdk version "17.0.15" 2025-04-15' >&2\n`],
    ] as const) {
      writeFileSync(join(bin, name), body);
      chmodSync(join(bin, name), 0o755);
    }
    await expect(createBesuBinaryResolver({ env: { PATH: bin } }).resolve()).rejects.toThrow(
      /is Java 17; Besu needs Java 21\+/,
    );
    writeFileSync(join(bin, "java"), `#!/bin/sh\necho 'openjdk version "21.0.2" 2024-01-16' >&2\n`);
    expect(await createBesuBinaryResolver({ env: { PATH: bin } }).resolve()).toEqual({
      path: join(bin, "besu"),
      source: "path",
      javaMajor: 21,
    });
  });

  it("reads Java major versions in both numbering schemes", () => {
    expect(parseJavaMajor('openjdk version "17.0.15" 2025-04-15')).toBe(17);
    expect(parseJavaMajor('java version "1.8.0_392"')).toBe(8);
    expect(parseJavaMajor('openjdk version "25" 2025-09-16')).toBe(25);
    expect(parseJavaMajor("garbage")).toBeNull();
  });
});

describe("Besu launcher resolution order", () => {
  const base = join(root, "resolver");
  const fakeJava = join(base, "jdk", "bin", "java");
  const writeExe = (path: string, body: string): void => {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
  };
  writeExe(fakeJava, "echo 'openjdk version \"21.0.4\" 2024-07-16' >&2");
  const env = { PATH: join(base, "empty"), JAVA_HOME: join(base, "jdk") };

  it("uses the cache, else downloads into it, else says how to install", async () => {
    const calls: string[] = [];
    const downloader = async ({ version, destDir }: { version: string; destDir: string }): Promise<void> => {
      calls.push(version);
      writeExe(join(destDir, "bin", "besu"), "exit 0");
    };
    const cacheDir = join(base, "cache");
    const r = createBesuBinaryResolver({ env, cacheDir, downloader });
    const first = await r.resolve("25.6.0");
    expect(first).toMatchObject({ source: "download", path: join(cacheDir, "25.6.0", "bin", "besu"), javaMajor: 21 });
    expect(calls).toEqual(["25.6.0"]);
    expect((await r.resolve("25.6.0")).source).toBe("cache");
    expect(calls).toHaveLength(1);

    const failing = createBesuBinaryResolver({
      env,
      cacheDir: join(base, "other-cache"),
      downloader: async () => {
        throw new Error("HTTP 404");
      },
    });
    await expect(failing.resolve("9.9.9")).rejects.toThrow(/downloading Besu 9\.9\.9 failed \(HTTP 404\)/);
    const offline = createBesuBinaryResolver({ env, cacheDir: join(base, "none"), downloader: null });
    await expect(offline.resolve()).rejects.toThrow(/^besu binary not found on PATH or in CHAINLAUNCH_BESU_BIN/);

    // A version names a cache folder: one that climbs out of the cache to someone's "bin/besu" is refused.
    const planted = join(base, "planted");
    writeExe(join(planted, "bin", "besu"), "exit 0");
    const escape = `25.6.0/../../${planted.split("/").slice(-1)[0]}`;
    await expect(r.resolve(escape)).rejects.toThrow(/is not a release number/);
    expect(calls).toHaveLength(1);
  });

  it("fetches a Java runtime into the cache when none is installed, and hands it to the node", async () => {
    writeExe(join(base, "only-besu", "besu"), "exit 0");
    const noJava = { PATH: join(base, "only-besu") };
    const r = createBesuBinaryResolver({
      env: noJava,
      cacheDir: join(base, "java-cache"),
      javaDownloader: async ({ destDir }) =>
        writeExe(join(destDir, "bin", "java"), "echo 'openjdk version \"21.0.5\"' >&2"),
    });
    const got = await r.resolve();
    expect(got).toMatchObject({ source: "path", javaMajor: 21, javaHome: join(base, "java-cache", "java-21") });
    const spec = besuProcessSpec(
      "b",
      { args: [], env: {}, dir: base, logFile: join(base, "b.log") } as never,
      got.path,
      got.javaHome,
    );
    expect(spec.env?.JAVA_HOME).toBe(got.javaHome);
    expect(spec.env?.PATH?.startsWith(join(got.javaHome!, "bin"))).toBe(true);
    const none = createBesuBinaryResolver({ env: noJava, cacheDir: join(base, "no-java"), javaDownloader: null });
    await expect(none.resolve()).rejects.toThrow(/no Java runtime/);
  });

  it("prefers PATH over the cache", async () => {
    writeExe(join(base, "path-bin", "besu"), "exit 0");
    const r = createBesuBinaryResolver({
      env: { ...env, PATH: join(base, "path-bin") },
      cacheDir: join(base, "cache"),
    });
    expect((await r.resolve("25.6.0")).source).toBe("path");
  });
});
