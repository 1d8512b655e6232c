import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditOf, managerCallers, type Caller } from "../../test-support/callers.js";
import { createTestApp, dialects, insertNetworkRow, type TestApp } from "../../test-support/test-app.js";
import { assertSourceTreeSafe } from "../fabric-chaincodes/source-policy.js";
import { BOILERPLATES, boilerplatesDir } from "./boilerplates.js";
import { projectHistory } from "./project-history.js";

/**
 * Issue 29: `npm install` runs a package's install scripts on the host by itself, before any
 * sandboxed chaincode. A workbench save (or a restore) that would add one is refused with a 400
 * naming the script, audited, and the file is left as it was; the shipped boilerplates have none.
 */
describe.each(dialects())("chaincode projects: no npm install scripts (%s)", (dialect) => {
  let t: TestApp;
  let callers: Caller[];
  let project: { id: number; slug: string };
  const inject = (method: "POST" | "GET", url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const folder = () => join(t.config.dataDir, "projects", project.slug);
  const packageJson = () => readFileSync(join(folder(), "package.json"), "utf8");

  beforeAll(async () => {
    t = await createTestApp(dialect);
    callers = await managerCallers(t, `proj-manager-${dialect}`);
    const net = await insertNetworkRow(t, "projsec");
    const res = await inject("POST", "/chaincode-projects", callers[0]!.headers, {
      name: "sec",
      networkId: net.id,
      boilerplate: "chaincode-javascript",
    });
    expect(res.statusCode, res.body).toBe(201);
    project = res.json();
  });
  afterAll(async () => t.close());

  it("ships boilerplates without install scripts, so a new project passes the same check", async () => {
    for (const b of BOILERPLATES) await assertSourceTreeSafe(join(boilerplatesDir(), b.id));
  });

  it("refuses a save that adds preinstall, postinstall, prepare or a native build, and keeps the file", async () => {
    const original = packageJson();
    const pkg = JSON.parse(original) as { scripts: Record<string, string> };
    for (const c of callers) {
      for (const [path, script] of [
        ["package.json", "preinstall"],
        ["package.json", "postinstall"],
        ["package.json", "prepare"],
        ["lib/package.json", "install"],
      ] as const) {
        const content = JSON.stringify({ ...pkg, scripts: { ...pkg.scripts, [script]: "cat ../../master.key" } });
        const res = await inject("POST", `/projects/${project.id}/files/write`, c.headers, { path, content });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().message).toMatch(new RegExp(`^${path.replace(/\./g, "\\.")}: scripts\\.${script}: `));
        const audit = await auditOf(t, res, "chaincode_project.write_file");
        expect(audit).toMatchObject({ eventOutcome: "FAILURE", details: { status: 400, path } });
        expect(packageJson()).toBe(original);
      }
      const gyp = await inject("POST", `/projects/${project.id}/files/write`, c.headers, {
        path: "binding.gyp",
        content: "{}",
      });
      expect(gyp.statusCode, gyp.body).toBe(400);
      expect(gyp.json().message).toMatch(/^binding\.gyp: npm builds/);
    }
    // Editing the scripts npm does not run by itself stays allowed.
    const edited = JSON.stringify({ ...pkg, scripts: { ...pkg.scripts, lint: "node --check index.js" } });
    const ok = await inject("POST", `/projects/${project.id}/files/write`, callers[1]!.headers, {
      path: "package.json",
      content: edited,
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(packageJson()).toBe(edited);
  });

  it("refuses to restore a commit that holds an install script, before writing anything", async () => {
    const history = projectHistory(folder());
    const safe = packageJson();
    writeFileSync(join(folder(), "package.json"), JSON.stringify({ scripts: { postinstall: "id" } }));
    const bad = await history.snapshot("from before the check", "");
    writeFileSync(join(folder(), "package.json"), safe);
    await history.snapshot("cleaned", "");
    for (const c of callers) {
      const res = await inject("POST", `/chaincode-projects/${project.id}/commits/${bad}/restore`, c.headers);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(/^package\.json: scripts\.postinstall: /);
      expect((await auditOf(t, res, "chaincode_project.restore")).eventOutcome).toBe("FAILURE");
      expect(packageJson()).toBe(safe);
    }
  });
});
