import { existsSync, readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, dialects, insertNetworkRow, type TestApp } from "../../test-support/test-app.js";

/**
 * Chaincode projects and their files through the API, on both databases: boilerplates, the
 * reference's shapes, named 400/404/409s, nothing left behind by a refused request, path
 * confinement over HTTP, and who may do what.
 */
describe.each(dialects())("chaincode projects on %s", (dialect) => {
  let t: TestApp;
  let networkId: number;
  let besuId: number;
  let viewer: { authorization: string };
  let manager: { authorization: string };
  const call = (
    method: "GET" | "POST" | "PUT" | "DELETE",
    url: string,
    payload?: object,
    headers: { authorization: string } = t.admin,
  ) => t.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

  const network = (name: string, platform?: string) => insertNetworkRow(t, name, platform);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    // Channel records without nodes: enough for everything that does not run the code.
    networkId = (await network("projchannel", "FABRIC")).id;
    besuId = (await network("projbesu", "BESU")).id;
    viewer = await createUser(t, "projviewer", "viewer");
    manager = await createUser(t, "projmanager", "manager");
  });
  afterAll(async () => t.close());

  it("lists the shipped boilerplates for a Fabric network and none for Besu", async () => {
    const res = await call("GET", `/ai/boilerplates?network_id=${networkId}`);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json() as { id: string; platform: string; validateCommand: string }[];
    expect(list.map((b) => b.id)).toEqual(["chaincode-typescript", "chaincode-javascript", "chaincode-go"]);
    expect(list.every((b) => b.platform === "FABRIC" && b.validateCommand.length > 0)).toBe(true);
    expect((await call("GET", `/ai/boilerplates?network_id=${besuId}`)).json()).toEqual([]);
    expect((await call("GET", "/ai/boilerplates?network_id=999999")).statusCode).toBe(404);
    // Without a network: every shipped boilerplate, each naming its platform (the create form lists
    // them before a network is picked).
    const all = await call("GET", "/ai/boilerplates");
    expect(all.statusCode).toBe(200);
    expect((all.json() as { id: string; platform: string }[]).map((b) => `${b.platform}:${b.id}`).sort()).toEqual([
      "FABRIC:chaincode-go",
      "FABRIC:chaincode-javascript",
      "FABRIC:chaincode-typescript",
    ]);
    expect((await call("GET", "/ai/boilerplates?network_id=abc")).statusCode).toBe(400);
  });

  it("creates a project from each boilerplate with its files, and deletes it with them", async () => {
    for (const boilerplate of ["chaincode-typescript", "chaincode-javascript", "chaincode-go"]) {
      const res = await call("POST", "/chaincode-projects", {
        name: `My Assets ${boilerplate}`,
        networkId,
        boilerplate,
        description: "demo",
        endorsementPolicy: "OR('Org1MSP.member')",
      });
      expect(res.statusCode, res.body).toBe(201);
      const p = res.json();
      expect(p).toMatchObject({
        name: `My Assets ${boilerplate}`,
        boilerplate,
        networkId,
        networkName: "projchannel",
        networkPlatform: "FABRIC",
        endorsementPolicy: "OR('Org1MSP.member')",
        status: "stopped",
        lastError: null,
        chaincodeId: null,
      });
      expect(p.slug).toMatch(new RegExp(`^my-assets-${boilerplate}-[0-9a-f]{5}$`));
      const folder = join(t.config.dataDir, "projects", p.slug);
      expect(existsSync(folder)).toBe(true);
      const tree = (await call("GET", `/projects/${p.id}/files/entries`)).json();
      const names = (tree.children as { name: string }[]).map((c) => c.name);
      expect(names).toContain(boilerplate === "chaincode-go" ? "go.mod" : "package.json");
      expect((await call("GET", `/chaincode-projects/${p.id}`)).json()).toEqual(p);
      const del = await call("DELETE", `/chaincode-projects/${p.id}`);
      expect(del.statusCode, del.body).toBe(200);
      expect(existsSync(folder)).toBe(false);
      expect((await call("GET", `/chaincode-projects/${p.id}`)).statusCode).toBe(404);
    }
  });

  it("refuses bad input with named 400s and 404s, and leaves nothing behind", async () => {
    const before = readdirSync(join(t.config.dataDir, "projects")).length;
    const cases: [object, number, RegExp][] = [
      [{ networkId }, 400, /name/],
      [{ name: "x" }, 400, /networkId/],
      [{ name: "x", networkId: 999999 }, 404, /networkId: network 999999 not found/],
      [{ name: "x", networkId: besuId }, 400, /networkId: .*BESU network/],
      [{ name: "x", networkId, boilerplate: "cobol" }, 400, /boilerplate: 'cobol' is not one of/],
      [{ name: "x", networkId, endorsementPolicy: "OR('Org1MSP.member'" }, 400, /endorsementPolicy/],
      [{ name: "x\u0000y", networkId }, 400, /name: must not contain the NUL/],
    ];
    for (const [body, status, text] of cases) {
      const res = await call("POST", "/chaincode-projects", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().message ?? res.json().error).toMatch(text);
    }
    expect(readdirSync(join(t.config.dataDir, "projects")).length).toBe(before);
    expect(
      (await call("GET", "/chaincode-projects")).json().projects.filter((p: { name: string }) => p.name === "x"),
    ).toEqual([]);
  });

  it("edits files over HTTP inside the project only", async () => {
    const p = (await call("POST", "/chaincode-projects", { name: "files", networkId })).json();
    const base = `/projects/${p.id}`;
    const w = await call("POST", `${base}/files/write`, {
      path: "src/extra.ts",
      content: "export const x = 1;\n",
      project: p.slug,
    });
    expect(w.statusCode, w.body).toBe(201);
    expect(w.json()).toEqual({ status: "written" });
    expect((await call("GET", `${base}/files/read?path=src/extra.ts`)).json()).toEqual({
      content: "export const x = 1;\n",
    });
    expect((await call("POST", `${base}/dirs/create`, { dir: "docs" })).statusCode).toBe(201);
    expect((await call("DELETE", `${base}/dirs/delete?dir=docs&project=${p.slug}`)).json()).toEqual({
      status: "deleted",
    });
    expect((await call("DELETE", `${base}/files/delete?path=src/extra.ts`)).json()).toEqual({ status: "deleted" });

    // A symlink planted in the folder (by a build script, say) pointing at the console's database.
    symlinkSync(t.config.dataDir, join(t.config.dataDir, "projects", p.slug, "data"));
    const escapes: [string, string, object | undefined][] = [
      ["GET", `${base}/files/read?path=${encodeURIComponent("../../chainlaunch.db")}`, undefined],
      ["GET", `${base}/files/read?path=${encodeURIComponent("/etc/hostname")}`, undefined],
      ["GET", `${base}/files/read?path=data/chainlaunch.db`, undefined],
      ["POST", `${base}/files/write`, { path: "../evil.ts", content: "x" }],
      ["POST", `${base}/files/write`, { path: "/tmp/evil.ts", content: "x" }],
      ["POST", `${base}/files/write`, { path: "data/evil.ts", content: "x" }],
      ["DELETE", `${base}/files/delete?path=${encodeURIComponent("../x")}`, undefined],
      ["POST", `${base}/dirs/create`, { dir: "../../evil" }],
      ["DELETE", `${base}/dirs/delete?dir=${encodeURIComponent("data/projects")}`, undefined],
    ];
    for (const [method, url, body] of escapes) {
      const res = await call(method as "GET", url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(400);
      expect(res.json().message).toMatch(
        /^(path|dir): '.+' (leaves the project|is absolute|resolves outside the project)/,
      );
    }
    expect(existsSync(join(t.config.dataDir, "evil.ts"))).toBe(false);
    expect(existsSync(join(t.config.dataDir, "projects"))).toBe(true);
    const git = await call("POST", `${base}/files/write`, { path: ".git/config", content: "x" });
    expect(git.statusCode).toBe(400);
    expect(git.json().message).toMatch(/path: '.git\/config' is inside the project's history/);
    const big = await call("POST", `${base}/files/write`, { path: "big.txt", content: "x".repeat(1024 * 1024 + 1) });
    expect(big.statusCode).toBe(400);
    expect(big.json().message).toMatch(/content: 'big.txt' is larger than/);
    expect((await call("GET", `/projects/999999/files/entries`)).statusCode).toBe(404);
  });

  it("records the boilerplate as the first commit and restores an earlier state as a new commit", async () => {
    const p = (
      await call("POST", "/chaincode-projects", { name: "hist", networkId, boilerplate: "chaincode-javascript" })
    ).json();
    const commits = (await call("GET", `/chaincode-projects/${p.id}/commits`)).json().commits;
    expect(commits).toHaveLength(1);
    // The creator is the first commit's author (it was "chainlaunch").
    expect(commits[0]).toMatchObject({ message: "Create from chaincode-javascript", parent: "", author: "admin" });
    expect(commits[0].added).toContain("lib/assetTransfer.js");
    const original = (await call("GET", `/projects/${p.id}/files/read?path=index.js`)).json().content;
    await call("POST", `/projects/${p.id}/files/write`, { path: "index.js", content: "// changed\n" });
    const restored = await call("POST", `/chaincode-projects/${p.id}/commits/${commits[0].hash.slice(0, 8)}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({
      message: `Restore ${commits[0].hash.slice(0, 7)}`,
      parent: commits[0].hash,
    });
    expect((await call("GET", `/projects/${p.id}/files/read?path=index.js`)).json().content).toBe(original);
    const at = await call("GET", `/chaincode-projects/${p.id}/file_at_commit?file=index.js&commit=${commits[0].hash}`);
    expect(at.body).toBe(original);
    expect((await call("GET", `/chaincode-projects/${p.id}/commits/zzz`)).statusCode).toBe(400);
    expect((await call("GET", `/chaincode-projects/${p.id}/commits/${"0".repeat(40)}`)).statusCode).toBe(404);
    expect(
      (await call("POST", `/chaincode-projects/${p.id}/commits/${commits[0].hash}/restore`, undefined, viewer))
        .statusCode,
    ).toBe(403);
  });

  it("lets a viewer read but not create, write, delete or change the policy; a manager may", async () => {
    const p = (await call("POST", "/chaincode-projects", { name: "perm", networkId })).json();
    const base = `/projects/${p.id}`;
    expect((await call("GET", `/chaincode-projects/${p.id}`, undefined, viewer)).statusCode).toBe(200);
    expect((await call("GET", `${base}/files/entries`, undefined, viewer)).statusCode).toBe(200);
    expect((await call("GET", `${base}/files/read?path=package.json`, undefined, viewer)).statusCode).toBe(200);
    const denied: [string, string, object | undefined][] = [
      ["POST", "/chaincode-projects", { name: "v", networkId }],
      ["POST", `${base}/files/write`, { path: "a.ts", content: "x" }],
      ["DELETE", `${base}/files/delete?path=package.json`, undefined],
      ["POST", `${base}/dirs/create`, { dir: "d" }],
      ["DELETE", `${base}/dirs/delete?dir=src`, undefined],
      ["PUT", `/chaincode-projects/${p.id}/endorsement-policy`, { endorsementPolicy: "" }],
      ["DELETE", `/chaincode-projects/${p.id}`, undefined],
      ["POST", `/chaincode-projects/${p.id}/start`, undefined],
      ["POST", `/chaincode-projects/${p.id}/stop`, undefined],
      ["POST", `/chaincode-projects/${p.id}/invoke`, { function: "CreateAsset", args: [] }],
    ];
    for (const [method, url, body] of denied) {
      expect((await call(method as "GET", url, body, viewer)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await call("GET", `${base}/files/read?path=package.json`)).statusCode).toBe(200);
    const put = await call(
      "PUT",
      `/chaincode-projects/${p.id}/endorsement-policy`,
      { endorsementPolicy: "OR('Org2MSP.peer')" },
      manager,
    );
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().endorsementPolicy).toBe("OR('Org2MSP.peer')");
    expect((await call("POST", `${base}/files/write`, { path: "a.ts", content: "x" }, manager)).statusCode).toBe(201);
  });

  it("answers calls before the first start with a 409, and a start on a channel without peers with a 409", async () => {
    const p = (await call("POST", "/chaincode-projects", { name: "early", networkId })).json();
    const q = await call("POST", `/chaincode-projects/${p.id}/query`, { function: "ReadAsset", args: ["a"] });
    expect(q.statusCode).toBe(409);
    expect(q.json().message).toMatch(/has not been started yet/);
    const s = await call("POST", `/chaincode-projects/${p.id}/start`);
    expect(s.statusCode, s.body).toBe(409);
    expect(s.json().message).toMatch(/no running peer/);
    const after = (await call("GET", `/chaincode-projects/${p.id}`)).json();
    expect(after).toMatchObject({ status: "error", lastError: expect.stringMatching(/no running peer/) });
    const log = await call("GET", `/chaincode-projects/${p.id}/logs`);
    expect(log.body).toMatch(/failed: .*no running peer/);
  });

  it("runs one start at a time: a project that is building refuses another start, a stop and a delete", async () => {
    const p = (await call("POST", "/chaincode-projects", { name: "busy", networkId })).json();
    await t.database.db.updateTable("chaincode_projects").set({ status: "building" }).where("id", "=", p.id).execute();
    const starts = await Promise.all([1, 2, 3].map(() => call("POST", `/chaincode-projects/${p.id}/start`)));
    for (const r of starts) {
      expect(r.statusCode).toBe(409);
      expect(r.json().message).toMatch(/is already building/);
    }
    expect((await call("POST", `/chaincode-projects/${p.id}/stop`)).statusCode).toBe(409);
    expect((await call("DELETE", `/chaincode-projects/${p.id}`)).statusCode).toBe(409);
    expect((await call("GET", `/chaincode-projects/${p.id}`)).json().status).toBe("building");
  });

  it("keeps a network with projects from being deleted, naming the project", async () => {
    const net = await network("guarded");
    const p = (await call("POST", "/chaincode-projects", { name: "guard", networkId: net.id })).json();
    const del = await call("DELETE", `/networks/fabric/${net.id}`);
    expect(del.statusCode, del.body).toBe(409);
    expect(del.json().message).toMatch(/chaincode project 'guard'/);
    expect((await call("DELETE", `/chaincode-projects/${p.id}`)).statusCode).toBe(200);
    expect((await call("DELETE", `/networks/fabric/${net.id}`)).statusCode).toBe(204);
  });

  it("creates projects concurrently without clashing", async () => {
    const res = await Promise.all(
      Array.from({ length: 6 }, () =>
        call("POST", "/chaincode-projects", { name: "same name", networkId, boilerplate: "chaincode-javascript" }),
      ),
    );
    expect(res.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    expect(new Set(res.map((r) => r.json().slug)).size).toBe(6);
  });
});
