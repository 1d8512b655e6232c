import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { managerCallers, type Caller } from "../../test-support/callers.js";
import { createTestApp, dialects, type TestApp } from "../../test-support/test-app.js";

/**
 * A plugin registry is any URL typed into the settings, loopback services included. Only an admin
 * adds one (HOST_COMMAND), but managers read the catalogue: what such a server answers never comes
 * back in its errors, only the status or the failure.
 */
const LEAK = "SECRET-BODY";

describe.each(dialects())("plugin registry errors (%s)", (dialect) => {
  let t: TestApp;
  let callers: Caller[];
  let server: Server;
  let base = "";
  beforeAll(async () => {
    // A loopback service that is not a registry: text, an error page, JSON of another shape.
    server = createServer((req, res) => {
      if (req.url === "/text") res.writeHead(200, { "content-type": "text/plain" }).end(`${LEAK} admin=hunter2`);
      else if (req.url === "/html") res.writeHead(200).end(`<html>${LEAK}</html>`);
      else if (req.url === "/index.json") {
        res.writeHead(200).end(JSON.stringify({ plugins: [{ name: `${LEAK}-x`, url: "/text" }, { url: "/error" }] }));
      } else res.writeHead(500, { "content-type": "text/plain" }).end(`${LEAK} stack trace`);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await createTestApp(dialect);
    callers = await managerCallers(t);
  });
  afterAll(async () => {
    server?.close();
    await t?.close();
  });

  it("names the status or the failure, never the body, for a manager session and a manager API key", async () => {
    for (const c of callers) {
      const api = (method: "GET" | "POST", url: string, payload?: object) =>
        t.app.inject({ method, url: `/api/v1${url}`, headers: c.headers, ...(payload ? { payload } : {}) });
      const settings = (await api("GET", "/settings")).json().config;
      const registries = ["/text", "/html", "/error", "/index.json"].map((p) => `${base}${p}`);
      const asAdmin = (config: object) =>
        t.app.inject({ method: "POST", url: "/api/v1/settings", headers: t.admin, payload: { config } });
      const set = await asAdmin({ ...settings, pluginRegistries: registries });
      expect(set.statusCode, set.body).toBe(200);
      const res = await api("POST", "/plugins/available/refresh");
      expect(res.statusCode, `${c.label}: ${res.body}`).toBe(200);
      expect(res.body).not.toContain(LEAK);
      expect(res.body).not.toContain("hunter2");
      expect(res.json().errors).toEqual([
        { source: `${base}/text`, message: "the index could not be read: the answer is not JSON" },
        { source: `${base}/html`, message: "the index could not be read: the answer is not JSON" },
        { source: `${base}/error`, message: `the index could not be read: HTTP 500 from ${base}/error` },
        { source: `${base}/index.json`, message: expect.stringMatching(/^plugins\[0\]: a plugin is a YAML mapping/) },
        { source: `${base}/index.json`, message: `plugins[1]: HTTP 500 from ${base}/error` },
      ]);
      await asAdmin({ ...settings, pluginRegistries: [] });
    }
  });
});
