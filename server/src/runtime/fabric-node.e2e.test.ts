import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSelfSignedCertificate, issueCertificate, type Issuer } from "../crypto/certificates.js";
import { generateKeyPair, privateKeyToPem } from "../crypto/key-algorithms.js";
import { localSigner } from "../crypto/signer.js";
import {
  CCAAS_BUILDER_NAME,
  fabricNodeEnv,
  writeCcaasBuilder,
  writeCoreYaml,
  writeOrdererYaml,
  type TlsFiles,
} from "../fabric/config/index.js";
import { writeLocalMsp } from "../fabric/msp/index.js";
import { reservePorts } from "../test-support/ports.js";
import { createFabricBinaryResolver, type ResolvedFabricBinaries } from "./binaries.js";
import { allProbes, getHealthz, httpHealthProbe, tcpProbe } from "./health.js";
import { isAlive } from "./proc.js";
import { createSupervisor, type ProcessSpec, type Supervisor, type SupervisorEvent } from "./supervisor.js";

/**
 * Runs a real Fabric peer and orderer from our generated MSPs and configs under the supervisor.
 * Uses the first Fabric version found in the cache (3.1.5, else 3.1.0, else 2.5.16; or exactly
 * CHAINLAUNCH_E2E_FABRIC_VERSION), built by scripts/fabric-build.sh; skipped when there is none.
 */
const CANDIDATES = process.env.CHAINLAUNCH_E2E_FABRIC_VERSION
  ? [process.env.CHAINLAUNCH_E2E_FABRIC_VERSION]
  : ["3.1.5", "3.1.0", "2.5.16"];
const resolver = createFabricBinaryResolver({ downloader: null });
let bins: ResolvedFabricBinaries | null = null;
for (const v of CANDIDATES) {
  bins = await resolver.findLocal(v, ["peer", "orderer", "osnadmin"]);
  if (bins) break;
}
const VERSION = bins?.version ?? (CANDIDATES[0] as string);
if (!bins) {
  console.warn(
    `fabric-node e2e skipped: no Fabric ${CANDIDATES.join(" / ")} binaries in the cache or CHAINLAUNCH_FABRIC_BIN_DIR; run scripts/fabric-build.sh ${VERSION}`,
  );
}

const root = mkdtempSync(join(tmpdir(), "cl-fabric-e2e-"));
const days = (n: number): Date => new Date(Date.now() + n * 86_400_000);
const MSP_ID = "Org1MSP";

async function makeCa(cn: string): Promise<Issuer> {
  const kp = await generateKeyPair({ algorithm: "EC", curve: "P-256" });
  const signer = localSigner(kp.privateKey);
  const ca = await createSelfSignedCertificate({
    signer,
    subject: { commonName: cn, organization: [MSP_ID] },
    validity: { notAfter: days(365) },
  });
  return { certificatePem: ca.pem, signer };
}

async function issue(
  issuer: Issuer,
  cn: string,
  ou: string | undefined,
  tls: boolean,
): Promise<{ certPem: string; keyPem: string }> {
  const kp = await generateKeyPair({ algorithm: "EC", curve: "P-256" });
  const cert = await issueCertificate({
    issuer,
    publicKey: kp.publicKey,
    subject: { commonName: cn, organization: [MSP_ID], ...(ou ? { organizationalUnit: [ou] } : {}) },
    validity: { notAfter: days(30) },
    ...(tls
      ? { sans: { dnsNames: ["localhost", cn], ipAddresses: ["127.0.0.1"] }, extKeyUsage: ["serverAuth", "clientAuth"] }
      : {}),
  });
  return { certPem: cert.pem, keyPem: privateKeyToPem(kp.privateKey) };
}

/** Writes an MSP and a TLS pair for one node under `<root>/<name>`. */
async function nodeMaterial(
  name: string,
  role: "peer" | "orderer",
  ca: Issuer,
  tlsCa: Issuer,
): Promise<{ dir: string; mspDir: string; tls: TlsFiles }> {
  const dir = join(root, name);
  const id = await issue(ca, name, role, false);
  const mspDir = join(dir, "msp");
  await writeLocalMsp(mspDir, {
    caCertPem: ca.certificatePem,
    signCertPem: id.certPem,
    privateKeyPem: id.keyPem,
    tlsCaCertPem: tlsCa.certificatePem,
  });
  const tlsPair = await issue(tlsCa, name, undefined, true);
  mkdirSync(join(dir, "tls"), { recursive: true });
  const tls: TlsFiles = {
    certFile: join(dir, "tls", "server.crt"),
    keyFile: join(dir, "tls", "server.key"),
    rootCertFile: join(dir, "tls", "ca.crt"),
  };
  writeFileSync(tls.certFile, tlsPair.certPem);
  writeFileSync(tls.keyFile, tlsPair.keyPem, { mode: 0o600 });
  writeFileSync(tls.rootCertFile, tlsCa.certificatePem);
  return { dir, mspDir, tls };
}

function run(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 20_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) || 1 : 0, stdout, stderr }),
    );
  });
}

async function waitFor<T>(fn: () => T | undefined | Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
}

const events: SupervisorEvent[] = [];
const newSupervisor = (): Supervisor =>
  createSupervisor({
    stateDir: join(root, "runtime"),
    pollIntervalMs: 250,
    probeIntervalMs: 200,
    stopTimeoutMs: 10_000,
    restart: { baseDelayMs: 500, maxDelayMs: 2000, maxAttempts: 3 },
    onEvent: (e) => events.push(e),
  });
let supervisor = newSupervisor();

afterAll(async () => {
  for (const s of supervisor.list()) {
    if (s.pid && s.status !== "STOPPED") await supervisor.stop(s.id).catch(() => undefined);
  }
  supervisor.close();
  if (process.env.CHAINLAUNCH_E2E_KEEP) console.warn(`fabric-node e2e: kept ${root}`);
  else rmSync(root, { recursive: true, force: true });
});

describe("a real Fabric peer and orderer under the supervisor", () => {
  it.skipIf(!bins)(
    `start from our MSPs and configs, answer /healthz, survive kill -9, stop cleanly (Fabric ${VERSION})`,
    { timeout: 120_000 },
    async () => {
      const b = bins as ResolvedFabricBinaries;
      const ca = await makeCa("ca.org1.example.com");
      const tlsCa = await makeCa("tlsca.org1.example.com");
      const peer = await nodeMaterial("peer0.org1.example.com", "peer", ca, tlsCa);
      const orderer = await nodeMaterial("orderer0.org1.example.com", "orderer", ca, tlsCa);
      const adminTls = await issue(tlsCa, "admin.org1.example.com", undefined, true);
      writeFileSync(join(root, "admin-tls.crt"), adminTls.certPem);
      writeFileSync(join(root, "admin-tls.key"), adminTls.keyPem, { mode: 0o600 });

      const from = await reservePorts(10);
      const [peerPort, ccPort, peerOps, ordPort, adminPort, ordOps, ord1Port, ord1Cluster, ord1Admin, ord1Ops] = [
        from,
        from + 1,
        from + 2,
        from + 3,
        from + 4,
        from + 5,
        from + 6,
        from + 7,
        from + 8,
        from + 9,
      ];

      const builderDir = await writeCcaasBuilder(join(peer.dir, "builders", "ccaas"));
      await writeCoreYaml(join(peer.dir, "config"), {
        version: VERSION,
        peerId: "peer0.org1.example.com",
        mspId: MSP_ID,
        mspDir: peer.mspDir,
        fileSystemPath: join(peer.dir, "data"),
        listenAddress: `127.0.0.1:${peerPort}`,
        externalEndpoint: `localhost:${peerPort}`,
        chaincodeListenAddress: `127.0.0.1:${ccPort}`,
        tls: peer.tls,
        operationsListenAddress: `127.0.0.1:${peerOps}`,
        externalBuilders: [{ name: CCAAS_BUILDER_NAME, path: builderDir }],
        ordererAddressOverrides: [
          { from: "orderer0.org1.example.com:7050", to: `127.0.0.1:${ordPort}`, caCertsFile: peer.tls.rootCertFile },
        ],
      });
      await writeOrdererYaml(join(orderer.dir, "config"), {
        version: VERSION,
        name: "orderer0",
        mspId: MSP_ID,
        mspDir: orderer.mspDir,
        listenAddress: `127.0.0.1:${ordPort}`,
        tls: orderer.tls,
        adminListenAddress: `127.0.0.1:${adminPort}`,
        operationsListenAddress: `127.0.0.1:${ordOps}`,
        fileLedgerLocation: join(orderer.dir, "data"),
      });

      // A second orderer with a separate cluster listener (the other template branch).
      const orderer1 = await nodeMaterial("orderer1.org1.example.com", "orderer", ca, tlsCa);
      await writeOrdererYaml(join(orderer1.dir, "config"), {
        version: VERSION,
        name: "orderer1",
        mspId: MSP_ID,
        mspDir: orderer1.mspDir,
        listenAddress: `127.0.0.1:${ord1Port}`,
        cluster: { listenAddress: `127.0.0.1:${ord1Cluster}` },
        tls: orderer1.tls,
        adminListenAddress: `127.0.0.1:${ord1Admin}`,
        operationsListenAddress: `127.0.0.1:${ord1Ops}`,
        fileLedgerLocation: join(orderer1.dir, "data"),
      });

      const peerSpec: ProcessSpec = {
        id: "peer0",
        command: b.paths.peer as string,
        args: ["node", "start"],
        env: fabricNodeEnv({ configDir: join(peer.dir, "config") }),
        cwd: peer.dir,
        logFile: join(peer.dir, "logs", "peer.log"),
        probe: allProbes(httpHealthProbe(`http://127.0.0.1:${peerOps}/healthz`), tcpProbe("127.0.0.1", peerPort)),
        startTimeoutMs: 60_000,
      };
      const ordererSpec: ProcessSpec = {
        id: "orderer0",
        command: b.paths.orderer as string,
        args: [],
        env: fabricNodeEnv({ configDir: join(orderer.dir, "config") }),
        cwd: orderer.dir,
        logFile: join(orderer.dir, "logs", "orderer.log"),
        probe: allProbes(
          httpHealthProbe(`http://127.0.0.1:${ordOps}/healthz`),
          tcpProbe("127.0.0.1", ordPort),
          tcpProbe("127.0.0.1", adminPort),
        ),
        startTimeoutMs: 60_000,
      };

      const orderer1Spec: ProcessSpec = {
        ...ordererSpec,
        id: "orderer1",
        env: fabricNodeEnv({ configDir: join(orderer1.dir, "config") }),
        cwd: orderer1.dir,
        logFile: join(orderer1.dir, "logs", "orderer.log"),
        probe: allProbes(
          httpHealthProbe(`http://127.0.0.1:${ord1Ops}/healthz`),
          tcpProbe("127.0.0.1", ord1Port),
          tcpProbe("127.0.0.1", ord1Admin),
          tcpProbe("127.0.0.1", ord1Cluster),
        ),
      };

      const t0 = Date.now();
      const [p, o, o1] = await Promise.all([
        supervisor.start(peerSpec),
        supervisor.start(ordererSpec),
        supervisor.start(orderer1Spec),
      ]);
      const startMs = Date.now() - t0;
      if (p.status !== "RUNNING") console.error(readFileSync(peerSpec.logFile as string, "utf8"));
      if (o.status !== "RUNNING") console.error(readFileSync(ordererSpec.logFile as string, "utf8"));
      expect(p, p.errorMessage).toMatchObject({ status: "RUNNING" });
      expect(o, o.errorMessage).toMatchObject({ status: "RUNNING" });
      expect(o1, o1.errorMessage).toMatchObject({ status: "RUNNING" });
      console.warn(`fabric-node e2e: peer and two orderers healthy ${startMs} ms after start`);
      const o1Log = readFileSync(orderer1Spec.logFile as string, "utf8");
      expect(o1Log).toContain(`Starting cluster listener on 127.0.0.1:${ord1Cluster}`);
      // Plain log format (only lines logged before logging is set up keep upstream colours).
      expect(o1Log.split("\n").find((l) => l.includes("Beginning to serve requests"))).not.toContain("\u001b[");

      expect(await getHealthz(`http://127.0.0.1:${peerOps}/healthz`)).toMatchObject({ ok: true, status: 200 });
      expect(await getHealthz(`http://127.0.0.1:${ordOps}/healthz`)).toMatchObject({ ok: true, status: 200 });
      const version = (await fetch(`http://127.0.0.1:${peerOps}/version`).then((r) => r.json())) as {
        Version: string;
      };
      expect(version.Version).toBe(VERSION);
      const metrics = await fetch(`http://127.0.0.1:${ordOps}/metrics`).then((r) => r.text());
      expect(metrics).toContain("# TYPE");

      // Admin API with mutual TLS: listing channels works with a client cert from the TLS CA.
      const list = await run(b.paths.osnadmin as string, [
        "channel",
        "list",
        "-o",
        `127.0.0.1:${adminPort}`,
        "--ca-file",
        orderer.tls.rootCertFile,
        "--client-cert",
        join(root, "admin-tls.crt"),
        "--client-key",
        join(root, "admin-tls.key"),
      ]);
      expect(list.stdout + list.stderr).toContain("Status: 200");

      // kill -9 the peer: the supervisor records the crash and brings it back.
      const t1 = Date.now();
      process.kill(p.pid as number, "SIGKILL");
      const back = await waitFor(() => {
        const s = supervisor.get("peer0");
        return s?.status === "RUNNING" && s.pid !== p.pid ? s : undefined;
      }, 60_000);
      console.warn(`fabric-node e2e: peer back to RUNNING ${Date.now() - t1} ms after kill -9`);
      expect(events.find((e) => e.type === "crash" && e.id === "peer0")).toMatchObject({
        pid: p.pid,
        signal: "SIGKILL",
        willRestart: true,
      });
      expect(await getHealthz(`http://127.0.0.1:${peerOps}/healthz`)).toMatchObject({ ok: true });

      // Console restart: a new supervisor finds all three again, same pids, no new processes.
      supervisor.close();
      supervisor = newSupervisor();
      const specs = [peerSpec, ordererSpec, orderer1Spec];
      const adopted = await Promise.all(specs.map((spec) => supervisor.adopt(spec)));
      expect(adopted.map((a) => [a.status, a.adopted, a.pid])).toEqual([
        ["RUNNING", true, back.pid],
        ["RUNNING", true, o.pid],
        ["RUNNING", true, o1.pid],
      ]);

      const stopped = await Promise.all(["peer0", "orderer0", "orderer1"].map((id) => supervisor.stop(id)));
      expect(stopped.map((s) => s.status)).toEqual(["STOPPED", "STOPPED", "STOPPED"]);
      expect(await isAlive(o1.pid as number)).toBe(false);
      expect(await isAlive(back.pid as number)).toBe(false);
      expect(await isAlive(o.pid as number)).toBe(false);
    },
  );
});
