import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { byLabel, parsePromText, PromParseError, samplesOf, scrapeMetrics } from "./prom-text.js";

/** Scraped from a real Fabric 3.1.0 peer and orderer on one channel (alerts.e2e.test.ts makes the same). */
const real = (role: "peer" | "orderer"): string =>
  readFileSync(new URL(`./testdata/fabric-3.1.0-${role}.metrics.txt`, import.meta.url), "utf8");

describe("parsePromText", () => {
  it("reads a real peer's and orderer's /metrics, every sample line of them", () => {
    for (const role of ["peer", "orderer"] as const) {
      const text = real(role);
      const lines = text.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("#"));
      const samples = parsePromText(text);
      expect(samples).toHaveLength(lines.length);
      expect(byLabel(samples, "ledger_blockchain_height", "channel").get("alchannel")).toBe(2);
    }
    const orderer = parsePromText(real("orderer"));
    expect(samplesOf(orderer, "consensus_etcdraft_is_leader", { channel: "alchannel" })[0]?.value).toBe(1);
    expect(samplesOf(orderer, "consensus_etcdraft_cluster_size", { channel: "alchannel" })[0]?.value).toBe(1);
    // Histogram buckets keep their le label, +Inf included.
    const inf = samplesOf(orderer, "consensus_etcdraft_data_persist_duration_bucket", { le: "+Inf" });
    expect(inf[0]?.value).toBeGreaterThan(0);
  });

  it("reads escapes, spaces, special values and timestamps", () => {
    const samples = parsePromText(
      [
        "# HELP x a help line",
        "# TYPE x gauge",
        'x{a="q\\"uote",b="back\\\\slash",c="new\\nline"} 1.5e3 1712345678000',
        'y{ a = "1" , } +Inf',
        "z -Inf",
        "w NaN",
        "",
      ].join("\n"),
    );
    expect(samples[0]).toEqual({ name: "x", labels: { a: 'q"uote', b: "back\\slash", c: "new\nline" }, value: 1500 });
    expect(samples[1]).toEqual({ name: "y", labels: { a: "1" }, value: Infinity });
    expect(samples[2]?.value).toBe(-Infinity);
    expect(samples[3]?.value).toBeNaN();
  });

  it.each([
    ["x{a=1} 2", "line 1: quoted value expected for label a"],
    ['x{a="1" 2', "line 1: ',' or '}' expected after label a"],
    ['x{a="1} 2', "line 1: unterminated value of label a"],
    ["ok 1\nx notanumber", "line 2: value 'notanumber' is not a number"],
    ['{a="b"} 1', "line 1: metric name expected"],
    ["x", "line 1: value '' is not a number"],
  ])("refuses %j naming the line (%s)", (text, message) => {
    expect(() => parsePromText(text)).toThrow(PromParseError);
    expect(() => parsePromText(text)).toThrow(message);
  });
});

describe("scrapeMetrics", () => {
  let server: Server;
  afterAll(() => server?.close());

  it("GETs and parses, refuses non-200 answers and gives up after its timeout", async () => {
    server = createServer((req, res) => {
      if (req.url === "/metrics") return void res.end(real("peer"));
      if (req.url === "/slow") return; // never answers
      res.statusCode = 404;
      res.end("no");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect((await scrapeMetrics(`${base}/metrics`, 2000)).length).toBeGreaterThan(100);
    await expect(scrapeMetrics(`${base}/nope`, 2000)).rejects.toThrow("HTTP 404");
    const t0 = Date.now();
    await expect(scrapeMetrics(`${base}/slow`, 200)).rejects.toThrow();
    expect(Date.now() - t0).toBeLessThan(2000);
    server.closeAllConnections();
  });
});
