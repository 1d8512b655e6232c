import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test-support/test-app.js";

type Op = {
  parameters?: { in: string; name: string }[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp("sqlite");
});
afterAll(async () => t.close());

it("declares the error responses of every operation with the ErrorResponse envelope, and 204s without a body", async () => {
  const doc = (await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json() as {
    paths: Record<string, Record<string, Op>>;
    components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
  };
  expect(Object.keys(doc.components.schemas.ErrorResponse?.properties ?? {})).toEqual([
    "error",
    "message",
    "details",
    "requestId",
  ]);
  const problems: string[] = [];
  let operations = 0;
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      operations++;
      const id = `${method.toUpperCase()} ${path}`;
      const expected = ["400", "500"];
      if (/\{\w+\}/.test(path)) expected.push("404");
      if (method !== "get") expected.push("409");
      for (const code of expected) {
        const ref = op.responses[code]?.content?.["application/json"]?.schema?.$ref;
        if (ref !== "#/components/schemas/ErrorResponse")
          problems.push(`${id}: ${code} is not declared with ErrorResponse`);
      }
      if (op.responses["204"]?.content) problems.push(`${id}: 204 declares a body`);
      const fv = (op.parameters ?? []).some((p) => p.in === "query" && p.name === "fieldValidation");
      if (op.requestBody && !fv) problems.push(`${id}: takes a body but does not declare fieldValidation`);
    }
  }
  expect(operations).toBeGreaterThan(50);
  expect(problems).toEqual([]);
  // Operations that need a caller also declare 401 and 403.
  expect(Object.keys(doc.paths["/users"]!.get!.responses)).toEqual(expect.arrayContaining(["401", "403"]));
});

it("declares a route's `produces` on its success response only; its errors stay JSON", async () => {
  const doc = (await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json() as {
    paths: Record<string, Record<string, Op & Record<string, unknown>>>;
  };
  for (const suffix of ["network-config", "config"]) {
    const op = doc.paths[`/networks/fabric/{id}/organizations/{orgId}/${suffix}`]!.get!;
    expect(Object.keys(op.responses["200"]!.content ?? {})).toEqual(["text/yaml"]);
    expect(op.responses["200"]!.content!["text/yaml"]!.schema).toMatchObject({ type: "string" });
    expect(Object.keys(op.responses["404"]!.content ?? {})).toEqual(["application/json"]);
    expect(op.produces).toBeUndefined();
  }
});
