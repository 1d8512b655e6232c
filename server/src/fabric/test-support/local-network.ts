import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { allProbes, httpHealthProbe, tcpProbe } from "../../runtime/health.js";
import { createSupervisor, type ProcessSpec, type ProcessState, type Supervisor } from "../../runtime/supervisor.js";
import { reservePorts } from "../../test-support/ports.js";
import {
  CCAAS_BUILDER_NAME,
  fabricNodeEnv,
  writeCcaasBuilder,
  writeCoreYaml,
  writeOrdererYaml,
  type TlsFiles,
} from "../config/index.js";
import { writeLocalMsp } from "../msp/index.js";
import type { CertPair, TestOrg } from "./org-fixtures.js";

/** One node of the test network as clients see it. */
export interface LocalNode {
  name: string;
  /** gRPC endpoint "127.0.0.1:port". */
  address: string;
  tls: CertPair;
  /** The node's signing certificate (its MSP signcert), e.g. a BFT consenter's identity. */
  identityCertPem: string;
  logFile: string;
}

export interface LocalOrderer extends LocalNode {
  port: number;
  adminAddress: string;
}

export interface LocalNetwork {
  orderers: LocalOrderer[];
  peers: LocalNode[];
  supervisor: Supervisor;
  states: ProcessState[];
  /** Stops every process this network started (by the supervisor's pid), then closes the supervisor. */
  stop(): Promise<void>;
}

/**
 * Starts `orderers` orderers and `peers` peers of one org from our MSPs and config templates
 * under a supervisor, all on 127.0.0.1 with fresh ports. Orderers reuse the general listener
 * for Raft; every TLS cert has SANs localhost and 127.0.0.1.
 */
export async function startLocalNetwork(params: {
  root: string;
  version: string;
  org: TestOrg;
  bins: { peer: string; orderer: string };
  orderers: number;
  peers: number;
}): Promise<LocalNetwork> {
  const { root, org, version } = params;
  const domain = org.mspId.toLowerCase().replace(/msp$/, "") + ".example.com";
  // Three ports a node, from the tests' one allocator.
  let next = await reservePorts(params.orderers * 3 + params.peers * 3);
  const take = (): number => next++;

  async function material(
    name: string,
    role: "peer" | "orderer",
  ): Promise<{ dir: string; mspDir: string; tls: TlsFiles; pair: CertPair; identityCertPem: string }> {
    const dir = join(root, name);
    const id = await org.identity(name, role);
    const mspDir = join(dir, "msp");
    await writeLocalMsp(mspDir, {
      caCertPem: org.ca.certificatePem,
      signCertPem: id.certPem,
      privateKeyPem: id.keyPem,
      tlsCaCertPem: org.tlsCa.certificatePem,
    });
    const pair = await org.tls(name);
    mkdirSync(join(dir, "tls"), { recursive: true });
    const tls: TlsFiles = {
      certFile: join(dir, "tls", "server.crt"),
      keyFile: join(dir, "tls", "server.key"),
      rootCertFile: join(dir, "tls", "ca.crt"),
    };
    writeFileSync(tls.certFile, pair.certPem);
    writeFileSync(tls.keyFile, pair.keyPem, { mode: 0o600 });
    writeFileSync(tls.rootCertFile, org.tlsCa.certificatePem);
    return { dir, mspDir, tls, pair, identityCertPem: id.certPem };
  }

  const specs: ProcessSpec[] = [];
  const orderers: LocalOrderer[] = [];
  for (let i = 0; i < params.orderers; i++) {
    const name = `orderer${i}.${domain}`;
    const m = await material(name, "orderer");
    const [port, admin, ops] = [take(), take(), take()];
    await writeOrdererYaml(join(m.dir, "config"), {
      version,
      name,
      mspId: org.mspId,
      mspDir: m.mspDir,
      listenAddress: `127.0.0.1:${port}`,
      tls: m.tls,
      adminListenAddress: `127.0.0.1:${admin}`,
      operationsListenAddress: `127.0.0.1:${ops}`,
      fileLedgerLocation: join(m.dir, "data"),
    });
    const logFile = join(m.dir, "logs", "orderer.log");
    specs.push({
      id: name,
      command: params.bins.orderer,
      args: [],
      env: fabricNodeEnv({ configDir: join(m.dir, "config") }),
      cwd: m.dir,
      logFile,
      // Ready as the console judges nodes: /healthz, and its own gRPC and admin listeners bound.
      probe: allProbes(
        httpHealthProbe(`http://127.0.0.1:${ops}/healthz`),
        tcpProbe("127.0.0.1", port),
        tcpProbe("127.0.0.1", admin),
      ),
      startTimeoutMs: 60_000,
    });
    orderers.push({
      name,
      address: `127.0.0.1:${port}`,
      port,
      adminAddress: `127.0.0.1:${admin}`,
      tls: m.pair,
      identityCertPem: m.identityCertPem,
      logFile,
    });
  }
  const peers: LocalNode[] = [];
  for (let i = 0; i < params.peers; i++) {
    const name = `peer${i}.${domain}`;
    const m = await material(name, "peer");
    const [port, cc, ops] = [take(), take(), take()];
    const builderDir = await writeCcaasBuilder(join(m.dir, "builders", "ccaas"));
    await writeCoreYaml(join(m.dir, "config"), {
      version,
      peerId: name,
      mspId: org.mspId,
      mspDir: m.mspDir,
      fileSystemPath: join(m.dir, "data"),
      listenAddress: `127.0.0.1:${port}`,
      externalEndpoint: `127.0.0.1:${port}`,
      chaincodeListenAddress: `127.0.0.1:${cc}`,
      tls: m.tls,
      operationsListenAddress: `127.0.0.1:${ops}`,
      externalBuilders: [{ name: CCAAS_BUILDER_NAME, path: builderDir }],
    });
    const logFile = join(m.dir, "logs", "peer.log");
    specs.push({
      id: name,
      command: params.bins.peer,
      args: ["node", "start"],
      env: fabricNodeEnv({ configDir: join(m.dir, "config") }),
      cwd: m.dir,
      logFile,
      probe: allProbes(httpHealthProbe(`http://127.0.0.1:${ops}/healthz`), tcpProbe("127.0.0.1", port)),
      startTimeoutMs: 60_000,
    });
    peers.push({ name, address: `127.0.0.1:${port}`, tls: m.pair, identityCertPem: m.identityCertPem, logFile });
  }

  const supervisor = createSupervisor({
    stateDir: join(root, "runtime"),
    pollIntervalMs: 250,
    probeIntervalMs: 200,
    stopTimeoutMs: 10_000,
    restart: { baseDelayMs: 500, maxDelayMs: 2000, maxAttempts: 0 },
  });
  const states = await Promise.all(specs.map((s) => supervisor.start(s)));
  return {
    orderers,
    peers,
    supervisor,
    states,
    async stop() {
      await Promise.all(
        supervisor
          .list()
          .filter((s) => s.pid && s.status !== "STOPPED")
          .map((s) => supervisor.stop(s.id).catch(() => undefined)),
      );
      supervisor.close();
    },
  };
}
