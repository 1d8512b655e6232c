import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";
import { createNodeBody } from "../nodes/nodes.schema.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Headers = Record<string, string>;

/** A FABRIC peer template with a name, an org id and a pattern-checked MSP id. */
const peerTemplate = (name: string, extra: Json = {}): Json => ({
  name,
  description: "peer for tests",
  platform: "FABRIC",
  node_type: "peer",
  version: "1.0.0",
  config: {
    name: "{{name}}",
    blockchainPlatform: "FABRIC",
    fabricPeer: {
      organizationId: "{{org}}",
      mspId: "{{msp}}",
      mode: "{{mode}}",
      env: { FABRIC_LOGGING_SPEC: "{{level}}" },
    },
  },
  variables: [
    { name: "name", type: "string", required: true, validation: { pattern: "^[a-z][a-z0-9-]*$", max_length: 20 } },
    { name: "org", type: "number", required: true, validation: { min: 1, max: 1000 } },
    { name: "msp", type: "string", required: true, validation: { min_length: 3 } },
    { name: "mode", type: "string", default: "service", validation: { enum: ["service", "docker"] } },
    { name: "level", type: "string", default: "INFO" },
  ],
  tags: ["test", "Peer"],
  ...extra,
});

describe.each(dialects())("node templates on %s", (dialect) => {
  let t: TestApp;
  let viewer: Headers;
  let manager: Headers;
  const call = (
    method: "GET" | "POST" | "PUT" | "DELETE",
    url: string,
    payload?: unknown,
    headers: Headers = t.admin,
  ) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { ...headers, ...(payload !== undefined ? { "content-type": "application/json" } : {}) },
      ...(payload !== undefined ? { payload: typeof payload === "string" ? payload : JSON.stringify(payload) } : {}),
    });
  const ok = async (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown, headers?: Headers) => {
    const res = await call(method, url, payload, headers);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.body ? res.json() : undefined;
  };
  const bad = async (url: string, payload: unknown, status = 400, method: "POST" | "PUT" = "POST") => {
    const res = await call(method, url, payload);
    expect(res.statusCode, res.body).toBe(status);
    return res.json().message as string;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    viewer = await createUser(t, "tplviewer", "viewer");
    manager = await createUser(t, "tplmanager", "manager");
  }, 60_000);
  afterAll(async () => t?.close());

  it("seeds the built-in templates once, each its group's default, and their applied configs are POST /nodes bodies", async () => {
    const list = (await ok("GET", "/templates")) as Json[];
    expect(list.map((x) => [x.name, x.platform, x.node_type, x.is_default, x.created_by])).toEqual([
      ["Besu validator", "BESU", "validator", true, "system"],
      ["Fabric orderer", "FABRIC", "orderer", true, "system"],
      ["Fabric peer", "FABRIC", "peer", true, "system"],
    ]);
    await t.restart();
    expect(((await ok("GET", "/templates")) as Json[]).length).toBe(3);
    const peer = await ok("GET", "/templates/platforms/FABRIC/peer/default");
    const applied = await ok("POST", `/templates/${peer.id}/apply`, {
      variables: { name: "peer0", organization_id: 4, msp_id: "Org1MSP" },
    });
    expect(applied).toEqual({
      name: "peer0",
      blockchainPlatform: "FABRIC",
      fabricPeer: { organizationId: 4, mspId: "Org1MSP", mode: "service", env: { FABRIC_LOGGING_SPEC: "INFO" } },
    });
    expect(createNodeBody.safeParse(applied).success).toBe(true);
    const orderer = await ok("GET", "/templates/platforms/FABRIC/orderer/default");
    const o = await ok("POST", `/templates/${orderer.id}/apply`, {
      variables: {
        name: "ord0",
        organization_id: "2",
        msp_id: "OrdMSP",
        fabric_version: "3.1.0",
        external_endpoint: "ord0.example:7050",
      },
    });
    expect(createNodeBody.parse(o).fabricOrderer).toMatchObject({
      organizationId: 2,
      version: "3.1.0",
      externalEndpoint: "ord0.example:7050",
    });
    const besu = await ok("GET", "/templates/platforms/BESU/validator/default");
    const b = await ok("POST", `/templates/${besu.id}/apply`, {
      variables: { name: "val0", network_id: 1, key_id: 2 },
    });
    expect(createNodeBody.parse(b).besuNode).toMatchObject({ networkId: 1, keyId: 2, p2pPort: 30303, rpcPort: 8545 });
    // A deleted built-in stays deleted after a restart.
    await ok("DELETE", `/templates/${besu.id}`);
    await t.restart();
    expect(((await ok("GET", "/templates")) as Json[]).map((x) => x.name)).not.toContain("Besu validator");
    expect((await call("GET", "/templates/platforms/BESU/validator/default")).statusCode).toBe(404);
  });

  it("creates, reads, changes and deletes a template; lists by platform and node type", async () => {
    const res = await call("POST", "/templates", peerTemplate("crud peer"), manager);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      name: "crud peer",
      is_default: false,
      is_active: true,
      usage_count: 0,
      created_by: "tplmanager",
    });
    expect(await ok("GET", `/templates/${created.id}`, undefined, viewer)).toEqual(created);
    const updated = await ok("PUT", `/templates/${created.id}`, {
      ...peerTemplate("crud peer 2"),
      description: "changed",
      version: "1.1.0",
    });
    expect(updated).toMatchObject({
      name: "crud peer 2",
      description: "changed",
      version: "1.1.0",
      platform: "FABRIC",
    });
    // Variables left out stay, and the placeholders are checked against them.
    const { variables: _v, ...noVars } = peerTemplate("crud peer 2");
    const kept = await ok("PUT", `/templates/${created.id}`, { ...noVars, version: "1.2.0" });
    expect(kept.variables).toEqual(created.variables);
    const fabric = (await ok("GET", "/templates/platforms/FABRIC")) as Json[];
    expect(fabric.map((x) => x.name)).toContain("crud peer 2");
    expect(fabric.every((x) => x.platform === "FABRIC")).toBe(true);
    const peers = (await ok("GET", "/templates?platform=FABRIC&node_type=peer")) as Json[];
    expect(peers.every((x) => x.node_type === "peer")).toBe(true);
    expect((await call("DELETE", `/templates/${created.id}`)).statusCode).toBe(204);
    expect((await call("GET", `/templates/${created.id}`)).statusCode).toBe(404);
    expect((await call("DELETE", `/templates/${created.id}`)).statusCode).toBe(404);
    expect(((await ok("GET", "/templates")) as Json[]).map((x) => x.id)).not.toContain(created.id);
    const row = await t.database.db
      .selectFrom("node_templates")
      .selectAll()
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(row.is_active).toBe(0);
  });

  it("searches by text, platform, node type and tags; popular follows applies", async () => {
    const a = await ok(
      "POST",
      "/templates",
      peerTemplate("Searchable alpha", { description: "The ZEBRA peer", tags: ["zoo", "Striped"] }),
    );
    const b = await ok("POST", "/templates", peerTemplate("Searchable beta", { tags: ["zoo"] }));
    const names = async (q: string) => ((await ok("GET", `/templates/search?${q}`)) as Json[]).map((x) => x.name);
    expect(await names("query=zebra")).toEqual(["Searchable alpha"]);
    expect(await names("query=searchable&tags=zoo")).toEqual(["Searchable alpha", "Searchable beta"]);
    expect(await names("tags=zoo,striped")).toEqual(["Searchable alpha"]);
    expect(await names("query=searchable&platform=BESU")).toEqual([]);
    expect(await names("query=searchable&node_type=peer&platform=FABRIC")).toHaveLength(2);
    expect(await names("query=100%25")).toEqual([]);
    const vars = { name: "p", org: 1, msp: "OrgMSP" };
    for (let i = 0; i < 3; i++) await ok("POST", `/templates/${b.id}/apply`, { variables: vars });
    for (let i = 0; i < 2; i++) await ok("POST", `/templates/${a.id}/apply`, { variables: vars });
    const popular = (await ok("GET", "/templates/popular?limit=2")) as Json[];
    expect(popular.map((x) => [x.id, x.usage_count])).toEqual([
      [b.id, 3],
      [a.id, 2],
    ]);
    expect((await call("GET", "/templates/popular?limit=0")).statusCode).toBe(400);
  });

  it("keeps one default per platform and node type, also under concurrent set-defaults", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push((await ok("POST", "/templates", peerTemplate(`def ${i}`))).id);
    const results = await Promise.all(ids.map((id) => call("POST", `/templates/${id}/set-default`)));
    expect(results.map((r) => r.statusCode)).toEqual(ids.map(() => 200));
    expect(results[0]?.json().message).toMatch(/is the default for FABRIC peer$/);
    const defaults = await t.database.db
      .selectFrom("node_templates")
      .select("id")
      .where("platform", "=", "FABRIC")
      .where("node_type", "=", "peer")
      .where("is_default", "=", 1)
      .execute();
    expect(defaults).toHaveLength(1);
    expect((await ok("GET", "/templates/platforms/FABRIC/peer/default")).id).toBe(defaults[0]?.id);
    // The orderer default is untouched.
    expect((await ok("GET", "/templates/platforms/FABRIC/orderer/default")).name).toBe("Fabric orderer");
    // A create with is_default takes it over; an update with false gives it up.
    const fresh = await ok("POST", "/templates", peerTemplate("def new", { is_default: true }));
    expect((await ok("GET", "/templates/platforms/FABRIC/peer/default")).id).toBe(fresh.id);
    await ok("PUT", `/templates/${fresh.id}`, { ...peerTemplate("def new"), is_default: false });
    expect((await call("GET", "/templates/platforms/FABRIC/peer/default")).statusCode).toBe(404);
    expect((await call("POST", "/templates/999999/set-default")).statusCode).toBe(404);
  });

  it("refuses apply values by the variable they are for", async () => {
    const tpl = await ok("POST", "/templates", peerTemplate("apply checks"));
    const url = `/templates/${tpl.id}/apply`;
    const good = { name: "peer-a", org: 3, msp: "OrgMSP" };
    expect(await bad(url, { variables: { ...good, nmae: "x" } })).toMatch(
      /^variables\.nmae: the template has no variable 'nmae'/,
    );
    expect(await bad(url, { variables: { org: 3, msp: "OrgMSP" } })).toMatch(/^variables\.name: required/);
    expect(await bad(url, { variables: { ...good, org: "three" } })).toBe("variables.org: must be a number");
    expect(await bad(url, { variables: { ...good, org: 1001 } })).toBe("variables.org: must be at most 1000");
    expect(await bad(url, { variables: { ...good, msp: "O" } })).toBe("variables.msp: must have at least 3 characters");
    expect(await bad(url, { variables: { ...good, name: "Peer A" } })).toBe(
      "variables.name: must match ^[a-z][a-z0-9-]*$",
    );
    expect(await bad(url, { variables: { ...good, mode: "kubernetes" } })).toBe(
      "variables.mode: must be one of service, docker",
    );
    expect(await bad(url, { variables: { ...good, msp: 12 } })).toBe("variables.msp: must be text, not number");
    expect(await bad(url, { template_id: tpl.id + 1, variables: good })).toMatch(/^template_id: /);
    // A value the template's own checks let through but POST /nodes would refuse names the variable.
    expect(await bad(url, { variables: { ...good, msp: "   " } })).toMatch(
      /^variables\.msp: .*\(it fills config\.fabricPeer\.mspId\)$/,
    );
    // override_config merges, and is held to the same shape.
    const merged = await ok("POST", url, { variables: good, override_config: { fabricPeer: { version: "3.1.0" } } });
    expect(merged.fabricPeer).toMatchObject({ organizationId: 3, mspId: "OrgMSP", version: "3.1.0" });
    expect(await bad(url, { variables: good, override_config: { fabricPeer: { binary: "/bin/sh" } } })).toMatch(
      /^override_config\.fabricPeer\.binary: a template cannot name a program/,
    );
    expect(await bad(url, { variables: good, override_config: { fabricPeer: { listenAddres: "x" } } })).toMatch(
      /^override_config\.fabricPeer\.listenAddres: unknown field/,
    );
    expect((await call("POST", "/templates/999999/apply", { variables: {} })).statusCode).toBe(404);
  });

  it("runs validation patterns with RE2: a catastrophic pattern answers at once, a bad one is refused by name", async () => {
    const tpl = await ok("POST", "/templates", {
      name: "redos",
      platform: "ETHEREUM",
      node_type: "fullnode",
      version: "1",
      config: { label: "{{v}}" },
      variables: [{ name: "v", type: "string", validation: { pattern: "^(a+)+$" } }],
    });
    const started = Date.now();
    expect(await bad(`/templates/${tpl.id}/apply`, { variables: { v: `${"a".repeat(50_000)}!` } })).toBe(
      "variables.v: must match ^(a+)+$",
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await ok("POST", `/templates/${tpl.id}/apply`, { variables: { v: "aaaa" } })).toEqual({ label: "aaaa" });
    const base = { name: "x", platform: "ETHEREUM", node_type: "fullnode", version: "1", config: { a: "{{v}}" } };
    expect(
      await bad("/templates", {
        ...base,
        variables: [{ name: "v", type: "string", validation: { pattern: "(?<=x)y" } }],
      }),
    ).toMatch(/^variables\[0\]\.validation\.pattern: not a valid RE2 expression/);
    expect(
      await bad("/templates", {
        ...base,
        variables: [{ name: "v", type: "string", validation: { pattern: "x{1000}{1000}" } }],
      }),
    ).toMatch(/^variables\[0\]\.validation\.pattern: /);
    expect(await bad("/templates", { ...base, variables: [] })).toBe(
      "config.a: {{v}} names no variable of the template",
    );
    expect(await bad("/templates", { ...base, variables: [{ name: "v", type: "number", default: "abc" }] })).toBe(
      "variables[0].default: must be a number",
    );
    expect(
      await bad("/templates", {
        ...base,
        variables: [
          { name: "v", type: "string" },
          { name: "v", type: "string" },
        ],
      }),
    ).toBe("variables[1].name: 'v' is declared twice");
    expect(await bad("/templates", { ...base, variables: [{ name: "v", type: "date" }] })).toMatch(
      /variables\.0\.type/,
    );
  });

  it("refuses configs that name a program, fields POST /nodes does not take, and admin-only env for managers", async () => {
    const p = peerTemplate("host cmd");
    const withPeer = (extra: Json) => ({
      ...p,
      config: { ...p.config, fabricPeer: { ...p.config.fabricPeer, ...extra } },
    });
    expect(await bad("/templates", withPeer({ binary: "/tmp/evil" }))).toMatch(
      /^config\.fabricPeer\.binary: a template cannot name a program/,
    );
    expect(await bad("/templates", withPeer({ sourcePath: "/tmp" }))).toMatch(/^config\.fabricPeer\.sourcePath: /);
    expect(
      await bad("/templates", {
        ...p,
        platform: "BESU",
        node_type: "besu_network",
        config: { deep: [{ command: "rm" }] },
      }),
    ).toMatch(/^config\.deep\[0\]\.command: /);
    expect(await bad("/templates", withPeer({ listenAdress: "0.0.0.0:1" }))).toMatch(
      /^config\.fabricPeer\.listenAdress: unknown field/,
    );
    expect(await bad("/templates", withPeer({ organizationId: "seven" }))).toMatch(
      /^config\.fabricPeer\.organizationId: /,
    );
    expect(await bad("/templates", { ...p, config: { ...p.config, fabricOrderer: {} } })).toMatch(
      /^config\.fabricOrderer: a FABRIC peer template configures fabricPeer/,
    );
    expect(await bad("/templates", { ...p, config: { ...p.config, blockchainPlatform: "BESU" } })).toMatch(
      /^config\.blockchainPlatform: must be FABRIC/,
    );
    const preload = withPeer({ env: { LD_PRELOAD: "/tmp/x.so" } });
    const refused = await call("POST", "/templates", preload, manager);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().message).toMatch(/^config\.fabricPeer\.env\.LD_PRELOAD: /);
    // An admin may store it; a manager may not apply it (POST /nodes would refuse it as well).
    const stored = await ok("POST", "/templates", preload);
    const applied = await call(
      "POST",
      `/templates/${stored.id}/apply`,
      { variables: { name: "p", org: 1, msp: "OrgMSP" } },
      manager,
    );
    expect(applied.statusCode, applied.body).toBe(403);
    expect(applied.json().message).toMatch(/^config\.fabricPeer\.env\.LD_PRELOAD: /);
    // A value filled by a variable is checked once filled.
    const viaVar = await ok(
      "POST",
      "/templates",
      withPeer({ env: { FABRIC_LOGGING_SPEC: "{{level}}", CORE_PEER_FILESYSTEMPATH: "{{level}}" } }),
    );
    const pathy = await call(
      "POST",
      `/templates/${viaVar.id}/apply`,
      { variables: { name: "p", org: 1, msp: "OrgMSP", level: "/etc" } },
      manager,
    );
    expect(pathy.statusCode, pathy.body).toBe(403);
  });

  it("exports and imports a template; a bad document is refused by field", async () => {
    const src = await ok("POST", "/templates", peerTemplate("exported", { is_default: false }));
    await ok("POST", `/templates/${src.id}/apply`, { variables: { name: "p", org: 1, msp: "OrgMSP" } });
    const exported = await ok("GET", `/templates/${src.id}/export`, undefined, viewer);
    expect(exported).toMatchObject({ export_version: "1.0", template: { name: "exported", usage_count: 1 } });
    expect(Date.parse(exported.exported_at)).not.toBeNaN();
    const res = await call("POST", "/templates/import", exported, manager);
    expect(res.statusCode, res.body).toBe(201);
    const imported = res.json();
    expect(imported.id).not.toBe(src.id);
    const strip = (x: Json) => ({ ...x, id: 0, usage_count: 0, created_at: "", updated_at: "", created_by: "" });
    expect(strip(imported)).toEqual(strip({ ...src }));
    expect(imported).toMatchObject({ usage_count: 0, is_default: false, created_by: "tplmanager" });
    const { name: _n, ...noName } = exported.template;
    expect(await bad("/templates/import", { ...exported, template: noName })).toMatch(/template\.name/);
    expect(await bad("/templates/import", { ...exported, export_version: "2.0" })).toMatch(
      /^export_version: 2\.0 is not a format/,
    );
    expect(
      await bad("/templates/import", {
        ...exported,
        template: { ...exported.template, config: { ...exported.template.config, name: "{{nope}}" } },
      }),
    ).toBe("template.config.name: {{nope}} names no variable of the template");
    expect(await bad("/templates/import", { export_version: "1.0" })).toMatch(/template/);
  });

  it("takes requests the way upstream's Go clients send them", async () => {
    // null for empty slices, unknown extra fields, and an apply with an empty JSON body.
    const res = await call("POST", "/templates", {
      name: "go client",
      description: "",
      platform: "FABRIC",
      node_type: "fabric_network",
      version: "1.0",
      config: { channel: "mychannel" },
      variables: null,
      tags: null,
      is_default: false,
      extra_from_newer_upstream: 1,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(String(res.headers.warning)).toMatch(/extra_from_newer_upstream/);
    const id = res.json().id;
    expect(res.json()).toMatchObject({ variables: [], tags: [] });
    const empty = await t.app.inject({
      method: "POST",
      url: `/api/v1/templates/${id}/apply`,
      headers: { ...t.admin, "content-type": "application/json" },
      payload: "",
    });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toEqual({ channel: "mychannel" });
    const nulls = await call("POST", `/templates/${id}/apply`, {
      template_id: id,
      variables: null,
      override_config: null,
      context: null,
    });
    expect(nulls.statusCode, nulls.body).toBe(200);
    for (const url of [`/templates/${id}/set-default`]) {
      const r = await t.app.inject({
        method: "POST",
        url: `/api/v1${url}`,
        headers: { ...t.admin, "content-type": "application/json" },
        payload: "",
      });
      expect(r.statusCode, r.body).toBe(200);
    }
    const put = await call("PUT", `/templates/${id}`, { ...(res.json() as Json), variables: null, tags: null });
    expect(put.statusCode, put.body).toBe(200);
  });

  it("lets viewers read and export only; managers change; every change is audited", async () => {
    const tpl = await ok("POST", "/templates", peerTemplate("roles"), manager);
    for (const url of [
      "/templates",
      "/templates/search?query=roles",
      "/templates/popular",
      `/templates/${tpl.id}`,
      `/templates/${tpl.id}/export`,
      "/templates/platforms/FABRIC",
    ]) {
      expect((await call("GET", url, undefined, viewer)).statusCode, url).toBe(200);
    }
    const mutations: ["POST" | "PUT" | "DELETE", string, unknown][] = [
      ["POST", "/templates", peerTemplate("viewer made")],
      ["PUT", `/templates/${tpl.id}`, peerTemplate("viewer changed")],
      ["POST", `/templates/${tpl.id}/apply`, { variables: { name: "p", org: 1, msp: "OrgMSP" } }],
      ["POST", `/templates/${tpl.id}/set-default`, {}],
      ["POST", "/templates/import", { export_version: "1.0", template: peerTemplate("viewer import") }],
      ["DELETE", `/templates/${tpl.id}`, undefined],
    ];
    for (const [m, url, body] of mutations)
      expect((await call(m, url, body, viewer)).statusCode, `${m} ${url}`).toBe(403);
    for (const [m, url, body] of mutations)
      expect((await call(m, url, body, manager)).statusCode, `${m} ${url}`).toBeLessThan(300);
    const audit = await t.database.db
      .selectFrom("audit_logs")
      .select(["event_type", "event_outcome"])
      .where("event_type", "like", "template.%")
      .execute();
    const kinds = new Set(audit.filter((a) => a.event_outcome === "SUCCESS").map((a) => a.event_type));
    expect([...kinds].sort()).toEqual([
      "template.apply",
      "template.create",
      "template.delete",
      "template.import",
      "template.set_default",
      "template.update",
    ]);
    expect(audit.some((a) => a.event_outcome === "FAILURE")).toBe(true);
  });
});
