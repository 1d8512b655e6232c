import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BusEvent } from "../../events/bus.js";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";

describe.each(dialects())("settings on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it("returns defaults on first read", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/settings", headers: t.admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().config).toMatchObject({
      defaultNodeExposeIP: "",
      healthCheckInterval: "30s",
      portRangeStart: 7050,
    });
  });

  it("validates, saves, and emits settings.updated", async () => {
    const events: BusEvent[] = [];
    const off = t.bus.subscribe((e) => void events.push(e));
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/settings",
      headers: t.admin,
      payload: {
        config: {
          defaultNodeExposeIP: "10.0.0.5",
          healthCheckInterval: "1m",
          portRangeStart: 20000,
          portRangeEnd: 21000,
        },
      },
    });
    off();
    expect(res.statusCode).toBe(200);
    expect(res.json().config).toMatchObject({
      defaultNodeExposeIP: "10.0.0.5",
      healthCheckInterval: "1m",
      healthCheckTimeout: "5s",
    });
    expect(events.map((e) => e.type)).toContain("settings.updated");
    const again = await t.app.inject({ method: "GET", url: "/api/v1/settings", headers: t.admin });
    expect(again.json().config.portRangeEnd).toBe(21000);
  });

  it.each([
    [{ config: { healthCheckInterval: "soon" } }, "body.config.healthCheckInterval"],
    [{ config: { portRangeStart: 30000, portRangeEnd: 20000 } }, "body.config.portRangeEnd"],
    [{ config: { defaultNodeExposeIP: "bad host!" } }, "body.config.defaultNodeExposeIP"],
    [{ config: { surprise: 1 } }, "body.config"],
    [{}, "body.config"],
  ])("rejects %j naming %s, and changes nothing", async (payload, field) => {
    const before = (await t.app.inject({ method: "GET", url: "/api/v1/settings", headers: t.admin })).json();
    // Strict: an unknown field is refused rather than dropped with a warning.
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/settings?fieldValidation=Strict",
      headers: t.admin,
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message.startsWith(field)).toBe(true);
    expect((await t.app.inject({ method: "GET", url: "/api/v1/settings", headers: t.admin })).json()).toEqual(before);
  });

  it("lets a viewer read but not write", async () => {
    const viewer = await createUser(t, "set-viewer", "viewer");
    expect((await t.app.inject({ method: "GET", url: "/api/v1/settings", headers: viewer })).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: "POST", url: "/api/v1/settings", headers: viewer, payload: { config: {} } }))
        .statusCode,
    ).toBe(403);
  });
});
