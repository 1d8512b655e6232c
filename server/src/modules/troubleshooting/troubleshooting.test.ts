import { mkdtemp, rm } from "node:fs/promises";
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer as createTlsServer } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { opensslIn } from "../../test-support/openssl.js";
import { freePort } from "../../test-support/ports.js";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";

/** A TLS CA, a second unrelated CA and a server certificate for localhost, made by the openssl CLI. */
async function tlsMaterial(dir: string) {
  const o = opensslIn(dir);
  for (const name of ["ca", "other"]) {
    await o.selfSignedCa(name, `/O=${name}/CN=tlsca.${name}.example.com`, { days: "30", keyUsage: "keyCertSign" });
  }
  await o.issue("srv", "/CN=localhost", "ca", "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
  return {
    ca: await o.read("ca.pem"),
    other: await o.read("other.pem"),
    cert: await o.read("srv.pem"),
    key: await o.read("srv.key"),
  };
}

function listen(s: {
  listen(port: number, host: string, cb: () => void): unknown;
  address(): unknown;
}): Promise<number> {
  return new Promise((resolve) => s.listen(0, "127.0.0.1", () => resolve((s.address() as AddressInfo).port)));
}

describe.each(dialects())("troubleshooting tools on %s", (dialect) => {
  let t: TestApp;
  let dir: string;
  let tls: Awaited<ReturnType<typeof tlsMaterial>>;
  const servers: { close(): unknown }[] = [];
  let tlsPort = 0;
  let httpPort = 0;
  let viewer: Record<string, string>;
  // Each test calls as its own client address, so the anonymous rate limit of one does not reach another.
  let ipSeq = 10;
  const anon = () => ({ remoteAddress: `10.9.0.${ipSeq++}` });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    viewer = await createUser(t, "trouble-viewer", "viewer");
    dir = await mkdtemp(join(tmpdir(), "cl-trouble-"));
    tls = await tlsMaterial(dir);
    const ts = createTlsServer({ cert: tls.cert, key: tls.key }, (s) => s.end());
    tlsPort = await listen(ts);
    const hs: Server = createHttpServer((req, res) => {
      res.setHeader("server", "probe-test");
      res.end(req.url === "/ip" ? "203.0.113.7\n" : "ok");
    });
    httpPort = await listen(hs);
    servers.push(ts, hs);
  }, 60_000);
  afterAll(async () => {
    for (const s of servers) s.close();
    await rm(dir, { recursive: true, force: true });
    await t.close();
  });

  const post = (url: string, payload: object, headers: Record<string, string> = {}, ip = anon()) =>
    t.app.inject({ method: "POST", url: `/api/v1/troubleshooting/${url}`, payload, headers, ...ip });

  it("tcp: a listening port answers; a closed port fails fast, well within the timeout", async () => {
    const ok = await post("test-connection", { endpoint: `127.0.0.1:${httpPort}`, protocol: "tcp" }, viewer);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ success: true, protocol: "tcp" });
    const port = await freePort(); // reserved, and nothing listens on it
    const started = Date.now();
    const closed = await post(
      "test-connection",
      { endpoint: `127.0.0.1:${port}`, protocol: "tcp", timeout: 5 },
      viewer,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(closed.json()).toMatchObject({ success: false, error: expect.stringMatching(/connection refused/) });
  });

  it("tls: reports version, cipher, chain and expiry; verifies against the CA given, and explains a wrong CA", async () => {
    const good = await post(
      "test-connection",
      { endpoint: `localhost:${tlsPort}`, protocol: "tls", ca_cert: tls.ca },
      t.admin,
    );
    const g = good.json();
    expect(g.success, good.body).toBe(true);
    expect(g.tls_info).toMatchObject({
      version: expect.stringMatching(/^TLSv1\.[23]$/),
      certificate_valid: true,
      server_name: "localhost",
      issuer: expect.stringContaining("tlsca.ca.example.com"),
      verified_against: "the CA given",
    });
    expect(Date.parse(g.tls_info.cert_expiry)).toBeGreaterThan(Date.now());
    expect(g.tls_info.cipher_suite).not.toBe("");
    const wrong = await post(
      "test-connection",
      { endpoint: `localhost:${tlsPort}`, protocol: "tls", ca_cert: tls.other },
      t.admin,
    );
    const w = wrong.json();
    expect(w.success).toBe(false);
    expect(w.tls_info.certificate_valid).toBe(false);
    expect(w.error).toMatch(/^TLS verification failed: .*does not chain to the CA given/);
    const name = await post(
      "test-connection",
      { endpoint: `localhost:${tlsPort}`, protocol: "tls", ca_cert: tls.ca, server_name: "peer0.org1" },
      t.admin,
    );
    expect(name.json().error).toMatch(/no SAN for peer0\.org1/);
  });

  it("http: status and a few headers for signed-in callers; anonymous callers may not probe loopback", async () => {
    const signed = await post(
      "test-connection",
      { endpoint: `http://127.0.0.1:${httpPort}/x`, protocol: "http" },
      t.admin,
    );
    expect(signed.json()).toMatchObject({ success: true, status_code: 200, details: { server: "probe-test" } });
    const a = await post("test-connection", { endpoint: `localhost:${tlsPort}`, protocol: "tls", ca_cert: tls.ca });
    expect(a.statusCode).toBe(403);
    expect(a.json().message).toMatch(/^body\.endpoint: localhost resolves to a .*loopback/);
    // A public address gets reachability only (troubleshooting.security.test.ts has the rest).
    const pub = await post("test-connection", { endpoint: "192.0.2.1:9", protocol: "tcp", timeout: 1 });
    expect(Object.keys(pub.json()).sort()).toEqual(["endpoint", "error", "protocol", "response_time_ms", "success"]);
    const hdr = await post("test-connection", {
      endpoint: `http://127.0.0.1:${httpPort}/`,
      protocol: "http",
      headers: { "x-a": "b" },
    });
    expect(hdr.statusCode).toBe(400);
    expect(hdr.json().message).toMatch(/^body\.headers: /);
  });

  it("bad input names the field", async () => {
    const cases: [object, RegExp][] = [
      [{ endpoint: "no-port", protocol: "grpcs" }, /body\.endpoint/],
      [{ endpoint: "a:1", protocol: "ftp" }, /protocol/],
      [{ endpoint: "a:1", protocol: "tcp", timeout: 100 }, /timeout/],
      [{ protocol: "tcp" }, /endpoint/],
    ];
    for (const [body, msg] of cases) {
      const r = await post("test-connection", body, t.admin);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json().message).toMatch(msg);
    }
    const cert = await post("validate-certificate", { certificate: "nope" }, t.admin);
    expect(cert.statusCode).toBe(400);
    expect(cert.json().message).toMatch(/^body\.certificate: no PEM certificate/);
  });

  it("validate-certificate over HTTP, anonymous", async () => {
    const r = await post("validate-certificate", { certificate: tls.cert, root_ca: tls.ca, dns_names: ["localhost"] });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({
      valid: true,
      dns_names: ["localhost"],
      ip_addresses: ["127.0.0.1"],
      is_ca: false,
    });
  });

  it("anonymous calls are rate-limited per client IP (429 with Retry-After); another IP is not affected", async () => {
    const ip = anon();
    const codes: number[] = [];
    for (let i = 0; i < 21; i++) {
      codes.push((await post("validate-certificate", { certificate: tls.ca }, {}, ip)).statusCode);
    }
    expect(codes.slice(0, 20).every((c) => c === 200)).toBe(true);
    const last = await post("validate-certificate", { certificate: tls.ca }, {}, ip);
    expect(last.statusCode).toBe(429);
    expect(Number(last.headers["retry-after"])).toBeGreaterThan(0);
    expect((await post("validate-certificate", { certificate: tls.ca })).statusCode).toBe(200);
  });

  it("a cross-site page can't use it, and no answer carries CORS headers", async () => {
    const cross = await post("validate-certificate", { certificate: tls.ca }, { "sec-fetch-site": "cross-site" });
    expect(cross.statusCode).toBe(403);
    const foreign = await post("validate-certificate", { certificate: tls.ca }, { origin: "https://evil.example" });
    expect(foreign.statusCode).toBe(403);
    const form = await t.app.inject({
      method: "POST",
      url: "/api/v1/troubleshooting/test-connection",
      payload: "endpoint=127.0.0.1:1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      ...anon(),
    });
    expect(form.statusCode).toBe(415);
    const pre = await t.app.inject({
      method: "OPTIONS",
      url: "/api/v1/troubleshooting/test-connection",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
      ...anon(),
    });
    expect(pre.headers["access-control-allow-origin"]).toBeUndefined();
    const ok = await post("validate-certificate", { certificate: tls.ca }, { origin: "https://evil.example" });
    expect(ok.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("public-ip: interfaces by default, the configured address, a lookup service, and a failing lookup is a clear 502", async () => {
    const get = () => t.app.inject({ method: "GET", url: "/api/v1/troubleshooting/public-ip", ...anon() });
    const setConfig = async (patch: Record<string, unknown>) => {
      const cur = (await t.app.inject({ method: "GET", url: "/api/v1/settings", headers: t.admin })).json().config;
      const r = await t.app.inject({
        method: "POST",
        url: "/api/v1/settings",
        headers: t.admin,
        payload: { config: { ...cur, ...patch } },
      });
      expect(r.statusCode, r.body).toBe(200);
    };
    const d = (await get()).json();
    expect(d.source).toBe("interface");
    expect(d.ip).not.toBe("");
    await setConfig({ publicIpLookupUrl: `http://127.0.0.1:${httpPort}/ip` });
    expect((await get()).json()).toMatchObject({ ip: "203.0.113.7", source: "lookup" });
    await setConfig({ publicIpLookupUrl: `http://127.0.0.1:${await freePort()}/ip` });
    const failed = await get();
    expect(failed.statusCode).toBe(502);
    expect(failed.json().message).toMatch(/^the public IP lookup service http:\/\/127\.0\.0\.1:\d+\/ip failed/);
    await setConfig({ defaultNodeExposeIP: "198.51.100.4" });
    expect((await get()).json()).toMatchObject({ ip: "198.51.100.4", source: "settings" });
    await setConfig({ defaultNodeExposeIP: "", publicIpLookupUrl: "" });
  });

  it("with troubleshootingRequireAuth on, anonymous callers get 401 and signed-in ones are served", async () => {
    const cur = (await t.app.inject({ method: "GET", url: "/api/v1/settings", headers: t.admin })).json().config;
    const set = (on: boolean) =>
      t.app.inject({
        method: "POST",
        url: "/api/v1/settings",
        headers: t.admin,
        payload: { config: { ...cur, troubleshootingRequireAuth: on } },
      });
    expect((await set(true)).statusCode).toBe(200);
    try {
      expect((await post("validate-certificate", { certificate: tls.ca })).statusCode).toBe(401);
      expect((await post("validate-certificate", { certificate: tls.ca }, viewer)).statusCode).toBe(200);
    } finally {
      await set(false);
    }
  });
});
