import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, dialects, type TestApp } from "../test-support/test-app.js";

/** A 403 says which role the route needs, so the console can show "this needs the admin role". */
describe.each(dialects())("403 answers name the role needed on %s", (dialect) => {
  let t: TestApp;
  let demo: TestApp;
  let viewer: { authorization: string };
  let manager: { authorization: string };
  beforeAll(async () => {
    t = await createTestApp(dialect);
    demo = await createTestApp(dialect, { CHAINLAUNCH_DEMO: "true" });
    viewer = await createUser(t, "forbidden-viewer", "viewer");
    manager = await createUser(t, "forbidden-manager", "manager");
  });
  afterAll(async () => {
    await t.close();
    await demo.close();
  });

  it("tells a viewer a change needs the admin or manager role", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/organizations",
      headers: viewer,
      payload: { mspId: "NopeMSP", name: "nope" },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      error: "FORBIDDEN",
      message: "this needs the admin or manager role; your role is viewer",
      details: { permission: "ORGANIZATION_CREATE", requiredRoles: ["admin", "manager"], role: "viewer", demo: false },
    });
  });

  it("tells a manager the user list needs the admin or viewer role", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/users", headers: manager });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      message: "this needs the admin or viewer role; your role is manager",
      details: { permission: "USER_READ", requiredRoles: ["admin", "viewer"], role: "manager" },
    });
  });

  it("tells the demo visitor to log in, for reads it may not make and for changes", async () => {
    const read = await demo.app.inject({ method: "GET", url: "/api/v1/users" });
    expect(read.statusCode).toBe(403);
    expect(read.json()).toMatchObject({
      message: "the demo visitor can't see this; log in to see it",
      details: { permission: "USER_READ", requiredRoles: ["admin", "viewer"], role: "viewer", demo: true },
    });
    const write = await demo.app.inject({
      method: "POST",
      url: "/api/v1/organizations",
      payload: { mspId: "DemoMSP", name: "demo" },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({
      message: "the demo visitor is read-only; log in to make changes",
      details: { permission: "ORGANIZATION_CREATE", demo: true },
    });
  });
});
