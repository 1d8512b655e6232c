import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditOf, expectHostCommandRefused, managerCallers, type Caller } from "../../test-support/callers.js";
import { createTestApp, dialects, type TestApp } from "../../test-support/test-app.js";

/**
 * Issue 29: a manager must not reach a shell on the host through plugins. A plugin whose processes
 * or compose file are not a built-in catalogue entry's as published is an admin's call (403,
 * audited, nothing stored); so is adding a plugin registry. A catalogue compose plugin can't be
 * bent by its values into mounting the host. The catalogue stays a manager's to install and deploy.
 */

const SHELL_PLUGIN = (name: string): string => `apiVersion: dev.chainlaunch/v1
kind: Plugin
metadata:
  name: ${name}
spec:
  parameters:
    type: object
    properties: {}
  processes:
    - name: pwn
      command: /bin/sh
      args: ["-c", "cat master.key > /tmp/${name}-stolen"]
`;

const COMPOSE_PLUGIN = (name: string): string => `apiVersion: dev.chainlaunch/v1
kind: Plugin
metadata:
  name: ${name}
spec:
  parameters:
    type: object
    properties: {}
  dockerCompose:
    contents: |
      services:
        root:
          image: alpine
          command: ["cat", "/host/etc/shadow"]
          volumes: ["/:/host"]
`;

describe.each(dialects())("plugins: host commands are an admin's (%s)", (dialect) => {
  let t: TestApp;
  let callers: Caller[];
  let catalogue: { name: string; raw_yaml: string }[];
  const inject = (method: "GET" | "POST" | "PUT", url: string, headers: Record<string, string>, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: typeof payload === "string" ? { ...headers, "content-type": "application/yaml" } : headers,
      ...(payload === undefined ? {} : { payload: payload as string }),
    });
  const rows = async () => (await t.database.db.selectFrom("plugins").select(["name", "definition"]).execute()).sort();
  const folder = (name: string) => join(t.config.dataDir, "plugins", name);

  const refused = (res: Awaited<ReturnType<typeof inject>>, eventType: string, field: string, before: unknown) =>
    expectHostCommandRefused(t, res, { eventType, field, before, state: rows });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    callers = await managerCallers(t, `plugin-manager-${dialect}`);
    catalogue = (await inject("GET", "/plugins/available", t.admin)).json().plugins;
  });
  afterAll(async () => t.close());

  it("refuses a /bin/sh plugin and a compose plugin that mounts the host, as YAML and as JSON", async () => {
    for (const c of callers) {
      const tag = c.label.includes("key") ? "k" : "s";
      for (const [yaml, field] of [
        [SHELL_PLUGIN(`shell-${tag}`), "spec.processes"],
        [COMPOSE_PLUGIN(`compose-${tag}`), "spec.dockerCompose"],
      ] as const) {
        const before = await rows();
        await refused(await inject("POST", "/plugins", c.headers, yaml), "plugin.create", field, before);
        const name = /name: (\S+)/.exec(yaml)![1]!;
        expect(existsSync(folder(name)), c.label).toBe(false);
        const asJson = await inject("POST", "/plugins", c.headers, {
          apiVersion: "dev.chainlaunch/v1",
          kind: "Plugin",
          metadata: { name },
          spec: {
            parameters: { type: "object", properties: {} },
            processes: [{ name: "pwn", command: "/bin/sh", args: ["-c", "id"] }],
          },
        });
        await refused(asJson, "plugin.create", "spec.processes", before);
      }
    }
  });

  it("refuses a catalogue plugin whose processes were edited, on install and on update", async () => {
    const gateway = catalogue.find((p) => p.name === "fabric-rest-gateway")!;
    const edited = gateway.raw_yaml.replace('command: "{{ .runtime.node }}"', "command: /bin/sh");
    expect(edited).not.toBe(gateway.raw_yaml);
    for (const c of callers) {
      await refused(
        await inject("POST", "/plugins", c.headers, edited),
        "plugin.create",
        "spec.processes",
        await rows(),
      );
    }
    // Installed as published by a manager, then edited by one: refused, the definition unchanged.
    const [session] = callers;
    expect((await inject("POST", "/plugins", session!.headers, gateway.raw_yaml)).statusCode).toBe(201);
    for (const c of callers) {
      const res = await inject("PUT", "/plugins/fabric-rest-gateway", c.headers, edited);
      await refused(res, "plugin.update", "spec.processes", await rows());
      expect((await auditOf(t, res, "plugin.update")).affectedResource).toBe("plugin:fabric-rest-gateway");
    }
    // What it runs unchanged, its description edited: a manager may.
    const described = gateway.raw_yaml.replace(/^ {2}description: .*$/m, "  description: edited by a manager");
    const ok = await inject("PUT", "/plugins/fabric-rest-gateway", callers[1]!.headers, described);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().metadata.description).toBe("edited by a manager");
  });

  it("refuses a manager adding a plugin registry, and lets them save the other settings", async () => {
    const settings = (await inject("GET", "/settings", t.admin)).json().config;
    for (const c of callers) {
      const res = await inject("POST", "/settings", c.headers, {
        config: { ...settings, pluginRegistries: ["https://registry.example.com/index.json"] },
      });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().message).toMatch(/^config\.pluginRegistries: adding a plugin registry .*only an admin/);
      expect((await auditOf(t, res, "settings.update")).details).toMatchObject({
        status: 403,
        refused: "HOST_COMMAND",
      });
      expect((await inject("GET", "/settings", t.admin)).json().config.pluginRegistries).toEqual([]);
      const same = await inject("POST", "/settings", c.headers, { config: settings });
      expect(same.statusCode, same.body).toBe(200);
    }
  });

  it("refuses compose values with line breaks, which would add a bind mount of / to a catalogue plugin", async () => {
    const compose = catalogue.find((p) => p.name === "hlf-plugin-api")!;
    const [session, key] = callers;
    expect((await inject("POST", "/plugins", key!.headers, compose.raw_yaml)).statusCode).toBe(201);
    for (const c of [session!, key!]) {
      const res = await inject("POST", "/plugins/hlf-plugin-api/deploy", c.headers, {
        key: { keyId: 1 },
        channelName: "mychannel\n      volumes: ['/:/host']",
        peers: [1],
        port: 8080,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(/^parameters\.channelName: line breaks .* can't be bound into a compose file/);
      expect((await auditOf(t, res, "plugin.deploy")).eventOutcome).toBe("FAILURE");
      const row = await t.database.db
        .selectFrom("plugins")
        .select(["status", "parameters"])
        .where("name", "=", "hlf-plugin-api")
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: "not-deployed", parameters: null });
      expect(existsSync(join(folder("hlf-plugin-api"), "docker-compose.yml"))).toBe(false);
    }
  });

  it("lets a manager install and deploy catalogue plugins, and an admin define processes and registries", async () => {
    const [, key] = callers;
    // Deploying is a manager's: the values are checked (here, a missing binding), nothing refused for the role.
    const dep = await inject("POST", "/plugins/fabric-rest-gateway/deploy", key!.headers, { port: 8800 });
    expect(dep.statusCode, dep.body).toBe(400);
    expect(dep.json().message).toMatch(/^parameters/);
    expect((await inject("POST", "/plugins/fabric-rest-gateway/stop", key!.headers)).statusCode).toBe(409);

    const admin = await inject("POST", "/plugins", t.admin, SHELL_PLUGIN("admin-shell"));
    expect(admin.statusCode, admin.body).toBe(201);
    // A manager may deploy what an admin defined, and edit its description; not its processes.
    const edited = SHELL_PLUGIN("admin-shell").replace("cat master.key", "cat database.db");
    const res = await inject("PUT", "/plugins/admin-shell", key!.headers, edited);
    await refused(res, "plugin.update", "spec.processes", await rows());

    const settings = (await inject("GET", "/settings", t.admin)).json().config;
    const reg = await inject("POST", "/settings", t.admin, {
      config: { ...settings, pluginRegistries: ["https://registry.example.com/index.json"] },
    });
    expect(reg.statusCode, reg.body).toBe(200);
    // Removing a registry takes nothing onto the host: a manager may.
    const removed = await inject("POST", "/settings", key!.headers, { config: { ...settings, pluginRegistries: [] } });
    expect(removed.statusCode, removed.body).toBe(200);
  });
});
