import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditRowOf, managerCallers, type Caller } from "../../test-support/callers.js";
import { freePort } from "../../test-support/ports.js";
import { createTestApp, dialects, type TestApp } from "../../test-support/test-app.js";
import { testConnection } from "./connection-test.js";
import { checkedPublicAddress, nonPublicKind, NotPublicError, pinnedLookup } from "./public-address.js";

/**
 * The public test-connection tool as a port scanner: an anonymous caller asked it about loopback
 * ports and learned which were open. Anonymous callers may now only reach public addresses (names
 * resolved first, every address checked, the connection made to the checked one); loopback,
 * link-local, private and unspecified targets are a 403 naming body.endpoint, audited, and an open
 * port answers exactly like a closed one. Signed-in users (a manager session, a manager API key) may.
 */
describe("public addresses", () => {
  it("classifies loopback, link-local, private and unspecified addresses, IPv4-mapped ones too", () => {
    const refused = [
      "127.0.0.1",
      "127.255.0.9",
      "0.0.0.0",
      "10.0.0.1",
      "172.16.5.4",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "::",
      "::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "::ffff:7f00:1",
      "::FFFF:a9fe:a9fe",
      "fe80::1",
      "fd12:3456::1",
      "fc00::1",
    ];
    for (const a of refused) expect(nonPublicKind(a), a).toBeDefined();
    for (const a of ["192.0.2.1", "8.8.8.8", "172.32.0.1", "2001:db8::1", "::ffff:8.8.8.8", "::ffff:808:808"]) {
      expect(nonPublicKind(a), a).toBeUndefined();
    }
  });

  it("refuses a name when any of its addresses is not public, and pins the one it checked", async () => {
    const resolver = (answers: string[]) => async () =>
      answers.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    await expect(checkedPublicAddress("mixed.example", resolver(["192.0.2.7", "10.0.0.8"]))).rejects.toThrow(
      NotPublicError,
    );
    await expect(checkedPublicAddress("v6.example", resolver(["2001:db8::1", "::1"]))).rejects.toThrow(
      /resolves to a unspecified or loopback/,
    );
    await expect(checkedPublicAddress("ok.example", resolver(["192.0.2.7", "2001:db8::2"]))).resolves.toEqual({
      address: "192.0.2.7",
      family: 4,
    });
    await expect(checkedPublicAddress("localhost")).rejects.toThrow(/^localhost resolves to a/);
  });

  it("connects to the pinned address, whatever the name would resolve to later", async () => {
    const server = createHttpServer((_req, res) => res.end("ok"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    try {
      // .invalid never resolves (RFC 6761): success proves the connection used the pinned address.
      const lookup = pinnedLookup({ address: "127.0.0.1", family: 4 });
      const pinned = await testConnection({
        endpoint: `pinned.invalid:${port}`,
        protocol: "tcp",
        timeoutMs: 3000,
        lookup,
      });
      expect(pinned).toMatchObject({ success: true });
      const unpinned = await testConnection({ endpoint: `pinned.invalid:${port}`, protocol: "tcp", timeoutMs: 3000 });
      expect(unpinned).toMatchObject({ success: false, error: expect.stringMatching(/does not resolve/) });
      const http = await testConnection({
        endpoint: `http://pinned.invalid:${port}/`,
        protocol: "http",
        timeoutMs: 3000,
        lookup,
      });
      expect(http).toMatchObject({ success: true, status_code: 200 });
    } finally {
      server.close();
    }
  });
});

describe.each(dialects())("anonymous test-connection (%s)", (dialect) => {
  let t: TestApp;
  let callers: Caller[];
  let open: HttpServer;
  let openPort = 0;
  let closedPort = 0;
  let ip = 1;
  const anon = () => ({ remoteAddress: `10.77.0.${ip++}` });

  beforeAll(async () => {
    open = createHttpServer((_req, res) => res.end("internal admin page"));
    await new Promise<void>((r) => open.listen(0, "127.0.0.1", r));
    openPort = (open.address() as AddressInfo).port;
    closedPort = await freePort(); // reserved, and nothing listens on it
    t = await createTestApp(dialect);
    callers = await managerCallers(t);
  });
  afterAll(async () => {
    open?.close();
    await t?.close();
  });

  const probe = (payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: "POST",
      url: "/api/v1/troubleshooting/test-connection",
      payload,
      headers,
      ...anon(),
    });

  it("refuses loopback, link-local, private and unspecified targets with a 403 naming body.endpoint, audited", async () => {
    const targets: [string, string][] = [
      [`127.0.0.1:${openPort}`, "tcp"],
      [`localhost:${openPort}`, "tcp"],
      [`[::1]:${openPort}`, "tcp"],
      [`[::ffff:127.0.0.1]:${openPort}`, "tcp"],
      [`0.0.0.0:${openPort}`, "tcp"],
      [`http://localhost:${openPort}/`, "http"],
      [`127.0.0.1:${openPort}`, "grpc"],
      [`localhost:${openPort}`, "tls"],
      ["169.254.169.254:80", "http"],
      ["10.0.0.1:22", "tcp"],
      ["172.16.0.1:5432", "tcp"],
      ["192.168.0.1:80", "tcp"],
      ["[fd00::1]:80", "tcp"],
      ["[fe80::1]:80", "tcp"],
    ];
    for (const [endpoint, protocol] of targets) {
      const res = await probe({ endpoint, protocol, timeout: 2 });
      expect(res.statusCode, `${endpoint} ${protocol}: ${res.body}`).toBe(403);
      expect(res.json().message).toMatch(
        /^body\.endpoint: .* (is|resolves to) a .*address; anonymous callers may only test public/,
      );
      expect(res.json().details).toEqual({ field: "body.endpoint" });
      expect(res.body).not.toContain("success");
      expect(await auditRowOf(t, res)).toMatchObject({
        type: "troubleshooting.test_connection",
        outcome: "FAILURE",
        username: null,
      });
    }
  });

  it("answers an open and a closed loopback port alike, so nothing is learned", async () => {
    const strip = (r: { statusCode: number; json(): { message: string } }) => ({
      status: r.statusCode,
      message: r.json().message.replace(/:\d+/, ":PORT"),
    });
    const a = await probe({ endpoint: `127.0.0.1:${openPort}`, protocol: "tcp" });
    const b = await probe({ endpoint: `127.0.0.1:${closedPort}`, protocol: "tcp" });
    expect(strip(a)).toEqual(strip(b));
  });

  it("still tests a public address for anonymous callers (reachability only)", async () => {
    // TEST-NET-1 (RFC 5737): public by the rule, routed nowhere.
    const res = await probe({ endpoint: "192.0.2.1:9", protocol: "tcp", timeout: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: false, error: "not reachable or not verified" });
    const nowhere = await probe({ endpoint: "no-such-host.invalid:443", protocol: "tcp", timeout: 1 });
    expect(nowhere.statusCode, nowhere.body).toBe(200);
    expect(nowhere.json()).toMatchObject({ success: false, error: "not reachable or not verified" });
  });

  it("lets signed-in users test loopback: a manager session and a manager API key", async () => {
    for (const c of callers) {
      const res = await probe({ endpoint: `http://127.0.0.1:${openPort}/`, protocol: "http" }, c.headers);
      expect(res.statusCode, `${c.label}: ${res.body}`).toBe(200);
      expect(res.json()).toMatchObject({ success: true, status_code: 200 });
      // Headers and status, never the page itself.
      expect(res.body).not.toContain("internal admin page");
    }
  });
});
