import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { WS_CLOSE_SIGNED_OUT } from "../../events/ws-hub.js";
import { ADMIN_PASSWORD, createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";
import { openSocket as connect } from "../../test-support/ws.js";

const within = <T>(p: Promise<T>, ms = 5000): Promise<T> =>
  Promise.race([p, new Promise<T>((_r, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms))]);

describe.each(dialects())("websockets end with the credentials that opened them on %s", (dialect) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const addr = t.app.server.address();
    base = `127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
  });
  afterAll(async () => t.close());

  const origin = () => `http://${base}`;
  const login = async (username: string, password: string): Promise<string> => {
    const res = await t.app.inject({ method: "POST", url: "/api/v1/auth/login", payload: { username, password } });
    expect(res.statusCode, res.body).toBe(200);
    return /session_id=[^;]+/.exec([res.headers["set-cookie"]].flat().join(";"))![0];
  };
  const socket = async (cookie: string) => {
    const s = connect(`ws://${base}/api/v1/ws`, { cookie, origin: origin() });
    await within(s.opened);
    return s;
  };
  const post = (url: string, cookie: string, payload?: object) =>
    t.app.inject({
      method: "POST",
      url,
      headers: { cookie, origin: origin(), host: base },
      ...(payload ? { payload } : {}),
    });

  it("closes on logout (that session's socket only)", async () => {
    await createUser(t, "ws-logout", "viewer", "password-123");
    const [c1, c2] = [await login("ws-logout", "password-123"), await login("ws-logout", "password-123")];
    const [s1, s2] = [await socket(c1), await socket(c2)];
    expect((await post("/api/v1/auth/logout", c1)).statusCode).toBe(200);
    expect(await within(s1.closed)).toMatchObject({ code: WS_CLOSE_SIGNED_OUT, reason: "signed out" });
    expect(s2.ws.readyState).toBe(WebSocket.OPEN);
    s2.ws.close();
  });

  it("closes the other sessions' sockets on a password change", async () => {
    await createUser(t, "ws-password", "viewer", "password-123");
    const [c1, c2] = [await login("ws-password", "password-123"), await login("ws-password", "password-123")];
    const [s1, s2] = [await socket(c1), await socket(c2)];
    const res = await post("/api/v1/auth/change-password", c1, {
      current_password: "password-123",
      new_password: "password-456",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await within(s2.closed)).toMatchObject({ code: WS_CLOSE_SIGNED_OUT, reason: "password changed" });
    expect(s1.ws.readyState).toBe(WebSocket.OPEN);
    s1.ws.close();
  });

  it("closes on a role change and on deletion of the user", async () => {
    const { id } = (
      await t.app.inject({
        method: "POST",
        url: "/api/v1/users",
        headers: t.admin,
        payload: { username: "ws-role", password: "password-123", role: "manager" },
      })
    ).json();
    const s = await socket(await login("ws-role", "password-123"));
    await t.app.inject({ method: "PUT", url: `/api/v1/users/${id}`, headers: t.admin, payload: { role: "viewer" } });
    expect(await within(s.closed)).toMatchObject({ code: WS_CLOSE_SIGNED_OUT, reason: "role changed" });
    const again = await socket(await login("ws-role", "password-123"));
    expect((await t.app.inject({ method: "DELETE", url: `/api/v1/users/${id}`, headers: t.admin })).statusCode).toBe(
      204,
    );
    expect(await within(again.closed)).toMatchObject({ code: WS_CLOSE_SIGNED_OUT, reason: "account deleted" });
  });

  it("refuses an upgrade from another site's page, and accepts clients that send no Origin", async () => {
    const cookie = await login("admin", ADMIN_PASSWORD);
    const foreign = connect(`ws://${base}/api/v1/ws`, { cookie, origin: "https://evil.example" });
    await expect(within(foreign.opened)).rejects.toThrow(/403/);
    const cli = connect(`ws://${base}/api/v1/ws`, t.admin);
    await within(cli.opened);
    cli.ws.close();
  });
});
