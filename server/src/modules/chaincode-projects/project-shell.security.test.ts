import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { managerCallers, type Caller } from "../../test-support/callers.js";
import { openTerminal } from "../../test-support/terminal.js";
import { createTestApp, dialects, insertNetworkRow, type TestApp } from "../../test-support/test-app.js";

/**
 * Escape attempts from a project shell, as a manager would make them (browser session and API key):
 * the shell runs in the sandbox, so the data directory outside the project (master key, database,
 * other projects), the console's /proc and environment are out of reach, and links it plants in the
 * project are not followed by the console's files API, listings or download.
 */
describe.each(dialects())("project shell escapes (%s)", (dialect) => {
  let t: TestApp;
  let base: string;
  let callers: Caller[];
  let project: { id: number; slug: string };
  let other: { id: number; slug: string };
  const canary = `canary-${Math.random().toString(36).slice(2)}`;
  const api = (url: string, headers: Record<string, string>) =>
    t.app.inject({ method: "GET", url: `/api/v1${url}`, headers });

  beforeAll(async () => {
    // A secret in the console's environment: the shell must not inherit it.
    process.env.CHAINLAUNCH_SHELL_CANARY = canary;
    t = await createTestApp(dialect);
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const addr = t.app.server.address();
    base = `127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
    callers = await managerCallers(t, `shell-mallory-${dialect}`);
    const net = await insertNetworkRow(t, `shellsec${dialect}`);
    const create = async (name: string) =>
      (
        await t.app.inject({
          method: "POST",
          url: "/api/v1/chaincode-projects",
          headers: t.admin,
          payload: { name, networkId: net.id, boilerplate: "chaincode-javascript" },
        })
      ).json() as { id: number; slug: string };
    project = await create("target");
    other = await create("neighbour");
  });
  afterAll(async () => {
    delete process.env.CHAINLAUNCH_SHELL_CANARY;
    await t.close();
  });

  it("can't read the master key, the database, another project, the console's /proc or environment", async () => {
    const data = t.config.dataDir;
    const masterKey = join(data, "master.key");
    expect(existsSync(masterKey), "the master key exists on the host").toBe(true);
    const secret = readFileSync(masterKey);
    for (const c of callers) {
      const term = openTerminal(`ws://${base}/api/v1/chaincode-projects/${project.id}/shell/ws`, c.headers);
      await term.opened;
      await term.session();
      const run = async (cmd: string, expectRe: RegExp) => {
        const at = term.output.length;
        term.type(`${cmd}; echo "<<done $?>>"`);
        return term.waitFor(new RegExp(`(?:${expectRe.source})[\\s\\S]*<<done \\d+>>`, expectRe.flags), at);
      };
      await run(`cat ${masterKey}`, /No such file or directory/);
      // Only the folders leading to the project exist inside, and nothing else of the data directory.
      await run(`ls -A ${data} | tr '\\n' ' '; echo`, /^projects \r?$/m);
      await run(`ls -A ${join(data, "projects")} | tr '\\n' ' '; echo`, new RegExp(`^${project.slug} \\r?$`, "m"));
      await run(`cat ${join(data, "chainlaunch.db")}`, /No such file or directory/);
      await run(`cat ${join(data, "projects", other.slug, "package.json")}`, /No such file or directory/);
      await run(`cat ../${other.slug}/package.json`, /No such file or directory/);
      await run(`cat /proc/${process.pid}/environ`, /No such file or directory/);
      await run(`kill -9 ${process.pid}`, /No such process/);
      await run(`env | grep -c "${canary}\\|DATABASE_URL\\|CHAINLAUNCH"`, /^0\r?$/m);
      await run(`ls /proc | grep -c '^[0-9]'`, /^[1-9]\r?$/m);
      if (process.getuid?.() === 0) await run("id -u", /^[1-9]\d*\r?$/m);
      // The project's history is the console's: read-only inside. The rest of the root too.
      await run("touch .git/planted", /Read-only file system/);
      await run("touch /usr/planted", /Read-only file system|Permission denied/);
      // Links to the master key and the data directory, planted for the console to follow.
      await run(`ln -sf ${masterKey} leak.key && ln -sfn ${data} data && echo planted`, /planted/);
      term.ws.close();
      await term.closed;

      const read = await api(`/projects/${project.id}/files/read?path=leak.key`, c.headers);
      expect(read.statusCode).toBe(400);
      expect(read.json().message).toMatch(/resolves outside the project/);
      const through = await api(`/projects/${project.id}/files/read?path=data/master.key`, c.headers);
      expect(through.statusCode, `${c.label}: ${through.body}`).toBe(400);
      for (const dir of ["data", "..", "../..", `../${other.slug}`]) {
        for (const route of ["files/list", "dirs/list"]) {
          const res = await api(`/projects/${project.id}/${route}?dir=${encodeURIComponent(dir)}`, c.headers);
          expect(res.statusCode, `${route} ${dir}`).toBe(400);
        }
      }
      const listed = await api(`/projects/${project.id}/dirs/list`, c.headers);
      expect(listed.json().files).not.toContain("leak.key");
      expect(listed.json().directories).not.toContain("data");
      const zip = await api(`/chaincode-projects/${project.id}/download`, c.headers);
      expect(zip.statusCode).toBe(200);
      expect(zip.rawPayload.includes(secret)).toBe(false);
      expect(zip.rawPayload.includes(Buffer.from("leak.key"))).toBe(false);
      // The tree leaves links out too.
      expect(JSON.stringify((await api(`/projects/${project.id}/files/entries`, c.headers)).json())).not.toMatch(
        /leak\.key/,
      );
    }
    expect(readFileSync(masterKey).equals(secret)).toBe(true);
  });

  it("can't make a restore write or delete through links it planted in place of files and folders", async () => {
    const victim = join(t.config.dataDir, "victim.txt");
    const victimDir = join(t.config.dataDir, "victim-dir");
    writeFileSync(victim, "untouched");
    mkdirSync(victimDir);
    const commits = await api(`/chaincode-projects/${project.id}/commits`, t.admin);
    const first = (commits.json().commits as { hash: string }[]).at(-1)!.hash;
    for (const c of callers) {
      const term = openTerminal(`ws://${base}/api/v1/chaincode-projects/${project.id}/shell/ws`, c.headers);
      await term.opened;
      await term.session();
      // A tracked file swapped for a link to a console file, then a tracked folder for a link to a console folder.
      for (const [plant, message] of [
        [`rm -f index.js && ln -s ${victim} index.js`, /index\.js' resolves outside the project/],
        [`rm -f index.js && rm -rf lib && ln -s ${victimDir} lib`, /lib\/.*resolves outside the project/],
      ] as const) {
        const at = term.output.length;
        term.type(`${plant} && echo "<<planted>>"`);
        await term.waitFor(/[\r\n]<<planted>>/, at);
        const res = await t.app.inject({
          method: "POST",
          url: `/api/v1/chaincode-projects/${project.id}/commits/${first}/restore`,
          headers: c.headers,
        });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().message).toMatch(message);
        expect(readFileSync(victim, "utf8")).toBe("untouched");
        expect(readdirSync(victimDir)).toEqual([]);
      }
      const at = term.output.length;
      term.type(`rm -f lib index.js && echo "<<clean>>"`);
      await term.waitFor(/[\r\n]<<clean>>/, at);
      term.ws.close();
      await term.closed;
    }
  });
});
