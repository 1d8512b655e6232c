import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { managerCallers } from "../../test-support/callers.js";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricApi,
  type FabricApi,
  haveFabricBinaries,
  TEST_BATCH_TIMEOUT,
} from "../../test-support/fabric-api.js";

const run = promisify(execFile);

/**
 * Chaincode projects on real binaries (a 1-org channel: one peer, one orderer): a TypeScript project
 * from the boilerplate starts (sequence 1), answers an invoke and a query, is edited through the files
 * API and started again (sequence 2, new behaviour, state kept); a compile error is reported with file
 * and line while sequence 2 keeps answering; a manager's contract that attacks the console from inside
 * its server finds nothing of the console's (the sandbox); a Go project goes through the same API; a
 * JavaScript project whose new code does not load is refused before anything reaches the channel.
 */
const bins = await haveFabricBinaries("chaincode projects e2e");
let goOk = true;
try {
  await run("go", ["version"]);
} catch {
  goOk = false;
  console.warn("chaincode projects e2e: Go part skipped: no `go` on PATH");
}
let harness: FabricApi | undefined;
afterAll(async () => harness?.close());

describe("chaincode projects on a real channel", () => {
  it.skipIf(!bins)(
    `runs a TypeScript, a Go and a JavaScript project, edits and restarts them, and survives a build error and a server that does not load (Fabric ${VERSION})`,
    { timeout: 900_000 },
    async () => {
      const h = await fabricApi();
      harness = h;
      const org = await h.ok("POST", "/organizations", { mspId: "PrOrg1MSP", name: "Projects Org 1" });
      const ord = await h.ok("POST", "/organizations", { mspId: "PrOrdMSP", name: "Projects Orderers" });
      const [peer] = await h.createNodes(org, 1, 0, "pr-");
      const [orderer] = await h.createNodes(ord, 0, 1, "pro-");
      const net = await h.ok("POST", "/networks/fabric", {
        name: "projchannel",
        config: {
          batchTimeout: TEST_BATCH_TIMEOUT,
          peerOrganizations: [{ id: org.id, nodeIds: [peer.id] }],
          ordererOrganizations: [{ id: ord.id, nodeIds: [orderer.id] }],
        },
      });
      await h.ok("POST", `/networks/fabric/${net.id}/orderers/${orderer.id}/join`);
      await h.ok("POST", `/networks/fabric/${net.id}/peers/${peer.id}/join`);

      // --- TypeScript ---
      const ts = await h.ok("POST", "/chaincode-projects", {
        name: "Assets TS",
        networkId: net.id,
        boilerplate: "chaincode-typescript",
        endorsementPolicy: "OR('PrOrg1MSP.member')",
      });
      const first = await h.ok("POST", `/chaincode-projects/${ts.id}/start`);
      expect(first).toMatchObject({ status: "success", sequence: 1 });
      expect(Object.keys(first.phases)).toEqual(["build", "install", "run", "verify", "approve", "commit"]);
      const running = await h.ok("GET", `/chaincode-projects/${ts.id}`);
      expect(running).toMatchObject({ status: "running", lastError: null });
      expect(running.containerPort).toBeGreaterThan(0);

      const invoked = await h.ok("POST", `/chaincode-projects/${ts.id}/invoke`, {
        function: "CreateAsset",
        args: ["asset1", "blue", "5", "Tom", "300"],
        orgId: org.id,
      });
      expect(invoked).toMatchObject({ status: "success", chaincode: ts.slug, channel: "projchannel", code: 200 });
      expect(invoked.transactionId).toMatch(/^[0-9a-f]{64}$/);
      const read = async (id: number) =>
        (await h.ok("POST", `/chaincode-projects/${id}/query`, { function: "ReadAsset", args: ["asset1"] })).result;
      expect(await read(ts.id)).toMatchObject({ ID: "asset1", Color: "blue", Owner: "Tom" });
      const meta = await h.ok("GET", `/chaincode-projects/${ts.id}/metadata`);
      expect(JSON.stringify(meta.result)).toContain("TransferAsset");

      // A one-line change through the files API: ReadAsset shouts the color.
      const file = "src/assetTransfer.ts";
      const src = (await h.ok("GET", `/projects/${ts.id}/files/read?path=${file}`)).content as string;
      const line = 'return JSON.parse(Buffer.from(bytes).toString("utf8")) as Asset;';
      expect(src).toContain(line);
      const edited = src.replace(
        line,
        'const a = JSON.parse(Buffer.from(bytes).toString("utf8")) as Asset; return { ...a, Color: a.Color.toUpperCase() };',
      );
      await h.ok("POST", `/projects/${ts.id}/files/write`, { path: file, content: edited });
      const second = await h.ok("POST", `/chaincode-projects/${ts.id}/start`);
      expect(second.sequence).toBe(2);
      expect(await read(ts.id)).toMatchObject({ ID: "asset1", Color: "BLUE", Owner: "Tom" });

      // Each successful start is a commit; the second one changed the contract file.
      const commits = (await h.ok("GET", `/chaincode-projects/${ts.id}/commits`)).commits;
      expect(commits.map((c: { message: string }) => c.message.split("\n")[0])).toEqual([
        "Start: sequence 2",
        "Start: sequence 1",
        "Create from chaincode-typescript",
      ]);
      expect(second.commit).toBe(commits[0].hash);
      expect(commits[0].modified).toEqual([file]);
      const diff = await h.t.app.inject({
        method: "GET",
        url: `/api/v1/chaincode-projects/${ts.id}/diff?file=${file}&from=${commits[1].hash}&to=${commits[0].hash}`,
        headers: h.t.admin,
      });
      expect(diff.body).toContain("+    const a = JSON.parse");

      // A compile error: named with file and line; sequence 2 keeps answering.
      const broken = edited.replace(
        "public async DeleteAsset(ctx: Context, id: string): Promise<void> {",
        "public async DeleteAsset(ctx: Context, id: string): Promise<void> {\n    const n: number = id;",
      );
      expect(broken).not.toBe(edited);
      await h.ok("POST", `/projects/${ts.id}/files/write`, { path: file, content: broken });
      const failed = await h.call("POST", `/chaincode-projects/${ts.id}/start`);
      expect(failed.status).toBe(400);
      expect(failed.body.message).toMatch(/^build: src\/assetTransfer\.ts:\d+:\d+: error TS2322/);
      const diag = failed.body.details.diagnostics[0];
      expect(diag).toMatchObject({ file: "src/assetTransfer.ts" });
      expect(broken.split("\n")[diag.line - 1]).toContain("const n: number = id;");
      const after = await h.ok("GET", `/chaincode-projects/${ts.id}`);
      expect(after.status).toBe("running");
      expect(after.lastError).toMatch(/src\/assetTransfer\.ts:\d+/);
      expect(await read(ts.id)).toMatchObject({ Color: "BLUE" });
      // A failed start records nothing.
      expect((await h.ok("GET", `/chaincode-projects/${ts.id}/commits`)).commits).toHaveLength(3);
      const log = await h.t.app.inject({
        method: "GET",
        url: `/api/v1/chaincode-projects/${ts.id}/logs?tail=2000`,
        headers: h.t.admin,
      });
      expect(log.body).toContain("error TS2322");
      expect(log.body).toMatch(/commit done in \d+ ms/);

      // A manager (session and API key) writes a contract whose transaction attacks the console from
      // inside its chaincode server, starts it and asks: the sandbox leaves it nothing of the console's.
      // (With CHAINLAUNCH_SANDBOX=off the same transaction reads master.key: checked by hand.)
      const [session, apiKey] = await managerCallers(h.t);
      const as = async (headers: Record<string, string>, method: "POST", url: string, payload?: object) => {
        const res = await h.t.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
        return res.json();
      };
      const data = h.t.config.dataDir;
      const attack = [
        "  @Transaction(false)",
        "  public async Probe(ctx: Context): Promise<string> {",
        '    const fs = await import("node:fs");',
        `    const data = ${JSON.stringify(data)};`,
        "    const tryIt = (f: () => unknown): unknown => {",
        "      try {",
        "        const v = f();",
        '        return Array.isArray(v) ? v : "ok";',
        "      } catch (e) {",
        "        return (e as NodeJS.ErrnoException).code ?? String(e);",
        "      }",
        "    };",
        "    return JSON.stringify({",
        '      masterKey: tryIt(() => fs.readFileSync(data + "/master.key")),',
        '      database: tryIt(() => fs.readFileSync(data + "/chainlaunch.db")),',
        "      dataDir: tryIt(() => fs.readdirSync(data)),",
        '      writeDataDir: tryIt(() => fs.writeFileSync(data + "/pwned", "x")),',
        `      signalConsole: tryIt(() => process.kill(${process.pid}, 0)),`,
        '      writeOwn: tryIt(() => fs.writeFileSync("probe.txt", "x")),',
        "      uid: process.getuid?.(),",
        "    });",
        "  }",
        "",
      ].join("\n");
      const ctor = '    super("AssetTransfer");\n  }\n';
      expect(edited).toContain(ctor);
      await as(session!.headers, "POST", `/projects/${ts.id}/files/write`, {
        path: file,
        content: edited.replace(ctor, `${ctor}\n${attack}`),
      });
      const third = await as(apiKey!.headers, "POST", `/chaincode-projects/${ts.id}/start`);
      expect(third.sequence).toBe(3);
      // Each start builds a fresh copy; the node_modules store makes all but the first skip npm install.
      console.log(
        `TypeScript project build phases: ${[first, second, third].map((r) => `${r.phases.build} ms`).join(", ")}`,
      );
      const probed = (await as(session!.headers, "POST", `/chaincode-projects/${ts.id}/query`, { function: "Probe" }))
        .result;
      const found = (typeof probed === "string" ? JSON.parse(probed) : probed) as Record<string, unknown>;
      expect(found.masterKey).toBe("ENOENT");
      expect(found.database).toBe("ENOENT");
      // Only the folders bound for the server show, as empty mount points of a read-only skeleton.
      expect(found.dataDir).not.toContain("master.key");
      expect(found.dataDir).not.toContain("chainlaunch.db");
      expect(found.writeDataDir).not.toBe("ok");
      expect(found.signalConsole).toBe("ESRCH");
      expect(found.writeOwn).toBe("ok");
      if (process.getuid?.() === 0) expect(found.uid).not.toBe(0);
      expect(await read(ts.id)).toMatchObject({ Color: "BLUE" });

      // --- Go ---
      if (goOk) {
        const go = await h.ok("POST", "/chaincode-projects", {
          name: "Assets Go",
          networkId: net.id,
          boilerplate: "chaincode-go",
        });
        const started = await h.ok("POST", `/chaincode-projects/${go.id}/start`);
        expect(started.sequence).toBe(1);
        await h.ok("POST", `/chaincode-projects/${go.id}/invoke`, {
          function: "CreateAsset",
          args: ["asset1", "green", "7", "Ana", "900"],
        });
        expect(await read(go.id)).toMatchObject({ ID: "asset1", Color: "green", Size: 7, AppraisedValue: 900 });
        await h.ok("POST", `/chaincode-projects/${go.id}/stop`);
        expect((await h.ok("GET", `/chaincode-projects/${go.id}`)).status).toBe("stopped");
        expect((await h.ok("DELETE", `/chaincode-projects/${go.id}`)).message).toMatch(/deleted/);
      }

      // --- JavaScript: no compile step, so only the new server's start can refuse a syntax error ---
      const js = await h.ok("POST", "/chaincode-projects", {
        name: "Assets JS",
        networkId: net.id,
        boilerplate: "chaincode-javascript",
      });
      expect((await h.ok("POST", `/chaincode-projects/${js.id}/start`)).sequence).toBe(1);
      await h.ok("POST", `/chaincode-projects/${js.id}/invoke`, {
        function: "CreateAsset",
        args: ["asset1", "red", "3", "Jo", "9"],
      });
      const jsFile = "lib/assetTransfer.js";
      const jsSrc = (await h.ok("GET", `/projects/${js.id}/files/read?path=${jsFile}`)).content as string;
      await h.ok("POST", `/projects/${js.id}/files/write`, {
        path: jsFile,
        content: jsSrc.replace("return previous;", "return previous +;"),
      });
      const refused = await h.call("POST", `/chaincode-projects/${js.id}/start`);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/the new chaincode server did not (answer|start)/);
      const jsAfter = await h.ok("GET", `/chaincode-projects/${js.id}`);
      expect(jsAfter.status).toBe("running");
      expect(jsAfter.lastError).toMatch(/\(sequence 1 keeps answering\)$/);
      expect(await read(js.id)).toMatchObject({ ID: "asset1", Owner: "Jo" });
      await h.ok("DELETE", `/chaincode-projects/${js.id}`);

      // Deleting a running project stops its server.
      await h.ok("DELETE", `/chaincode-projects/${ts.id}`);
      expect(h.chaincodeProcesses()).toEqual([]);
    },
  );
});
