import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectHostCommandRefused, managerCallers, type Caller } from "../../test-support/callers.js";
import { createTestApp, dialects, type TestApp } from "../../test-support/test-app.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * A template is shared configuration that becomes a POST /nodes body, so it must not carry what
 * POST /nodes keeps from managers: node env variables that load code or name host paths. Tried as
 * a manager's session and API key: storing one (create, update, import) and applying an admin's
 * template that has one are each a 403 naming the field, audited, and change nothing.
 */
describe.each(dialects())("templates as a manager trying host commands on %s", (dialect) => {
  let t: TestApp;
  let callers: Caller[] = [];
  let stored: Json;
  const peer = (name: string, env: Record<string, string>): Json => ({
    name,
    platform: "FABRIC",
    node_type: "peer",
    version: "1",
    config: {
      name: "{{name}}",
      blockchainPlatform: "FABRIC",
      fabricPeer: { organizationId: 1, mspId: "Org1MSP", env },
    },
    variables: [
      { name: "name", type: "string", required: true },
      { name: "dir", type: "string", default: "info" },
    ],
  });
  const templates = async () =>
    t.database.db.selectFrom("node_templates").select(["id", "name", "config", "usage_count"]).orderBy("id").execute();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    callers = await managerCallers(t);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/templates",
      headers: t.admin,
      payload: peer("admin preload", { LD_PRELOAD: "/opt/lib/trace.so" }),
    });
    expect(res.statusCode, res.body).toBe(201);
    stored = res.json();
  }, 60_000);
  afterAll(async () => t?.close());

  it("refuses each way in, as a session and as an API key", async () => {
    for (const c of callers) {
      const send = (method: "POST" | "PUT", url: string, payload: object) =>
        t.app.inject({ method, url: `/api/v1${url}`, headers: c.headers, payload });
      const cases: [string, () => ReturnType<typeof send>, string][] = [
        [
          "template.create",
          () => send("POST", "/templates", peer(`m ${c.label}`, { LD_PRELOAD: "/tmp/x.so" })),
          "config.fabricPeer.env.LD_PRELOAD",
        ],
        [
          "template.create",
          () =>
            send(
              "POST",
              "/templates",
              peer(`m2 ${c.label}`, { CORE_PEER_MSPCONFIGPATH: "/root/.chainlaunch/orgs/1/msp" }),
            ),
          "config.fabricPeer.env.CORE_PEER_MSPCONFIGPATH",
        ],
        [
          "template.update",
          () =>
            send("PUT", `/templates/${stored.id}`, {
              ...peer("admin preload", { JAVA_TOOL_OPTIONS: "-javaagent:x.jar" }),
            }),
          "config.fabricPeer.env.JAVA_TOOL_OPTIONS",
        ],
        [
          "template.import",
          () =>
            send("POST", "/templates/import", {
              export_version: "1.0",
              template: peer(`i ${c.label}`, { LD_AUDIT: "x" }),
            }),
          "template.config.fabricPeer.env.LD_AUDIT",
        ],
        [
          "template.apply",
          () => send("POST", `/templates/${stored.id}/apply`, { variables: { name: "p" } }),
          "config.fabricPeer.env.LD_PRELOAD",
        ],
      ];
      for (const [eventType, run, field] of cases) {
        const before = await templates();
        await expectHostCommandRefused(t, await run(), { eventType, field, before, state: templates });
      }
      // A variable that fills a host path into an env value is refused once filled.
      const own = await send("POST", "/templates", peer(`v ${c.label}`, { CORE_PEER_FILESYSTEMPATH: "{{dir}}" }));
      expect(own.statusCode, own.body).toBe(201);
      const before = await templates();
      const filled = await send("POST", `/templates/${own.json().id}/apply`, { variables: { name: "p", dir: "/etc" } });
      await expectHostCommandRefused(t, filled, {
        eventType: "template.apply",
        field: "config.fabricPeer.env.CORE_PEER_FILESYSTEMPATH",
        before,
        state: templates,
      });
      // A key naming a program is refused for everyone with a 400.
      const binary = await send("POST", "/templates", { ...peer(`b ${c.label}`, {}), config: { binary: "/bin/sh" } });
      expect(binary.statusCode).toBe(400);
      expect(binary.json().message).toMatch(/^config\.binary: a template cannot name a program/);
    }
    // The admin's own template still applies for the admin (as POST /nodes lets an admin set it).
    const res = await t.app.inject({
      method: "POST",
      url: `/api/v1/templates/${stored.id}/apply`,
      headers: t.admin,
      payload: { variables: { name: "p" } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().fabricPeer.env).toEqual({ LD_PRELOAD: "/opt/lib/trace.so" });
  });
});
