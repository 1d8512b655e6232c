import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditOf, expectHostCommandRefused, managerCallers, type Caller } from "../../test-support/callers.js";
import { createTestApp, dialects, insertNetworkRow, type TestApp } from "../../test-support/test-app.js";

const ASSET_NODE = resolve(import.meta.dirname, "../../fabric/test-support/chaincode/asset-node");

/**
 * Issue 29: a manager must not run their own program on the host through a chaincode definition.
 * A prebuilt executable (declared, uploaded or detected in an archive) and a source_path copied from
 * the host are an admin's call (403, audited, nothing stored). A source_path inside or above the
 * data directory, and a package.json with an npm install script, are refused for everyone (400
 * naming the field). Node and Go archives stay a manager's to upload.
 */
describe.each(dialects())("chaincode definitions: host commands are an admin's (%s)", (dialect) => {
  let t: TestApp;
  let callers: Caller[];
  let chaincodeId: number;
  let definitionId: number;
  const work = mkdtempSync(join(tmpdir(), "cc-security-"));
  const inject = (
    method: "POST" | "PUT",
    url: string,
    headers: Record<string, string>,
    payload: object | Buffer,
    contentType?: string,
  ) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: contentType ? { ...headers, "content-type": contentType } : headers,
      payload: payload as object,
    });
  /** What a refusal must leave alone: the definitions and the definitions' folders. */
  const state = async () => ({
    definitions: await t.database.db
      .selectFrom("fabric_chaincode_definitions")
      .select(["id", "version", "source_type", "source_path"])
      .orderBy("id")
      .execute(),
    folders: existsSync(join(t.config.dataDir, "chaincodes"))
      ? readdirSync(join(t.config.dataDir, "chaincodes"), { recursive: true }).map(String).sort()
      : [],
  });

  /** A tar.gz of `files` (name → content, `mode` for executables). */
  function archive(name: string, files: Record<string, { text: string; mode?: number }>): Buffer {
    const dir = join(work, name);
    for (const [file, { text, mode }] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
      if (mode) chmodSync(join(dir, file), mode);
    }
    execFileSync("tar", ["-czf", `${dir}.tgz`, "-C", dir, "."]);
    return execFileSync("cat", [`${dir}.tgz`]);
  }
  const pkg = (scripts: Record<string, string>): string =>
    JSON.stringify({ name: "cc", version: "1.0.0", scripts, dependencies: { "fabric-shim": "^2.5.0" } });

  const refused = (res: Awaited<ReturnType<typeof inject>>, eventType: string, field: string, before: unknown) =>
    expectHostCommandRefused(t, res, { eventType, field, before, state: state });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    callers = await managerCallers(t, `cc-manager-${dialect}`);
    const net = await insertNetworkRow(t, "secchannel");
    const cc = await inject("POST", "/sc/fabric/chaincodes", t.admin, { name: "sec", network_id: net.id });
    chaincodeId = cc.json().chaincode.id;
    const def = await inject("POST", `/sc/fabric/chaincodes/${chaincodeId}/definitions`, callers[0]!.headers, {
      version: "1",
      sequence: 1,
    });
    expect(def.statusCode, def.body).toBe(200);
    definitionId = def.json().definition.id;
  });
  afterAll(async () => {
    await t.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("refuses a prebuilt executable and a source_path of /etc or /root in a definition, created or changed", async () => {
    for (const c of callers) {
      for (const [body, field] of [
        [{ source_type: "executable" }, "source_type"],
        [{ source_path: "/etc" }, "source_path"],
        [{ source_path: "/root" }, "source_path"],
        [{ source_path: "/usr/bin/id", source_type: "executable" }, "source_type"],
      ] as const) {
        const before = await state();
        const created = await inject("POST", `/sc/fabric/chaincodes/${chaincodeId}/definitions`, c.headers, {
          version: "2",
          sequence: 2,
          ...body,
        });
        await refused(created, "chaincode.definition.create", field, before);
        const changed = await inject("PUT", `/sc/fabric/definitions/${definitionId}`, c.headers, {
          version: "1",
          sequence: 1,
          ...body,
        });
        await refused(changed, "chaincode.definition.update", field, before);
      }
    }
  });

  it("refuses uploads that are executables or copy a host path, and npm install scripts in a node archive", async () => {
    const exe = { text: "#!/bin/sh\ncat master.key\n", mode: 0o755 };
    const single = archive("single-exe", { chaincode: exe });
    for (const c of callers) {
      const before = await state();
      const url = `/sc/fabric/definitions/${definitionId}/source`;
      await refused(
        await inject("POST", url, c.headers, { source_path: "/etc" }),
        "chaincode.definition.source",
        "body.source_path",
        before,
      );
      await refused(
        await inject("POST", `${url}?type=executable`, c.headers, Buffer.from(exe.text), "application/octet-stream"),
        "chaincode.definition.source",
        "type",
        before,
      );
      await refused(
        await inject("POST", url, c.headers, single, "application/gzip"),
        "chaincode.definition.source",
        "body",
        before,
      );
      for (const script of ["preinstall", "postinstall", "prepare"]) {
        const tgz = archive(`npm-${script}-${c.label.length}`, {
          "package.json": { text: pkg({ [script]: "cat ../../../master.key > /tmp/stolen", start: "node index.js" }) },
          "index.js": { text: "" },
        });
        const res = await inject("POST", url, c.headers, tgz, "application/gzip");
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().message).toMatch(new RegExp(`^package\\.json: scripts\\.${script}: npm runs it by itself`));
        const audit = await auditOf(t, res, "chaincode.definition.source");
        expect(audit).toMatchObject({ eventOutcome: "FAILURE", details: { status: 400 } });
        expect(await state()).toEqual(before);
      }
      // In a workspace package too: npm runs those as well.
      const nested = archive(`npm-nested-${c.label.length}`, {
        "package.json": { text: pkg({ start: "node index.js" }) },
        "lib/helper/package.json": { text: pkg({ install: "id" }) },
      });
      const res = await inject("POST", url, c.headers, nested, "application/gzip");
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(/^lib\/helper\/package\.json: scripts\.install: /);
      expect(await state()).toEqual(before);
    }
  });

  it("refuses everyone a source_path inside or above the data directory, or with an npm install script", async () => {
    const url = `/sc/fabric/chaincodes/${chaincodeId}/definitions`;
    for (const path of [t.config.dataDir, join(t.config.dataDir, "chaincodes"), dirname(t.config.dataDir), "/"]) {
      const before = await state();
      const res = await inject("POST", url, t.admin, { version: "2", sequence: 2, source_path: path });
      expect(res.statusCode, `${path}: ${res.body}`).toBe(400);
      expect(res.json().message, path).toMatch(/^source_path: .* the console.s data directory/);
      expect((await auditOf(t, res, "chaincode.definition.create")).eventOutcome).toBe("FAILURE");
      expect(await state()).toEqual(before);
    }
    const dir = join(work, "admin-postinstall");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), `\uFEFF${pkg({ postinstall: "id" })}`);
    const before = await state();
    const res = await inject("POST", `/sc/fabric/definitions/${definitionId}/source`, t.admin, { source_path: dir });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(/^package\.json: scripts\.postinstall: /);
    expect(await state()).toEqual(before);
  });

  it("lets a manager upload node and go archives, and an admin an executable or a host folder", async () => {
    const [session, key] = callers;
    const url = `/sc/fabric/definitions/${definitionId}/source`;
    const node = archive("legit-node", {
      "package.json": { text: pkg({ build: "tsc", start: "node index.js" }) },
      "index.js": { text: "" },
    });
    const up = await inject("POST", url, session!.headers, node, "application/gzip");
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().source_type).toBe("node");
    const go = archive("legit-go", {
      "go.mod": { text: "module cc\n\ngo 1.22\n" },
      "main.go": { text: "package main\n" },
    });
    const upGo = await inject("POST", url, key!.headers, go, "application/gzip");
    expect(upGo.statusCode, upGo.body).toBe(200);
    expect(upGo.json().source_type).toBe("go");

    const exe = await inject(
      "POST",
      `${url}?type=executable`,
      t.admin,
      Buffer.from("#!/bin/sh\n"),
      "application/octet-stream",
    );
    expect(exe.statusCode, exe.body).toBe(200);
    expect(exe.json().source_type).toBe("executable");
    const copied = await inject("POST", url, t.admin, { source_path: ASSET_NODE });
    expect(copied.statusCode, copied.body).toBe(200);
    expect(copied.json().source_type).toBe("node");
  });
});
