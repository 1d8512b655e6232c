import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processesUnder, supervisedUnder } from "../../test-support/processes.js";
import { freePort } from "../../test-support/ports.js";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";
import { waitFor } from "../../test-support/wait.js";

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A tiny HTTP server as the plugin's process: /healthz answers, the key file's first line is checked. */
const SERVER_JS = [
  "const http=require('http');const fs=require('fs');",
  "const [port,keyPath]=process.argv.slice(1);",
  "if(keyPath&&!/^-----BEGIN [A-Z ]+-----/.test(fs.readFileSync(keyPath,'utf8'))){console.error('bad key');process.exit(3)}",
  "http.createServer((q,s)=>{s.end(JSON.stringify({ok:true,path:q.url}))}).listen(Number(port),'127.0.0.1',()=>console.log('listening on '+port));",
  "process.on('SIGTERM',()=>process.exit(0));",
].join("");

const pluginYaml = (
  name: string,
  opts: { withKey?: boolean; exitAtOnce?: boolean } = {},
): string => `apiVersion: dev.chainlaunch/v1
kind: Plugin
metadata:
  name: ${name}
  version: "0.1.0"
  description: test plugin
spec:
  parameters:
    $schema: http://json-schema.org/draft-07/schema#
    type: object
    properties:
      port:
        type: integer
        minimum: 1024
        maximum: 65535
${opts.withKey ? "      key:\n        type: object\n        x-source: fabric-key\n" : ""}    required: [port${opts.withKey ? ", key" : ""}]
  processes:
    - name: web
      command: "{{ .runtime.node }}"
      args:
        - "-e"
        - ${JSON.stringify(opts.exitAtOnce ? "console.error('cannot start: missing config'); process.exit(4)" : SERVER_JS)}
        - "{{ .parameters.port }}"
${opts.withKey ? '        - "{{ .parameters.key.KeyPath }}"\n' : ""}      ports:
        - name: http
          port: "{{ .parameters.port }}"
      healthCheck:
        type: http
        port: "{{ .parameters.port }}"
        path: /healthz
        timeoutSeconds: 20
  documentation:
    readme: "# Test"
`;

describe.each(dialects())("plugins API (%s)", (dialect) => {
  let t: TestApp;
  const call = async (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({
      method: method as "GET",
      url: `/api/v1${url}`,
      headers: { ...t.admin, ...headers },
      ...(payload === undefined ? {} : { payload: payload as string }),
    });
    return {
      status: res.statusCode,
      body: (String(res.headers["content-type"] ?? "").includes("json") ? res.json() : res.body) as Json,
      raw: res.body,
    };
  };
  const yamlPost = (url: string, text: string, method = "POST") =>
    call(method, url, text, { "content-type": "application/yaml" });
  const plugins = () => join(t.config.dataDir, "plugins");

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    for (const pid of processesUnder(plugins())) process.kill(pid, "SIGKILL");
    await t.close();
  });

  it("installs from YAML and JSON, lists, reads back the YAML, and refuses a second plugin of the same name", async () => {
    const created = await yamlPost("/plugins", pluginYaml("web-a"));
    expect(created.status).toBe(201);
    expect(created.body.metadata.name).toBe("web-a");
    expect(created.body.deploymentStatus.status).toBe("not-deployed");
    const got = await call("GET", "/plugins/web-a");
    expect(got.body.yaml).toBe(pluginYaml("web-a"));
    expect(got.body.spec.processes[0].name).toBe("web");

    // A Go client echoes the read shape (deploymentStatus, yaml): those are not stored.
    const asJson = { ...got.body, metadata: { ...got.body.metadata, name: "web-json" } };
    expect((await call("POST", "/plugins", asJson)).status).toBe(201);
    const echoed = await call("GET", "/plugins/web-json");
    expect(echoed.body.deploymentStatus.status).toBe("not-deployed");
    expect(echoed.body.yaml).toContain("name: web-json");
    expect(echoed.body.yaml).not.toContain("deploymentStatus");
    const list = await call("GET", "/plugins");
    expect(list.body.map((p: Json) => p.metadata.name)).toEqual(["web-a", "web-json"]);

    const dup = await yamlPost("/plugins", pluginYaml("web-a"));
    expect(dup.status).toBe(409);
    expect(dup.body.message).toMatch(/metadata\.name: a plugin named 'web-a' already exists/);
  });

  it("reports bad YAML and format errors with the field, line and column", async () => {
    const broken = await yamlPost("/plugins", "apiVersion: v1\nkind: Plugin\nmetadata:\n  name: x\n   bad: [\n");
    expect(broken.status).toBe(400);
    expect(broken.body.details.errors[0].line).toBeGreaterThan(0);
    expect(broken.body.message).toMatch(/YAML: .*\(line \d+, column \d+\)/);

    const noCommand = pluginYaml("web-b").replace('      command: "{{ .runtime.node }}"\n', "");
    const r = await yamlPost("/plugins", noCommand);
    expect(r.status).toBe(400);
    expect(r.body.details.errors).toContainEqual(
      expect.objectContaining({ path: "spec.processes[0].command", message: "is required", line: 18, column: 7 }),
    );

    const typo = pluginYaml("web-c").replace(
      'port: "{{ .parameters.port }}"\n      healthCheck',
      'port: "{{ .parameters.prot }}"\n      healthCheck',
    );
    const t2 = await yamlPost("/plugins", typo);
    expect(t2.status).toBe(400);
    expect(t2.body.message).toContain(
      "spec.processes[0].ports[0].port: template refers to .parameters.prot, which is not defined in spec.parameters.properties (line 26, column 17)",
    );

    const badTemplate = pluginYaml("web-d").replace('- "{{ .parameters.port }}"', '- "{{ if .parameters.port }}x"');
    const t3 = await yamlPost("/plugins", badTemplate);
    expect(t3.body.details.errors[0]).toMatchObject({ path: "spec.processes[0].args[2]", line: 23, column: 12 });
    expect(t3.body.details.errors[0].message).toMatch(/\{\{if\}\} has no matching \{\{end\}\}/);

    const both = pluginYaml("web-e") + "  dockerCompose:\n    contents: 'services: {}'\n";
    expect((await yamlPost("/plugins", both)).body.message).toMatch(/spec: needs exactly one of 'processes'/);

    const badSource = pluginYaml("web-f").replace("minimum: 1024", "x-source: fabric-thing");
    expect((await yamlPost("/plugins", badSource)).body.message).toMatch(
      /^spec\.parameters\.properties\.port\.x-source: must be one of fabric-peer, .* \(line 14, column 19\)$/,
    );

    const v = await call("POST", "/plugins/validate", { yaml: noCommand });
    expect(v.status).toBe(200);
    expect(v.body.valid).toBe(false);
    expect(v.body.errors[0]).toMatchObject({ path: "spec.processes[0].command", line: 18 });
    expect((await call("POST", "/plugins/validate", { yaml: pluginYaml("ok") })).body.valid).toBe(true);
    expect((await call("GET", "/plugins/web-b")).status).toBe(404);
  });

  it("deploys a process plugin bound to an org key (0600, never in responses), stops, resumes, survives a console restart and deletes", async () => {
    const org = (await call("POST", "/organizations", { mspId: `Pl${dialect}MSP`, name: `plugins ${dialect}` })).body;
    const opts = await call("GET", "/plugins/sources/fabric-key");
    const admin = opts.body.options.find((o: Json) => o.value.orgId === org.id && o.description === "admin");
    expect(admin.label).toContain(`Pl${dialect}MSP`);
    expect((await yamlPost("/plugins", pluginYaml("keyed", { withKey: true }))).status).toBe(201);
    const port = await freePort();

    const bad = await call("POST", "/plugins/keyed/deploy", { port: "not-a-port", key: admin.value });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("parameters.port: must be integer");
    const missing = await call("POST", "/plugins/keyed/deploy", { port });
    expect(missing.body.message).toBe("parameters.key: is required");
    const wrongOrg = await call("POST", "/plugins/keyed/deploy", {
      port,
      key: { keyId: admin.value.keyId, orgId: org.id + 999 },
    });
    expect(wrongOrg.status).toBe(400);
    expect(wrongOrg.body.message).toMatch(/^parameters\.key: key '.+' is not a key of organization/);
    expect((await call("GET", "/plugins/keyed/deployment-status")).body.status).toBe("not-deployed");

    const dep = await call("POST", "/plugins/keyed/deploy", { port: String(port), key: admin.value });
    expect(dep.status, JSON.stringify(dep.body)).toBe(200);
    expect(dep.body.status).toBe("running");
    expect(dep.body.parameters).toEqual({ port, key: admin.value });
    expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).toEqual({ ok: true, path: "/healthz" });
    const keyFile = join(plugins(), "keyed", "secrets", "key", "key.pem");
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(plugins(), "keyed", "secrets")).mode & 0o777).toBe(0o700);

    expect((await call("POST", "/plugins/keyed/deploy", { port, key: admin.value })).status).toBe(409);
    const services = await call("GET", "/plugins/keyed/services");
    expect(services.body).toEqual([
      expect.objectContaining({
        name: "web",
        state: "running",
        running: true,
        health: "healthy",
        ports: [String(port)],
      }),
    ]);
    const logs = await call("GET", "/plugins/keyed/services/web/logs?tail=5");
    expect(logs.raw).toContain(`listening on ${port}`);
    const keyBody = readFileSync(keyFile, "utf8").split("\n")[1]!;
    expect(keyBody.length).toBeGreaterThan(40);
    for (const url of [
      "/plugins/keyed",
      "/plugins/keyed/deployment-status",
      "/plugins/keyed/services",
      "/plugins",
      "/audit/logs?limit=200",
    ]) {
      const raw = (await call("GET", url)).raw;
      expect(raw).not.toContain("PRIVATE KEY");
      expect(raw).not.toContain(keyBody);
    }

    // A console restart leaves it running and supervised (adopted, not started twice).
    // One supervised process: bwrap leads the group of the sandboxed program.
    const pids = supervisedUnder(join(plugins(), "keyed"));
    expect(pids).toHaveLength(1);
    await t.restart();
    const after = await waitFor(
      "adopted",
      async () => {
        const s = (await call("GET", "/plugins/keyed/services")).body[0];
        return s?.state === "running" ? s : undefined;
      },
      20_000,
    );
    expect(after.containers).toEqual([String(pids[0])]);
    expect(supervisedUnder(join(plugins(), "keyed"))).toEqual(pids);

    const stopped = await call("POST", "/plugins/keyed/stop");
    expect(stopped.body.status).toBe("stopped");
    expect(stopped.body.stoppedAt).toBeTruthy();
    expect(processesUnder(join(plugins(), "keyed"))).toEqual([]);
    expect(existsSync(keyFile)).toBe(false);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();

    const resumed = await call("POST", "/plugins/keyed/resume");
    expect(resumed.body).toEqual({ status: "running", message: expect.stringContaining("resumed") });
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect(readFileSync(keyFile, "utf8")).toMatch(/^-----BEGIN PRIVATE KEY-----/);

    expect((await call("DELETE", "/plugins/keyed")).status).toBe(204);
    expect(processesUnder(join(plugins(), "keyed"))).toEqual([]);
    expect(existsSync(join(plugins(), "keyed"))).toBe(false);
    expect((await call("GET", "/plugins/keyed")).status).toBe(404);
  });

  it("ends a deploy whose process exits at once in error, with its log, and nothing left running", async () => {
    expect((await yamlPost("/plugins", pluginYaml("crashy", { exitAtOnce: true }))).status).toBe(201);
    const r = await call("POST", "/plugins/crashy/deploy", { port: await freePort() });
    expect(r.status).toBe(400);
    expect(r.body.message, r.body.message).toMatch(/^process 'web' did not start: exited during start \(exit code 4\)/);
    expect(r.body.details.log.join("\n")).toContain("cannot start: missing config");
    const st = (await call("GET", "/plugins/crashy/deployment-status")).body;
    expect(st.status).toBe("error");
    expect(st.error).toContain("cannot start: missing config");
    expect(processesUnder(join(plugins(), "crashy"))).toEqual([]);
    expect(existsSync(join(plugins(), "crashy", "secrets"))).toBe(false);
  });

  it("refuses a deploy on a port in use and leaves the plugin as it was", async () => {
    const port = await freePort();
    const { createServer } = await import("node:net");
    const busy = createServer().listen(port, "127.0.0.1");
    await new Promise((r) => busy.once("listening", r));
    try {
      const r = await call("POST", "/plugins/web-a/deploy", { port });
      expect(r.status).toBe(409);
      expect(r.body.message).toBe(`port ${port} of process 'web' is in use`);
      expect((await call("GET", "/plugins/web-a/deployment-status")).body.status).toBe("not-deployed");
    } finally {
      busy.close();
    }
  });

  it("lets one of two concurrent deploys win", async () => {
    const port = await freePort();
    const [a, b] = await Promise.all([
      call("POST", "/plugins/web-json/deploy", { port }),
      call("POST", "/plugins/web-json/deploy", { port }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect((await call("POST", "/plugins/web-json/stop")).body.status).toBe("stopped");
  });

  it("refuses a compose plugin without Docker with a 400 that says so, and shows why", async () => {
    const yaml = readFileSync(
      join(import.meta.dirname, "..", "..", "..", "plugins-catalogue", "hlf-plugin-api.yaml"),
      "utf8",
    );
    expect((await yamlPost("/plugins", yaml)).status).toBe(201);
    const r = await call("POST", "/plugins/hlf-plugin-api/deploy", {
      key: { keyId: 1, orgId: 1 },
      channelName: "c",
      peers: [1],
      port: 8080,
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("DOCKER_UNAVAILABLE");
    expect(r.body.message).toMatch(/compose plugins need .*Docker/);
    const st = (await call("GET", "/plugins/hlf-plugin-api/deployment-status")).body;
    expect(st.status).toBe("error");
    expect(st.error).toMatch(/Docker/);
  });

  it("binds a fabric-org parameter to the org's MSP id and CA files, and applies an edited definition at the next deploy", async () => {
    const org = (await call("POST", "/organizations", { mspId: `Po${dialect}MSP`, name: `plugin org ${dialect}` }))
      .body;
    const yaml = pluginYaml("orgy")
      .replace(
        "    required: [port]",
        "      org:\n        type: integer\n        x-source: fabric-org\n    required: [port, org]",
      )
      .replace(
        '        - "{{ .parameters.port }}"\n',
        '        - "{{ .parameters.port }}"\n        - "{{ .parameters.org.TLSCACertPath }}"\n        - "--msp={{ .parameters.org.MspID }}"\n',
      );
    expect((await yamlPost("/plugins", yaml)).status).toBe(201);
    expect((await call("GET", "/plugins/sources/fabric-org")).body.options).toContainEqual(
      expect.objectContaining({ value: org.id, label: `Po${dialect}MSP` }),
    );
    const port = await freePort();
    const unknownOrg = await call("POST", "/plugins/orgy/deploy", { port, org: 999_999 });
    expect(unknownOrg.body.message).toBe("parameters.org: organization 999999 not found");
    expect((await call("POST", "/plugins/orgy/deploy", { port, org: org.id })).body.status).toBe("running");
    const [svc] = (await call("GET", "/plugins/orgy/services")).body;
    const caPath = join(plugins(), "orgy", "secrets", "org", "tls-ca.pem");
    expect(svc.config.args.slice(2)).toEqual([String(port), caPath, `--msp=Po${dialect}MSP`]);
    expect(readFileSync(caPath, "utf8")).toMatch(/^-----BEGIN CERTIFICATE-----/);

    // An edit changes the definition now and the processes at the next deploy.
    const edited = yaml.replace("description: test plugin", "description: edited");
    const put = await yamlPost("/plugins/orgy", edited, "PUT");
    expect(put.body.metadata.description).toBe("edited");
    expect(put.body.deploymentStatus.status).toBe("running");
    const renamed = await yamlPost("/plugins/orgy", edited.replace("name: orgy", "name: other"), "PUT");
    expect(renamed.status).toBe(400);
    expect(renamed.body.message).toMatch(/^metadata\.name: 'other' differs/);
    expect((await call("POST", "/plugins/orgy/stop")).body.status).toBe("stopped");
    expect((await call("POST", "/plugins/nope/deploy", {})).status).toBe(404);
    expect((await call("GET", "/plugins/orgy/services/nope/logs")).status).toBe(404);
  });

  it("adds the plugins of registries set in settings, and reports a registry that fails without hiding the rest", async () => {
    const served: Record<string, string> = {
      "/index.json": JSON.stringify({
        plugins: [
          { name: "from-registry", url: "plugins/from-registry.yaml" },
          { name: "broken", raw_yaml: "kind: [" },
        ],
      }),
      "/plugins/from-registry.yaml": pluginYaml("from-registry"),
    };
    const server: Server = createServer((req, res) => {
      const body = served[req.url ?? ""];
      res.statusCode = body ? 200 : 404;
      res.end(body ?? "no");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const settings = (await call("GET", "/settings")).body.config;
      const bad = await call("POST", "/settings", { config: { ...settings, pluginRegistries: ["ftp://x"] } });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/pluginRegistries\.0: must be an http\(s\) URL/);
      await call("POST", "/settings", {
        config: { ...settings, pluginRegistries: [`${base}/index.json`, `${base}/missing.json`] },
      });
      const av = (await call("POST", "/plugins/available/refresh")).body;
      expect(av.plugins.find((p: Json) => p.name === "from-registry")).toMatchObject({
        source: `${base}/index.json`,
        installed: false,
      });
      expect(av.plugins.some((p: Json) => p.name === "fabric-rest-gateway")).toBe(true);
      expect(av.errors).toEqual([
        { source: `${base}/index.json`, message: expect.stringMatching(/^broken: YAML: /) },
        { source: `${base}/missing.json`, message: expect.stringMatching(/^the index could not be read: HTTP 404/) },
      ]);
      await call("POST", "/settings", { config: { ...settings, pluginRegistries: [] } });
    } finally {
      server.close();
    }
  });

  it("lists the built-in catalogue with what is installed, and keeps plugins to admins and managers", async () => {
    const av = await call("GET", "/plugins/available");
    const names = av.body.plugins.map((p: Json) => p.name);
    expect(names).toEqual(expect.arrayContaining(["fabric-rest-gateway", "hlf-plugin-api"]));
    expect(av.body.plugins.find((p: Json) => p.name === "hlf-plugin-api").installed).toBe(true);
    expect(av.body.plugins.find((p: Json) => p.name === "fabric-rest-gateway")).toMatchObject({
      source: "builtin",
      installed: false,
    });
    const viewer = await createUser(t, `viewer-${dialect}`, "viewer");
    expect((await call("GET", "/plugins", undefined, viewer)).status).toBe(403);
    const manager = await createUser(t, `manager-${dialect}`, "manager");
    expect((await call("GET", "/plugins", undefined, manager)).status).toBe(200);
  });
});
