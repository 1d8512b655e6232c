import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, existsSync } from "node:fs";
import { request } from "node:http";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp, type BuiltApp } from "../../app.js";
import { loadConfig, type Config } from "../../config/config.js";
import { checkPorts, createFabricBinaryResolver, getHealthz } from "../../runtime/index.js";

/**
 * End to end through the API with real Fabric binaries: an org, two peers and three orderers
 * reach RUNNING; kill -9 of a peer is detected and recovered; a second console on the same data
 * dir adopts all five without duplicates; delete frees ports and files; a start that fails
 * shows ERROR with the reason from the node's log. Skipped (with the reason) without binaries.
 */
const VERSION = process.env.CHAINLAUNCH_E2E_FABRIC_VERSION ?? "3.1.0";
const bins = await createFabricBinaryResolver({ downloader: null }).findLocal(VERSION, ["peer", "orderer"]);
if (!bins) console.warn(`nodes e2e skipped: no Fabric ${VERSION} binaries; run scripts/fabric-build.sh ${VERSION}`);

const dataDir = mkdtempSync(join(tmpdir(), "cl-nodes-e2e-"));
const config: Config = {
  ...loadConfig({
    CHAINLAUNCH_ADMIN_PASSWORD: "admin-password-1",
    LOG_LEVEL: "silent",
    CHAINLAUNCH_FABRIC_DOWNLOAD: "0",
    // Report the kill -9 below although the supervisor brings the peer back within seconds.
    CHAINLAUNCH_DOWNTIME_GRACE_SECONDS: "0.2",
  }),
  dataDir,
  databaseUrl: undefined,
  webDist: join(dataDir, "no-web"),
};
const admin = { authorization: `Basic ${Buffer.from("admin:admin-password-1").toString("base64")}` };
let built: BuiltApp | undefined;

type Node = {
  id: number;
  name: string;
  status: string;
  errorMessage?: string;
  fabricPeer?: Record<string, string>;
  fabricOrderer?: Record<string, string>;
};

async function call<T = Node>(
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  payload?: object,
): Promise<{ status: number; body: T }> {
  const res = await (built as BuiltApp).app.inject({
    method,
    url: `/api/v1${url}`,
    headers: admin,
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: (res.body ? res.json() : undefined) as T };
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, ms: number): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const slugOf = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
function pidOf(name: string): number | undefined {
  try {
    return (
      JSON.parse(readFileSync(join(dataDir, "runtime", "pids", `${slugOf(name)}.json`), "utf8")) as { pid: number }
    ).pid;
  } catch {
    return undefined;
  }
}
/** Processes whose working directory is a node folder of this data dir. */
function nodeProcesses(): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const cwd = readlinkSync(`/proc/${p}/cwd`);
      if (!cwd.startsWith(join(dataDir, "nodes"))) continue;
      const slug = cwd.slice(join(dataDir, "nodes").length + 1);
      out.set(slug, [...(out.get(slug) ?? []), Number(p)]);
    } catch {
      // gone or not ours
    }
  }
  return out;
}
const statusOf = async (id: number): Promise<Node> => (await call("GET", `/nodes/${id}`)).body;
const running = (id: number) => async () => {
  const n = await statusOf(id);
  if (n.status === "ERROR") throw new Error(`node ${n.name} failed: ${n.errorMessage}`);
  return n.status === "RUNNING" ? n : undefined;
};

afterAll(async () => {
  // Safety net: no node of this test outlives it, whatever failed above.
  for (const [, pids] of nodeProcesses()) for (const pid of pids) process.kill(pid, "SIGKILL");
  await built?.close();
  if (process.env.CHAINLAUNCH_E2E_KEEP) console.warn(`nodes e2e: kept ${dataDir}`);
  else rmSync(dataDir, { recursive: true, force: true });
});

describe("Fabric nodes through the API", () => {
  it.skipIf(!bins)(
    `run 2 peers and 3 orderers, recover from kill -9, survive a console restart (Fabric ${VERSION})`,
    { timeout: 180_000 },
    async () => {
      built = await buildApp(config);
      expect((await call("POST", "/settings", { config: { healthCheckInterval: "1s" } })).status).toBe(200);
      const org = (
        await call<{ id: number; mspId: string }>("POST", "/organizations", { mspId: "E2eOrgMSP", name: "E2E" })
      ).body;
      const d = (
        await call<{ peers: Record<string, string>[]; orderers: Record<string, string>[] }>(
          "GET",
          "/nodes/defaults/fabric?peerCount=2&ordererCount=3",
        )
      ).body;
      const specs = [
        ...d.peers.map((p, i) => ({
          name: `peer${i}`,
          blockchainPlatform: "FABRIC",
          fabricPeer: {
            organizationId: org.id,
            mspId: org.mspId,
            version: VERSION,
            listenAddress: p.listenAddress,
            chaincodeAddress: p.chaincodeAddress,
            operationsListenAddress: p.operationsListenAddress,
            externalEndpoint: p.externalEndpoint,
          },
        })),
        ...d.orderers.map((o, i) => ({
          name: `orderer${i}`,
          blockchainPlatform: "FABRIC",
          fabricOrderer: {
            organizationId: org.id,
            mspId: org.mspId,
            version: VERSION,
            listenAddress: o.listenAddress,
            adminAddress: o.adminAddress,
            operationsListenAddress: o.operationsListenAddress,
            externalEndpoint: o.externalEndpoint,
          },
        })),
      ];
      const t0 = Date.now();
      const created = await Promise.all(
        specs.map(async (s) => {
          const start = Date.now();
          const res = await call("POST", "/nodes", s);
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          const node = await waitFor(`${s.name} RUNNING`, running(res.body.id), 90_000);
          return { node, ms: Date.now() - start };
        }),
      );
      console.warn(
        `nodes e2e: create→RUNNING ${created.map((c) => `${c.node.name} ${c.ms} ms`).join(", ")}; all five in ${Date.now() - t0} ms`,
      );
      const nodes = created.map((c) => c.node);
      for (const n of nodes) {
        const ops = (n.fabricPeer ?? n.fabricOrderer)?.operationsAddress as string;
        expect(await getHealthz(`http://127.0.0.1:${ops.split(":")[1]}/healthz`), n.name).toMatchObject({ ok: true });
      }
      const health = await waitFor(
        "stored health",
        async () => {
          const res = await (built as BuiltApp).app.inject({
            method: "GET",
            url: `/api/v1/nodes/${nodes[0]!.id}/health`,
            // Signed in: anonymous callers get the status only.
            headers: admin,
          });
          return res.json().status === "healthy" ? res.json() : undefined;
        },
        10_000,
      );
      expect(health).toMatchObject({ nodeName: "peer0", platform: "FABRIC" });

      // kill -9 one peer: detected, recorded, back to RUNNING under a new pid.
      const peer0 = nodes[0] as Node;
      const oldPid = pidOf("peer0") as number;
      const t1 = Date.now();
      process.kill(oldPid, "SIGKILL");
      await waitFor(
        "peer0 back",
        async () => {
          const n = await statusOf(peer0.id);
          const pid = pidOf("peer0");
          return n.status === "RUNNING" && pid && pid !== oldPid ? n : undefined;
        },
        60_000,
      );
      console.warn(`nodes e2e: peer0 back to RUNNING ${Date.now() - t1} ms after kill -9`);
      const events = (
        await call<{ items: { type: string; data: Record<string, unknown> }[] }>(
          "GET",
          `/nodes/${peer0.id}/events?limit=50`,
        )
      ).body.items;
      expect(events.find((e) => e.type === "crash")?.data).toMatchObject({
        pid: oldPid,
        signal: "SIGKILL",
        willRestart: true,
      });
      const notes = (
        await call<{ notifications?: { event_type: string }[] } & Record<string, unknown>>(
          "GET",
          "/user-notifications?limit=50",
        )
      ).body;
      expect(JSON.stringify(notes)).toContain("node.downtime");
      expect(JSON.stringify(notes)).toContain("node.recovery");

      // Console restart: a new app on the same data dir adopts all five; no process is duplicated.
      const pidsBefore = nodes.map((n) => pidOf(n.name));
      await built.close();
      built = undefined;
      built = await buildApp(config);
      // The stored status still says RUNNING from before the restart: wait for the adoption itself.
      const adoptedEvent = (id: number) => async () => {
        const items = (await call<{ items: { type: string }[] }>("GET", `/nodes/${id}/events`)).body.items;
        return items.some((e) => e.type === "adopted") ? true : undefined;
      };
      for (const n of nodes) {
        await waitFor(`${n.name} adopted`, adoptedEvent(n.id), 30_000);
        await waitFor(`${n.name} RUNNING after adoption`, running(n.id), 30_000);
      }
      expect(nodes.map((n) => pidOf(n.name))).toEqual(pidsBefore);
      const procs = nodeProcesses();
      expect([...procs.values()].map((p) => p.length)).toEqual([1, 1, 1, 1, 1]);
      const adoptedEvents = (await call<{ items: { type: string }[] }>("GET", `/nodes/${nodes[2]!.id}/events`)).body
        .items;
      expect(adoptedEvents.map((e) => e.type)).toContain("adopted");

      // Delete frees ports and files.
      const gone = nodes[4] as Node;
      const gonePorts = ["listenAddress", "adminAddress", "operationsAddress"].map((k) =>
        Number((gone.fabricOrderer as Record<string, string>)[k]?.split(":")[1]),
      );
      expect((await call("DELETE", `/nodes/${gone.id}`)).status).toBe(204);
      expect(existsSync(join(dataDir, "nodes", "orderer2"))).toBe(false);
      expect(await checkPorts(gonePorts)).toEqual([]);

      // A start that fails (a foreign listener took the port after creation) shows ERROR with the log's reason.
      const late = (await call<Record<string, string>>("GET", "/nodes/defaults/fabric-peer")).body;
      const res = await call("POST", "/nodes?start=false", {
        name: "peer-blocked",
        blockchainPlatform: "FABRIC",
        fabricPeer: {
          organizationId: org.id,
          mspId: org.mspId,
          version: VERSION,
          listenAddress: late.listenAddress,
          chaincodeAddress: late.chaincodeAddress,
          operationsListenAddress: late.operationsListenAddress,
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const blocker: Server = createServer();
      await new Promise<void>((r) =>
        blocker.listen({ port: Number(late.listenAddress?.split(":")[1]), host: "127.0.0.1" }, r),
      );
      try {
        const failed = (await call("POST", `/nodes/${res.body.id}/start`)).body;
        expect(failed.status).toBe("ERROR");
        expect(failed.errorMessage).toMatch(/address already in use/);
      } finally {
        blocker.close();
      }

      // Logs: the last lines as text, then follow new lines (over real HTTP) while the node stops.
      const peer1 = nodes[1] as Node;
      const tail = await (built as BuiltApp).app.inject({
        method: "GET",
        url: `/api/v1/nodes/${peer1.id}/logs?tail=5`,
        headers: admin,
      });
      expect(tail.headers["content-type"]).toMatch(/^text\/plain/);
      expect(tail.body.trimEnd().split("\n")).toHaveLength(5);
      const base = await (built as BuiltApp).app.listen({ port: 0, host: "127.0.0.1" });
      // node:http, not fetch: undici keeps an aborted connection open, which would hold app.close().
      const chunks: string[] = [];
      const gotChunk = (n: number) =>
        waitFor(`log chunk ${n}`, async () => (chunks.length >= n ? true : undefined), 15_000);
      const followReq = request(`${base}/api/v1/nodes/${peer1.id}/logs?tail=1&follow=true`, { headers: admin }, (res) =>
        res.on("data", (c: Buffer) => chunks.push(c.toString("utf8"))),
      );
      followReq.end();
      await gotChunk(1);
      expect((chunks[0] as string).trimEnd().split("\n")).toHaveLength(1);
      // The same stream as Server-Sent Events: one `data:` event per line.
      const sse: { type?: string; body: string } = { body: "" };
      const sseReq = request(
        `${base}/api/v1/nodes/${peer1.id}/logs?tail=2&follow=true`,
        { headers: { ...admin, accept: "text/event-stream" } },
        (res) => {
          sse.type = res.headers["content-type"];
          res.on("data", (c: Buffer) => (sse.body += c.toString("utf8")));
        },
      );
      sseReq.end();
      await waitFor("sse events", async () => (sse.body.split("\n\n").length > 2 ? true : undefined), 15_000);
      sseReq.destroy();
      expect(sse.type).toMatch(/^text\/event-stream/);
      expect(
        sse.body
          .split("\n\n")
          .filter(Boolean)
          .slice(0, 2)
          .every((e) => e.startsWith("data: ")),
      ).toBe(true);
      const stopping = call("POST", `/nodes/${peer1.id}/stop`);
      await gotChunk(2);
      followReq.destroy();
      expect((await stopping).body.status).toBe("STOPPED");

      // Stop everything through the API.
      for (const n of nodes.slice(0, 4))
        expect((await call("POST", `/nodes/${n.id}/stop`)).body.status).toBe("STOPPED");
      expect(nodeProcesses().size).toBe(0);
    },
  );
});
