import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp } from "../../test-support/test-app.js";
import { BESU_INSTALL_HINT, findOnPath } from "./besu-binary.js";
import { createBesuReadiness, goPlatform, parseBesuVersion } from "./besu-readiness.js";

/**
 * upstream's Besu readiness and version verification, answered truthfully on this machine: our
 * machines have no `besu` (it is not in the package registries they reach, docs/besu.md), so both
 * say so with the console's install hint; Java is reported as found.
 */
const besuHere = await findOnPath(process.env, "besu");
if (besuHere) console.warn(`besu readiness: skipping the "not installed" checks, besu is at ${besuHere}`);
const root = mkdtempSync(join(tmpdir(), "cl-besu-ready-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What `java -version` on PATH says, read here independently of the service. */
function javaOnPath(): { version: string; major: number } | undefined {
  const out = spawnSync("java", ["-version"], { encoding: "utf8" });
  const m = /version "((\d+)(?:\.(\d+))?[^"]*)"/.exec(`${out.stdout ?? ""}${out.stderr ?? ""}`);
  if (out.status !== 0 || !m) return undefined;
  const first = Number(m[2]);
  return { version: m[1] as string, major: first === 1 ? Number(m[3]) : first };
}

describe("Besu readiness, unit", () => {
  it("names the platform as Go does and reads besu --version", () => {
    expect(goPlatform("linux", "x64")).toEqual({ platform: "linux", arch: "amd64" });
    expect(goPlatform("win32", "arm64")).toEqual({ platform: "windows", arch: "arm64" });
    expect(parseBesuVersion("besu/v25.6.0/linux-x86_64/openjdk-java-21\n")).toBe("25.6.0");
    expect(parseBesuVersion("\nsomething else\n")).toBe("something else");
  });

  it("with nothing installed: neither tool, both errors, and what downloads would do", async () => {
    const empty = join(root, "empty");
    mkdirSync(empty);
    const offline = createBesuReadiness({
      env: { PATH: empty },
      cacheDir: join(root, "cache"),
      downloader: async () => {
        throw new Error("no route to host");
      },
    });
    const r = await offline.check();
    expect(r).toMatchObject({ ready: false, besu: { installed: false }, java: { installed: false } });
    expect(r.errors).toEqual([r.java.error, r.besu.error]);
    expect(r.besu.error).toContain(BESU_INSTALL_HINT);
    expect(r.warnings).toHaveLength(2);
    expect(await offline.verify("25.6.0")).toEqual({
      success: false,
      version: "25.6.0",
      downloaded: false,
      error: "downloading Besu 25.6.0 failed: no route to host",
    });
    const noDownloads = createBesuReadiness({ env: { PATH: empty }, cacheDir: join(root, "cache") });
    expect((await noDownloads.check()).warnings).toEqual([]);
  });
});

describe.skipIf(besuHere)("Besu readiness through the API, on a machine without besu", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("sqlite", { CHAINLAUNCH_BESU_CACHE: join(root, "api-cache") });
  });
  afterAll(async () => t?.close());

  it("says besu is not installed, with the install hint, and what Java is here", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/nodes/readiness/besu", headers: t.admin });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ready: false, ...goPlatform(), besu: { installed: false }, warnings: [] });
    expect(body.besu.error).toMatch(/^besu binary not found /);
    expect(body.besu.error).toContain(BESU_INSTALL_HINT);
    expect(body.errors).toContain(body.besu.error);
    const java = javaOnPath();
    expect(body.java.installed).toBe(Boolean(java) || Boolean(process.env.JAVA_HOME));
    if (java && !process.env.JAVA_HOME) {
      expect(body.java).toMatchObject({ version: java.version, path: await findOnPath(process.env, "java") });
      if (java.major < 21) {
        expect(body.java.error).toMatch(new RegExp(`is Java ${java.major}; Besu needs Java 21\\+`));
        expect(body.errors).toContain(body.java.error);
      } else expect(body.java.error).toBeUndefined();
    }
  });

  it("verifies a version as not installed (downloads are off in tests), audited, for node creators only", async () => {
    const verify = (payload: object, headers = t.admin) =>
      t.app.inject({ method: "POST", url: "/api/v1/nodes/verify/besu", headers, payload });
    const res = await verify({ version: "25.6.0" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: false,
      version: "25.6.0",
      downloaded: false,
      error: expect.stringContaining(BESU_INSTALL_HINT),
    });
    expect((await verify({})).json().version).toBe("25.6.0");
    const bad = await verify({ version: "../../../tmp/x" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^body\.version/);
    const audit = await t.app.inject({
      method: "GET",
      url: "/api/v1/audit/logs?event_type=node.besu_verify",
      headers: t.admin,
    });
    expect(audit.json().items).toContainEqual(
      expect.objectContaining({
        details: expect.objectContaining({ version: "25.6.0", success: false, downloaded: false }),
      }),
    );
    const viewer = await createUser(t, "ready-viewer", "viewer");
    const manager = await createUser(t, "ready-manager", "manager");
    expect((await verify({ version: "25.6.0" }, viewer)).statusCode).toBe(403);
    expect((await verify({ version: "25.6.0" }, manager)).statusCode).toBe(200);
    const read = await t.app.inject({ method: "GET", url: "/api/v1/nodes/readiness/besu", headers: viewer });
    expect(read.statusCode).toBe(200);
  });
});
