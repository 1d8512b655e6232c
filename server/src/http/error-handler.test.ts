import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { registerErrorHandler } from "./error-handler.js";
import { ConflictError } from "./errors.js";

describe("error handler", () => {
  it("turns unknown errors into a logged 500 with the request id and no stack", async () => {
    const logged: unknown[] = [];
    const app = Fastify({
      logger: { level: "error", stream: { write: (l: string) => void logged.push(JSON.parse(l)) } },
    });
    registerErrorHandler(app, { spa: false });
    app.get("/boom", async () => {
      throw new Error("database exploded at /secret/path");
    });
    app.get("/conflict", async () => {
      throw new ConflictError("name: already taken");
    });
    const res = await app.inject({ method: "GET", url: "/boom" });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: "INTERNAL", message: "internal server error", requestId: expect.any(String) });
    expect(res.body).not.toContain("exploded");
    expect(res.body).not.toContain("at ");
    expect(JSON.stringify(logged)).toContain("database exploded");
    const c = await app.inject({ method: "GET", url: "/conflict" });
    expect(c.statusCode).toBe(409);
    expect(c.json()).toMatchObject({ error: "CONFLICT", message: "name: already taken" });
    const nf = await app.inject({ method: "GET", url: "/api/v1/nothing" });
    expect(nf.statusCode).toBe(404);
    expect(nf.json().error).toBe("NOT_FOUND");
  });
});
