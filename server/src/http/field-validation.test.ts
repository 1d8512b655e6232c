import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestApp, type TestApp } from "../test-support/test-app.js";
import { unknownFields } from "./field-validation.js";

describe("unknown body fields (Kubernetes-style fieldValidation)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("sqlite");
  });
  afterAll(async () => t.close());

  const createUser = (query: string, payload: object) =>
    t.app.inject({ method: "POST", url: `/api/v1/users${query}`, headers: t.admin, payload });

  it("drops unknown fields with a Warning header by default, and the request succeeds", async () => {
    const res = await createUser("", {
      username: "warned",
      password: "password-123",
      role: "viewer",
      id: 7,
      extra: { a: 1 },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect([res.headers.warning].flat()).toEqual([
      '299 - "unknown field \\"body.id\\""',
      '299 - "unknown field \\"body.extra\\""',
    ]);
    expect(res.json().id).not.toBe(7);
  });

  it("drops them silently with Ignore, refuses them with Strict (any case), and refuses an unknown mode", async () => {
    const ignored = await createUser("?fieldValidation=Ignore", {
      username: "ignored",
      password: "password-123",
      role: "viewer",
      x: 1,
    });
    expect(ignored.statusCode).toBe(201);
    expect(ignored.headers.warning).toBeUndefined();
    const strict = await createUser("?fieldValidation=strict", {
      username: "strict",
      password: "password-123",
      role: "viewer",
      x: 1,
    });
    expect(strict.statusCode).toBe(400);
    expect(strict.json().message).toMatch(/^body\.x: unknown field/);
    const bad = await createUser("?fieldValidation=Loose", {
      username: "loose",
      password: "password-123",
      role: "viewer",
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^querystring\.fieldValidation/);
  });

  it("is accepted on routes without a body and with strict query schemas", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/v1/organizations?fieldValidation=Strict",
      headers: t.admin,
    });
    expect(res.statusCode).toBe(200);
  });

  it("finds nested unknown fields through optional, default, array and discriminated-union schemas", () => {
    const schema = z
      .object({
        name: z.string(),
        nested: z.object({ a: z.number() }).strict().optional(),
        list: z.array(z.object({ q: z.string() }).strict()).default([]),
        kind: z.discriminatedUnion("t", [
          z.object({ t: z.literal("x"), x: z.number() }).strict(),
          z.object({ t: z.literal("y"), y: z.number() }).strict(),
        ]),
        free: z.record(z.string(), z.unknown()),
      })
      .strict();
    const body = {
      name: "n",
      nested: { a: 1, b: 2 },
      list: [{ q: "1" }, { q: "2", r: 3 }],
      kind: { t: "y", y: 1, x: 2 },
      free: { anything: 1 },
      top: true,
    };
    expect(unknownFields(schema, body, "body", true)).toEqual([
      "body.nested.b",
      "body.list[1].r",
      "body.kind.x",
      "body.top",
    ]);
    expect(schema.safeParse(body).success).toBe(true);
  });
});
