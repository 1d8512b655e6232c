import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";

type Item = { id: number; event_type: string; event_data: object; created_at: string; is_read: boolean };

/** Upstream's unread list, list by type and read-all by type, on the same per-user inbox. */
describe.each(dialects())("unread and per-type notifications on %s", (dialect) => {
  let t: TestApp;
  let viewer: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    viewer = await createUser(t, `views-viewer-${dialect}`, "viewer");
  });
  afterAll(async () => t.close());

  const get = (url: string, headers: Record<string, string> = t.admin) =>
    t.app.inject({ method: "GET", url: `/api/v1/user-notifications${url}`, headers });
  /** As upstream's Go client sends a body-less POST: no body, Content-Type: application/json. */
  const post = (url: string, headers: Record<string, string> = t.admin) =>
    t.app.inject({
      method: "POST",
      url: `/api/v1/user-notifications${url}`,
      headers: { ...headers, "content-type": "application/json", "content-length": "0" },
    });
  const send = async (eventType: string, data: object = {}): Promise<number> => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/user-notifications/test",
      headers: t.admin,
      payload: { event_type: eventType, event_data: data },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  const unreadCount = async (headers: Record<string, string> = t.admin): Promise<number> =>
    (await get("/unread/count", headers)).json().count as number;

  let ids: Record<string, number> = {};
  it("lists only unread notifications, newest first, in upstream's {message, data} envelope, paged", async () => {
    ids = {
      first: await send("backup.success", { target_name: "s3-a" }),
      recovery: await send("node.recovery", { node_id: 3 }),
      second: await send("backup.success", { target_name: "s3-b" }),
      read: await send("backup.failure"),
    };
    expect((await post(`/${ids.read}/read`)).statusCode).toBe(200);

    const res = await get("/unread");
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { message: string; data: Item[] };
    expect(Object.keys(body).sort()).toEqual(["data", "message"]);
    expect(body.message).toBe("3 unread notifications");
    expect(body.data.map((n) => n.id)).toEqual([ids.second, ids.recovery, ids.first]);
    expect(body.data.every((n) => !n.is_read)).toBe(true);
    expect(body.data[0]).toMatchObject({ event_type: "backup.success", event_data: { target_name: "s3-b" } });
    expect(Object.keys(body.data[0]!).sort()).toEqual(["created_at", "event_data", "event_type", "id", "is_read"]);

    const page = (await get("/unread?limit=1&offset=1")).json() as { data: Item[] };
    expect(page.data.map((n) => n.id)).toEqual([ids.recovery]);
  });

  it("lists one event type, and nothing (200) for a well-formed type no notification has", async () => {
    const res = await get("/type/backup.success");
    expect(res.statusCode).toBe(200);
    expect((res.json().data as Item[]).map((n) => n.id)).toEqual([ids.second, ids.first]);
    expect(res.json().message).toBe("2 backup.success notifications");
    // Read ones too: the type filter is not an unread filter.
    expect((await get("/type/backup.failure")).json().data.map((n: Item) => n.id)).toEqual([ids.read]);
    for (const type of ["peer.lagging", "never.sent", "raft.no_leader", "nothing-here"]) {
      const none = await get(`/type/${type}`);
      expect(none.statusCode, type).toBe(200);
      expect(none.json().data, type).toEqual([]);
    }
    expect((await get("/type/backup.success?limit=1")).json().data.map((n: Item) => n.id)).toEqual([ids.second]);
  });

  it.each([
    ["upper case", "NODE.DOWNTIME"],
    ["a space", "node%20downtime"],
    ["an empty segment", "node..downtime"],
    ["a trailing dot", "node."],
    ["a symbol", "node.down%24time"],
    ["65 characters", "a".repeat(65)],
  ])("refuses a malformed type (%s) with a 400 naming eventType, on every call", async (_label, type) => {
    const before = await unreadCount();
    for (const res of [await get(`/type/${type}`), await post(`/type/${type}/read-all`)]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ error: "INVALID_INPUT" });
      expect(res.json().message).toMatch(/^params\.eventType/);
    }
    expect(await unreadCount()).toBe(before);
  });

  it.each([
    ["/unread?limit=0", /^querystring\.limit/],
    ["/unread?limit=101", /^querystring\.limit/],
    ["/unread?offset=-1", /^querystring\.offset/],
    ["/unread?is_read=true", /^querystring\.is_read/],
    ["/type/backup.success?limit=abc", /^querystring\.limit/],
  ])("refuses the query %s with a 400 naming the parameter", async (url, message) => {
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
  });

  it("marks all unread notifications of one type read (empty JSON body), leaves the others, and audits it", async () => {
    const before = await unreadCount();
    const res = await post("/type/backup.success/read-all");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: "2 backup.success notifications marked as read",
      data: { event_type: "backup.success", updated: 2 },
    });
    expect(await unreadCount()).toBe(before - 2);
    expect((await get("/type/backup.success")).json().data.every((n: Item) => n.is_read)).toBe(true);
    expect((await get("/unread")).json().data.map((n: Item) => n.id)).toEqual([ids.recovery]);

    // Again, or for a type nobody was sent: nothing changes, still a 200.
    expect((await post("/type/backup.success/read-all")).json().data).toEqual({
      event_type: "backup.success",
      updated: 0,
    });
    expect((await post("/type/never.sent/read-all")).json().data).toEqual({ event_type: "never.sent", updated: 0 });
    expect(await unreadCount()).toBe(before - 2);

    const audit = await t.app.inject({
      method: "GET",
      url: "/api/v1/audit/logs?event_type=notification.read_all&page_size=50",
      headers: t.admin,
    });
    const details = (audit.json().items as { eventOutcome: string; details: Record<string, unknown> }[]).map(
      (e) => e.details,
    );
    expect(details).toContainEqual(expect.objectContaining({ event_type: "backup.success", updated: 2 }));
  });

  it("keeps inboxes apart: a viewer reads and marks only their own, and anonymous callers get 401", async () => {
    // A node event goes to every user's inbox.
    t.bus.publish("node.downtime", { node_id: 9, node_name: "peer9", downtime_mins: 1 });
    const deadline = Date.now() + 10_000;
    while ((await unreadCount(viewer)) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    while ((await get("/type/node.downtime")).json().data.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const mine = (await get("/unread", viewer)).json().data as Item[];
    expect(mine.map((n) => n.event_type)).toEqual(["node.downtime"]);
    expect((await get("/type/backup.success", viewer)).json().data).toEqual([]);

    const adminBefore = await unreadCount();
    const read = await post("/type/node.downtime/read-all", viewer);
    expect(read.statusCode).toBe(200);
    expect(read.json().data.updated).toBe(1);
    expect(await unreadCount(viewer)).toBe(0);
    expect(await unreadCount()).toBe(adminBefore);
    expect((await get("/type/node.downtime")).json().data[0].is_read).toBe(false);

    for (const res of [
      await get("/unread", {}),
      await get("/type/node.downtime", {}),
      await post("/type/node.downtime/read-all", {}),
    ]) {
      expect(res.statusCode).toBe(401);
    }
  });
});
