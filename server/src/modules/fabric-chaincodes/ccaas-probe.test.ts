import { spawn, type ChildProcess } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { afterAll, describe, expect, it } from "vitest";
import { createSelfSignedCertificate, issueCertificate } from "../../crypto/certificates.js";
import { privateKeyToPem } from "../../crypto/key-algorithms.js";
import { localSigner } from "../../crypto/signer.js";
import { buildChaincode, which } from "../../runtime/chaincode-source.js";
import { createSandbox } from "../../runtime/sandbox.js";
import { freePort } from "../../test-support/ports.js";
import { SANDBOX_TEST_CACHE } from "../../test-support/test-app.js";
import { boilerplatesDir } from "../chaincode-projects/boilerplates.js";
import { CcaasProbeError, METADATA_FUNCTION, probeChaincodeServer } from "./ccaas-probe.js";

const root = mkdtempSync(join(tmpdir(), "cl-probe-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
});
// Builds run as the product runs them (in the sandbox, with the test caches every test app shares).
const sandbox = createSandbox({ mode: "auto", user: "chainlaunch-sandbox", cacheDir: SANDBOX_TEST_CACHE });

/** A boilerplate copied and built the way a project Run builds it. */
async function built(id: string, type: "node" | "go", edit?: (dir: string) => void) {
  const dir = join(root, `${id}-${children.length}-${Math.random().toString(36).slice(2, 6)}`, "src");
  cpSync(join(boilerplatesDir(), id), dir, { recursive: true });
  edit?.(dir);
  return buildChaincode({ type, srcDir: dir, logFile: join(dir, "..", "build.log"), sandbox });
}

/** Starts a built chaincode server on its own port, as the console starts one (address and id flags/env). */
async function serve(
  run: { command: string; args: string[]; cwd: string },
  type: "node" | "go",
  tls?: { key: string; cert: string },
): Promise<{ address: string; child: ChildProcess; log: () => string }> {
  const address = `127.0.0.1:${await freePort()}`;
  const ccid = "probe_1.0:0123456789abcdef";
  const tlsArgs =
    tls && type === "node" ? ["--chaincode-tls-key-file", tls.key, "--chaincode-tls-cert-file", tls.cert] : [];
  const args = type === "node" ? [...run.args, "--chaincode-address", address, "--chaincode-id", ccid, ...tlsArgs] : [];
  let out = "";
  const child = spawn(run.command, args, {
    cwd: run.cwd,
    env: {
      PATH: process.env.PATH ?? "",
      CHAINCODE_ID: ccid,
      CHAINCODE_SERVER_ADDRESS: address,
      CHAINCODE_TLS_DISABLED: tls ? "false" : "true",
      ...(tls ? { CHAINCODE_TLS_KEY: tls.key, CHAINCODE_TLS_CERT: tls.cert } : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (b: Buffer) => (out += b.toString()));
  child.stderr?.on("data", (b: Buffer) => (out += b.toString()));
  children.push(child);
  return { address, child, log: () => out };
}

const haveGo = Boolean(await which("go", ["/usr/local/go/bin"]));
if (!haveGo) console.warn("ccaas probe tests: the Go case is skipped: no `go` on PATH");

describe("ccaas probe", () => {
  it("a built JavaScript chaincode registers and answers its metadata", { timeout: 300_000 }, async () => {
    const server = await serve(await built("chaincode-javascript", "node"), "node");
    const r = await probeChaincodeServer({ address: server.address });
    expect(r.chaincodeId).toBe("probe_1.0:0123456789abcdef");
    expect(Object.keys(r.metadata.contracts as object)).toContain("AssetTransfer");
  });

  it("a JavaScript file with a syntax error is refused, with the reason", { timeout: 300_000 }, async () => {
    const run = await built("chaincode-javascript", "node", (dir) => {
      const file = join(dir, "lib", "assetTransfer.js");
      writeFileSync(file, `${readFileSync(file, "utf8")}\n}}} this is not javascript (\n`);
    });
    const server = await serve(run, "node");
    const err = await probeChaincodeServer({ address: server.address, timeoutMs: 5_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CcaasProbeError);
    expect((err as CcaasProbeError).message).toMatch(/no gRPC server answered at .* within 5 s/);
    expect(server.log()).toMatch(/SyntaxError/);
  });

  it("a server that listens but never registers times out, naming the step", { timeout: 60_000 }, async () => {
    const silent = new grpc.Server();
    silent.register(
      "/protos.Chaincode/Connect",
      () => undefined,
      (b: Buffer) => b,
      (b: Buffer) => b,
      "bidi",
    );
    const port = await freePort();
    await new Promise<void>((resolve, reject) =>
      silent.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (e) =>
        e ? reject(e) : resolve(),
      ),
    );
    try {
      const t0 = Date.now();
      const err = await probeChaincodeServer({ address: `127.0.0.1:${port}`, timeoutMs: 2_000 }).catch(
        (e: unknown) => e,
      );
      expect((err as CcaasProbeError).stage).toBe("register");
      expect((err as Error).message).toBe(
        `the server at 127.0.0.1:${port} accepted the connection but did not register within 2 s`,
      );
      expect(Date.now() - t0).toBeLessThan(10_000);
    } finally {
      silent.forceShutdown();
    }
  });

  it("speaks TLS to a server with a certificate from a CA", { timeout: 300_000 }, async () => {
    const notAfter = new Date(Date.now() + 86_400_000);
    const caKey = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    const ca = await createSelfSignedCertificate({
      signer: localSigner(caKey.privateKey),
      subject: { commonName: "probe test CA" },
      validity: { notAfter },
    });
    const leaf = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    const cert = await issueCertificate({
      issuer: { certificatePem: ca.pem, signer: localSigner(caKey.privateKey) },
      publicKey: leaf.publicKey,
      subject: { commonName: "chaincode" },
      sans: { ipAddresses: ["127.0.0.1"], dnsNames: ["localhost"] },
      extKeyUsage: ["serverAuth"],
      validity: { notAfter },
    });
    const key = join(root, "server.key");
    const crt = join(root, "server.crt");
    writeFileSync(key, privateKeyToPem(leaf.privateKey), { mode: 0o600 });
    writeFileSync(crt, cert.pem);
    const server = await serve(await built("chaincode-javascript", "node"), "node", { key, cert: crt });
    const r = await probeChaincodeServer({ address: server.address, tls: { rootCertPem: ca.pem } });
    expect(Object.keys(r.metadata.contracts as object)).toContain("AssetTransfer");
  });

  it.skipIf(!haveGo)("a built Go chaincode answers its metadata too", { timeout: 600_000 }, async () => {
    const server = await serve(await built("chaincode-go", "go"), "go");
    const r = await probeChaincodeServer({ address: server.address });
    expect(JSON.stringify(r.metadata)).toContain("AssetTransfer");
    expect(METADATA_FUNCTION).toBe("org.hyperledger.fabric:GetMetadata");
  });
});
