import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../test-support/ports.js";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";
import { resolvePing } from "./ping.js";
import { validHost } from "./troubleshooting.probe.routes.js";

const havePing = (() => {
  try {
    resolvePing();
    return true;
  } catch (err) {
    console.warn(`skipping the ping tests: ${(err as Error).message}`);
    return false;
  }
})();

describe("validHost", () => {
  it("takes host names and IP literals only", () => {
    expect(validHost(" peer0.org1.example.com ")).toBe("peer0.org1.example.com");
    expect(validHost("[::1]")).toBe("::1");
    expect(validHost("192.0.2.1")).toBe("192.0.2.1");
    for (const bad of [
      "-c 1000 127.0.0.1",
      "-f",
      "127.0.0.1; rm -rf /",
      "$(id)",
      "`id`",
      "a..b",
      "http://x.example",
      "x.example:80",
      "fe80::1%eth0",
      "a b",
      "",
      "x".repeat(64),
    ]) {
      expect(() => validHost(bad), bad).toThrow(/^body\.host: /);
    }
  });
});

/**
 * Ping (the system ping, real ICMP) and check-port (a real TCP connect), with decision 52's rules:
 * only admins reach non-public addresses; anonymous callers, managers and viewers get a 403 naming
 * body.host; what the remote side wrote is never in an answer.
 */
describe.each(dialects())("ping and check-port on %s", (dialect) => {
  let t: TestApp;
  let viewer: Record<string, string>;
  let manager: Record<string, string>;
  let banner: Server;
  let bannerPort = 0;
  let ipSeq = 10;
  const anon = () => ({ remoteAddress: `10.8.0.${ipSeq++}` });
  const post = (url: string, payload: object | string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: "POST",
      url: `/api/v1/troubleshooting/${url}`,
      payload,
      headers: { ...headers, ...(typeof payload === "string" ? { "content-type": "application/json" } : {}) },
      ...anon(),
    });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    viewer = await createUser(t, "probe-viewer", "viewer");
    manager = await createUser(t, "probe-manager", "manager");
    // A service that greets with text only its host should see.
    banner = createServer((s) => {
      // The checker closes at once; the reset it leaves is expected.
      s.on("error", () => undefined);
      s.end("SECRET-BANNER 220 internal\r\n");
    });
    await new Promise<void>((resolve) => banner.listen(0, "127.0.0.1", resolve));
    bannerPort = (banner.address() as AddressInfo).port;
  }, 60_000);
  afterAll(async () => {
    banner?.close();
    await t?.close();
  });

  it.skipIf(!havePing)("an admin pings loopback and a name; the answer is counts and times", async () => {
    const res = await post("ping", { host: "127.0.0.1", count: 2, timeout: 1 }, t.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      host: "127.0.0.1",
      resolved_ip: "127.0.0.1",
      packets_sent: 2,
      packets_recv: 2,
      packet_loss: 0,
      reachable: true,
    });
    expect(res.json().error).toBeUndefined();
    const named = await post("ping", { host: "localhost", count: 1, timeout: 1 }, t.admin);
    expect(named.json()).toMatchObject({ host: "localhost", reachable: true, packets_recv: 1 });
    expect(["127.0.0.1", "::1"]).toContain(named.json().resolved_ip);
    const v6 = await post("ping", { host: "[::1]", count: 1, timeout: 1 }, t.admin);
    expect(v6.json()).toMatchObject({ resolved_ip: "::1", reachable: true });
  });

  it.skipIf(!havePing)("names the failure in its own words and never repeats what came back", async () => {
    // TEST-NET-2: nothing answers; a router may send an ICMP error, whose source is not passed on.
    const res = await post("ping", { host: "198.51.100.7", count: 1, timeout: 1 }, t.admin);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ host: "198.51.100.7", reachable: false, packets_recv: 0, packet_loss: 100 });
    expect(body.error).toMatch(/^(no reply within 1 s|destination unreachable|network unreachable)/);
    expect(res.body).not.toMatch(/From |icmp_seq|ttl=/);
    const unresolved = await post("ping", { host: "no-such-host.invalid", count: 1, timeout: 1 }, t.admin);
    expect(unresolved.json()).toMatchObject({
      reachable: false,
      error: "no-such-host.invalid did not resolve to an address",
    });
  });

  it.skipIf(!havePing)("anonymous callers, managers and viewers may only ping public addresses", async () => {
    for (const [who, headers] of [
      ["anonymous", {}],
      ["viewer", viewer],
      ["manager", manager],
    ] as const) {
      for (const host of ["127.0.0.1", "localhost", "10.1.2.3", "::ffff:127.0.0.1"]) {
        const res = await post("ping", { host, count: 1, timeout: 1 }, headers);
        expect(res.statusCode, `${who} ${host}`).toBe(403);
        expect(res.json().message).toMatch(/^body\.host: .* only an admin may reach/);
      }
    }
    // A public address is pinged for them (nothing answers in TEST-NET-2).
    const pub = await post("ping", { host: "198.51.100.7", count: 1, timeout: 1 });
    expect(pub.statusCode, pub.body).toBe(200);
    expect(pub.json()).toMatchObject({ resolved_ip: "198.51.100.7", reachable: false, packets_sent: 1 });
  });

  it("refuses bad input by field, and reads Go's empty body and zero values", async () => {
    for (const host of ["-c 1000 127.0.0.1", "127.0.0.1; id", "$(id)"]) {
      const res = await post("ping", { host }, t.admin);
      expect(res.statusCode, host).toBe(400);
      expect(res.json().message).toMatch(/^body\.host: /);
    }
    const count = await post("ping", { host: "127.0.0.1", count: 11 }, t.admin);
    expect(count.statusCode).toBe(400);
    expect(count.json().message).toMatch(/count/);
    const timeout = await post("ping", { host: "127.0.0.1", timeout: 60 }, t.admin);
    expect(timeout.statusCode).toBe(400);
    expect(timeout.json().message).toMatch(/timeout/);
    const empty = await post("ping", "", t.admin);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/^body\.host: required/);
    const emptyPort = await post("check-port", "", t.admin);
    expect(emptyPort.statusCode).toBe(400);
    expect(emptyPort.json().message).toMatch(/^body\.host: required/);
    for (const port of [0, 70000]) {
      const res = await post("check-port", { host: "127.0.0.1", port }, t.admin);
      expect(res.statusCode, String(port)).toBe(400);
      expect(res.json().message).toMatch(/port/);
    }
    if (havePing) {
      const go = await post("ping", { host: "127.0.0.1", count: 0, timeout: 0, extra: null }, t.admin);
      expect(go.statusCode, go.body).toBe(200);
      expect(go.json()).toMatchObject({ packets_sent: 4, packets_recv: 4 });
    }
  });

  it("check-port: open, refused; the greeting is never read back", async () => {
    const open = await post("check-port", { host: "127.0.0.1", port: bannerPort, timeout: 2 }, t.admin);
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json()).toEqual({ host: "127.0.0.1", port: bannerPort, open: true, reachable: true });
    expect(open.body).not.toMatch(/SECRET-BANNER/);
    const closedPort = await freePort();
    const closed = await post("check-port", { host: "localhost", port: closedPort, timeout: 0 }, t.admin);
    expect(closed.json()).toMatchObject({ host: "localhost", port: closedPort, open: false, reachable: true });
    expect(closed.json().error).toMatch(/^connection refused/);
    const unresolved = await post("check-port", { host: "no-such-host.invalid", port: 80 }, t.admin);
    expect(unresolved.json()).toMatchObject({ open: false, reachable: false });
  });

  it("check-port: only admins reach loopback; others get a 403 naming body.host; both tools are audited", async () => {
    for (const headers of [{}, viewer, manager]) {
      const res = await post("check-port", { host: "127.0.0.1", port: bannerPort }, headers);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/^body\.host: /);
    }
    const rows = await t.database.db
      .selectFrom("audit_logs")
      .select(["event_type", "affected_resource"])
      .where("event_type", "in", ["troubleshooting.ping", "troubleshooting.check_port"])
      .execute();
    expect(rows).toContainEqual({ event_type: "troubleshooting.check_port", affected_resource: "host:127.0.0.1" });
    if (havePing)
      expect(rows).toContainEqual({ event_type: "troubleshooting.ping", affected_resource: "host:127.0.0.1" });
  });

  it("a cross-site page can't use them", async () => {
    const res = await post("check-port", { host: "192.0.2.1", port: 80 }, { "sec-fetch-site": "cross-site" });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/cross-site/);
  });
});
