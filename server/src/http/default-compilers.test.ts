import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { lazyDefaultCompilers } from "./default-compilers.js";

describe("Fastify's default compilers, loaded on use", () => {
  it("validate and serialize a JSON-schema route as Fastify's own do", async () => {
    const app = Fastify({ schemaController: { compilersFactory: lazyDefaultCompilers } });
    app.post(
      "/things",
      {
        schema: {
          body: {
            type: "object",
            required: ["name"],
            properties: { name: { type: "string", minLength: 2 }, count: { type: "integer", default: 1 } },
          },
          response: { 200: { type: "object", properties: { name: { type: "string" }, count: { type: "integer" } } } },
        },
      },
      // The secret is not in the response schema: fast-json-stringify leaves it out.
      async (req) => ({ ...(req.body as object), secret: "x" }),
    );
    try {
      const ok = await app.inject({ method: "POST", url: "/things", payload: { name: "ab" } });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ name: "ab", count: 1 });
      const bad = await app.inject({ method: "POST", url: "/things", payload: { name: "a" } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe("body/name must NOT have fewer than 2 characters");
    } finally {
      await app.close();
    }
  });
});
