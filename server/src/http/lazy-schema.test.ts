import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestApp, type TestApp } from "../test-support/test-app.js";
import { collapseLoneRefs } from "./openapi-responses.js";
import { lazySchema } from "./schema-helpers.js";

describe("lazySchema", () => {
  it("builds nothing until first use, then once for every copy", () => {
    let builds = 0;
    const item = lazySchema(() => {
      builds++;
      return z.object({ n: z.number().int() }).meta({ id: "LazySchemaTestItem" });
    });
    const described = item.describe("an item");
    const optional = item.optional();
    expect(builds).toBe(0);
    expect(described.parse({ n: 1 })).toEqual({ n: 1 });
    expect(optional.parse(undefined)).toBeUndefined();
    expect(item.unwrap().shape.n).toBeDefined();
    expect(builds).toBe(1);
    // One schema behind every copy: its id is not "shared by two schemas" when converted together.
    const doc = z.toJSONSchema(z.object({ a: item, b: described, c: z.array(optional) }));
    expect(JSON.stringify(doc)).toContain("LazySchemaTestItem");
  });

  it("parses, refuses and infers like the schema it builds", () => {
    const eager = z.object({ name: z.string().min(2), size: z.number().default(3), note: z.string().optional() });
    const lazy = lazySchema(() =>
      z.object({ name: z.string().min(2), size: z.number().default(3), note: z.string().optional() }),
    );
    const value: z.infer<typeof lazy> = { name: "ab", size: 1 };
    expect(lazy.parse(value)).toEqual(eager.parse(value));
    expect(lazy.parse({ name: "ab" })).toEqual({ name: "ab", size: 3 });
    const bad = lazy.safeParse({ name: "a" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues).toEqual(eager.safeParse({ name: "a" }).error?.issues);
    for (const io of ["input", "output"] as const)
      expect(z.toJSONSchema(z.object({ x: lazy }), { io })).toEqual(z.toJSONSchema(z.object({ x: eager }), { io }));
  });
});

describe("collapseLoneRefs", () => {
  it("turns a lone allOf of one reference into the reference, and leaves anything else", () => {
    const ref = { $ref: "#/components/schemas/A" };
    const doc = {
      a: { allOf: [ref] },
      b: { items: { allOf: [{ ...ref }] } },
      c: { allOf: [ref], description: "kept: it says more than the reference" },
      d: { allOf: [ref, { $ref: "#/components/schemas/B" }] },
      e: [{ allOf: [{ $ref: "#/x", description: "y" }] }],
    };
    expect(collapseLoneRefs(doc)).toEqual({
      a: ref,
      b: { items: ref },
      c: { allOf: [ref], description: "kept: it says more than the reference" },
      d: { allOf: [ref, { $ref: "#/components/schemas/B" }] },
      e: [{ allOf: [{ $ref: "#/x", description: "y" }] }],
    });
  });
});

describe("the OpenAPI document with lazily built schemas", () => {
  let apps: TestApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.map((a) => a.close()));
    apps = [];
  });

  it("is the same whatever the server answered before, with its components by name", async () => {
    const first = await createTestApp("sqlite");
    const second = await createTestApp("sqlite");
    apps.push(first, second);
    // The second server builds some schemas first (answering, and refusing a bad body); the first none.
    const auth = second.admin;
    expect((await second.app.inject({ method: "GET", url: "/api/v1/organizations", headers: auth })).statusCode).toBe(
      200,
    );
    const refused = await second.app.inject({
      method: "POST",
      url: "/api/v1/users",
      headers: auth,
      payload: { username: "x" },
    });
    expect(refused.statusCode).toBe(400);
    const docOf = async (t: TestApp) => (await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).body;
    const [a, b] = [await docOf(first), await docOf(second)];
    expect(b).toBe(a);
    const names = Object.keys(
      (JSON.parse(a) as { components: { schemas: Record<string, unknown> } }).components.schemas,
    );
    expect(names).toEqual([...names].sort());
    const lone: string[] = [];
    JSON.parse(a, (key, value: unknown) => {
      const keys = value && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
      const all = keys.length === 1 && keys[0] === "allOf" ? (value as { allOf: unknown[] }).allOf : undefined;
      if (all?.length === 1 && Object.keys(all[0] as object).join() === "$ref") lone.push(key);
      return value;
    });
    expect(lone).toEqual([]);
  });
});
