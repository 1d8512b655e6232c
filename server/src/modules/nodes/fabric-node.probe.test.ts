import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { createSupervisor } from "../../runtime/supervisor.js";
import { reservePorts } from "../../test-support/ports.js";
import { fabricProcessSpec, type FabricDeployment } from "./fabric-node.js";

const root = mkdtempSync(join(tmpdir(), "cl-fabric-probe-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = connect({ host: "127.0.0.1", port });
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
  });

it("an orderer is RUNNING only once /healthz is OK and its gRPC and admin ports accept connections", async () => {
  const ops = await reservePorts(3);
  const [listen, admin] = [ops + 1, ops + 2];
  // Stands in for the orderer binary with Fabric's start-up order: the operations server answers
  // /healthz at once, the gRPC listener binds later and the channel-participation listener later still.
  const binary = join(root, "orderer");
  writeFileSync(
    binary,
    `#!${process.execPath}
const http = require("node:http"), net = require("node:net");
http.createServer((_q, r) => { r.setHeader("content-type", "application/json"); r.end('{"status":"OK"}'); }).listen(${ops}, "127.0.0.1");
setTimeout(() => net.createServer((s) => s.end()).listen(${listen}, "127.0.0.1"), 700);
setTimeout(() => net.createServer((s) => s.end()).listen(${admin}, "127.0.0.1"), 1200);
process.on("SIGTERM", () => process.exit(0));
`,
  );
  chmodSync(binary, 0o755);
  const dir = join(root, "node");
  mkdirSync(join(dir, "config"), { recursive: true });
  const deployment = {
    kind: "fabric",
    role: "orderer",
    binary,
    dir,
    logFile: join(dir, "orderer.log"),
    env: {},
    healthUrl: `http://127.0.0.1:${ops}/healthz`,
    listenAddress: `0.0.0.0:${listen}`,
    adminAddress: `0.0.0.0:${admin}`,
  } as unknown as FabricDeployment;

  const sup = createSupervisor({ stateDir: join(root, "state"), probeIntervalMs: 500, stopTimeoutMs: 3000 });
  try {
    const state = await sup.start(fabricProcessSpec("orderer-probe", deployment));
    expect(state.status, state.errorMessage).toBe("RUNNING");
    // With /healthz alone it was RUNNING at ~300 ms, while both ports still refused connections.
    expect(await accepts(listen)).toBe(true);
    expect(await accepts(admin)).toBe(true);
  } finally {
    await sup.stop("orderer-probe").catch(() => undefined);
    sup.close();
  }
});
