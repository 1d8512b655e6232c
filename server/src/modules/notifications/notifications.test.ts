import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";
import { openSocket } from "../../test-support/ws.js";

describe.each(dialects())("notifications and the live channel on %s", (dialect) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const addr = t.app.server.address();
    base = `127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
  });
  afterAll(async () => t.close());

  const auth = () => ({ authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString("base64")}` });

  it("refuses an unauthenticated websocket", async () => {
    const s = openSocket(`ws://${base}/api/v1/ws`, {});
    await expect(s.opened).rejects.toThrow(/401/);
  });

  it("answers ping, and pushes a notification created for that user", async () => {
    const s = openSocket(`ws://${base}/api/v1/ws`, auth());
    await s.opened;
    await s.next("hello");
    s.ws.send(JSON.stringify({ type: "ping" }));
    expect((await s.next("pong")).type).toBe("pong");

    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/user-notifications/test",
      headers: t.admin,
      payload: { event_type: "backup.success", event_data: { target_name: "s3-main", size: 1048576 } },
    });
    expect(res.statusCode).toBe(201);
    const pushed = await s.next("notification");
    expect(pushed.notification).toMatchObject({
      id: res.json().id,
      event_type: "backup.success",
      event_data: { target_name: "s3-main", size: 1048576 },
      is_read: false,
    });
    s.ws.close();
  });

  it("turns bus events of notification types into stored, pushed notifications for every user", async () => {
    const viewer = await createUser(t, `nview-${dialect}`, "viewer");
    const s = openSocket(`ws://${base}/api/v1/ws`, viewer);
    await s.opened;
    await s.next("hello");
    const before = (
      await t.app.inject({ method: "GET", url: "/api/v1/user-notifications/unread/count", headers: viewer })
    ).json().count;
    // A node going down is published on the bus by the node supervisor; here we publish it directly.
    t.bus.publish("node.downtime", { node_id: 7, node_name: "peer0", downtime_mins: 3 });
    const pushed = await s.next("notification");
    expect(pushed.notification).toMatchObject({ event_type: "node.downtime", event_data: { node_id: 7 } });
    const after = (
      await t.app.inject({ method: "GET", url: "/api/v1/user-notifications/unread/count", headers: viewer })
    ).json().count;
    expect(after).toBe(before + 1);
    s.ws.close();
  });

  it("relays bus events to sockets: to everyone, or only to the user an event is addressed to", async () => {
    const other = await createUser(t, `relay-${dialect}`, "viewer");
    const mine = openSocket(`ws://${base}/api/v1/ws`, auth());
    const theirs = openSocket(`ws://${base}/api/v1/ws`, other);
    await Promise.all([mine.opened, theirs.opened]);
    await Promise.all([mine.next("hello"), theirs.next("hello")]);
    t.bus.publish("besu.bulk_create.progress", { phase: "keys" }, { userId: 1 });
    t.bus.publish("settings.updated", { id: 1 });
    expect(((await mine.next("event")).event as { type: string }).type).toBe("besu.bulk_create.progress");
    expect(((await mine.next("event")).event as { type: string }).type).toBe("settings.updated");
    expect(((await theirs.next("event")).event as { type: string }).type).toBe("settings.updated");
    mine.ws.close();
    theirs.ws.close();
  });

  it("lists, filters, marks read/unread, marks all read and deletes, per user", async () => {
    for (const type of ["node.recovery", "backup.failure", "s3.connection.issue"]) {
      await t.app.inject({
        method: "POST",
        url: "/api/v1/user-notifications/test",
        headers: t.admin,
        payload: { event_type: type },
      });
    }
    const list = await t.app.inject({ method: "GET", url: "/api/v1/user-notifications?limit=2", headers: t.admin });
    expect(list.statusCode).toBe(200);
    const body = list.json();
    expect(body.notifications).toHaveLength(2);
    expect(body.total).toBeGreaterThanOrEqual(3);
    expect(body.notifications[0].event_type).toBe("s3.connection.issue");
    const id = body.notifications[0].id;

    expect(
      (await t.app.inject({ method: "POST", url: `/api/v1/user-notifications/${id}/read`, headers: t.admin }))
        .statusCode,
    ).toBe(200);
    const read = await t.app.inject({
      method: "GET",
      url: "/api/v1/user-notifications?is_read=true",
      headers: t.admin,
    });
    expect(read.json().notifications.map((n: { id: number }) => n.id)).toContain(id);
    await t.app.inject({ method: "POST", url: `/api/v1/user-notifications/${id}/unread`, headers: t.admin });
    const unread = await t.app.inject({
      method: "GET",
      url: "/api/v1/user-notifications?is_read=false",
      headers: t.admin,
    });
    expect(unread.json().notifications.map((n: { id: number }) => n.id)).toContain(id);

    const viewer = t.basic(`nview-${dialect}`, "password-123");
    expect(
      (await t.app.inject({ method: "POST", url: `/api/v1/user-notifications/${id}/read`, headers: viewer }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: "DELETE", url: `/api/v1/user-notifications/${id}`, headers: viewer })).statusCode,
    ).toBe(404);

    const all = await t.app.inject({ method: "POST", url: "/api/v1/user-notifications/read-all", headers: t.admin });
    expect(all.statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: "GET", url: "/api/v1/user-notifications/unread/count", headers: t.admin })).json(),
    ).toEqual({ count: 0 });
    expect(
      (await t.app.inject({ method: "DELETE", url: `/api/v1/user-notifications/${id}`, headers: t.admin })).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: "DELETE", url: `/api/v1/user-notifications/${id}`, headers: t.admin })).statusCode,
    ).toBe(404);
  });

  it("rejects an unknown event type for test notifications, naming the field", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/user-notifications/test",
      headers: t.admin,
      payload: { event_type: "nope" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^body\.event_type/);
  });
});
