import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";
import type * as PasswordModule from "./password.js";

/**
 * Counts the real scrypt checks: the product's own function runs, the count says how many
 * passwords the console actually evaluated (what a limiter exists to bound).
 */
const scryptChecks = vi.hoisted(() => ({ count: 0 }));
vi.mock("./password.js", async (importOriginal) => {
  const real = await importOriginal<typeof PasswordModule>();
  return {
    ...real,
    verifyPassword: async (password: string, stored: string): Promise<boolean> => {
      scryptChecks.count++;
      return real.verifyPassword(password, stored);
    },
  };
});

const LIMIT = 10;
const BURST = 100;

/**
 * Issue 29, item 7: parallel wrong passwords raced the login limiter (45 of 100 evaluated where the
 * limit is 10). Each burst is 100 real HTTP requests in flight at once against a listening app, for a
 * manager's account: at most LIMIT are evaluated (401, and at most LIMIT scrypt checks), the rest
 * answer 429. The same for HTTP Basic on an API route. A manager's API key is not a password and
 * has no limiter (it is a 256-bit random secret looked up by hash), so there is no API-key variant.
 */
describe.each(dialects())("login limiter under parallel requests on %s", (dialect) => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp(dialect, { CHAINLAUNCH_LOGIN_MAX_ATTEMPTS: String(LIMIT) });
    for (const name of ["burst-login", "burst-basic", "burst-good"]) await createUser(t, name, "manager");
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => t.close());
  beforeEach(() => {
    scryptChecks.count = 0;
  });

  const tally = (codes: number[]): Record<number, number> =>
    codes.reduce<Record<number, number>>((acc, c) => ({ ...acc, [c]: (acc[c] ?? 0) + 1 }), {});

  it(`evaluates at most ${LIMIT} of ${BURST} parallel wrong-password logins`, async () => {
    const codes = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        fetch(`${base}/api/v1/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ username: "burst-login", password: `wrong-password-${i}` }),
        }).then((r) => r.status),
      ),
    );
    const counts = tally(codes);
    expect(Object.keys(counts).sort(), JSON.stringify(counts)).toEqual(["401", "429"]);
    expect(counts[401]).toBeLessThanOrEqual(LIMIT);
    expect(counts[429]).toBeGreaterThanOrEqual(BURST - LIMIT);
    expect(scryptChecks.count).toBeLessThanOrEqual(LIMIT);
    // Every refusal is audited as a failed login, evaluated or not.
    const logs = await t.app.inject({
      method: "GET",
      url: "/api/v1/audit/logs?event_type=auth.login&event_outcome=failure&page_size=200",
      headers: t.admin,
    });
    const mine = (logs.json().items as { affectedResource: string }[]).filter(
      (e) => e.affectedResource === "user:burst-login",
    );
    expect(mine.length).toBe(BURST);
  });

  it(`evaluates at most ${LIMIT} of ${BURST} parallel wrong HTTP Basic passwords on an API route`, async () => {
    const basic = (p: string): string => `Basic ${Buffer.from(`burst-basic:${p}`).toString("base64")}`;
    const codes = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        fetch(`${base}/api/v1/nodes`, { headers: { authorization: basic(`wrong-password-${i}`) } }).then(
          (r) => r.status,
        ),
      ),
    );
    const counts = tally(codes);
    expect(Object.keys(counts).sort(), JSON.stringify(counts)).toEqual(["401", "429"]);
    expect(counts[401]).toBeLessThanOrEqual(LIMIT);
    expect(scryptChecks.count).toBeLessThanOrEqual(LIMIT);
  });

  it("still lets parallel correct passwords through: attempts wait for a place instead of being refused", async () => {
    const good = `Basic ${Buffer.from("burst-good:password-123").toString("base64")}`;
    const codes = await Promise.all(
      Array.from({ length: 3 * LIMIT }, () =>
        fetch(`${base}/api/v1/nodes`, { headers: { authorization: good } }).then((r) => r.status),
      ),
    );
    expect(tally(codes)).toEqual({ 200: 3 * LIMIT });
    const logins = await Promise.all(
      Array.from({ length: 2 * LIMIT }, () =>
        fetch(`${base}/api/v1/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ username: "burst-good", password: "password-123" }),
        }).then((r) => r.status),
      ),
    );
    expect(tally(logins)).toEqual({ 200: 2 * LIMIT });
  });
});
