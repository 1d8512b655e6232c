import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { durationSeconds, prometheusConfig, uniqueJobs, type ScrapeJob } from "./prometheus-config.js";

const job = (name: string, extra: Partial<ScrapeJob> = {}): ScrapeJob => ({
  job: name,
  nodeId: 1,
  nodeName: name,
  nodeType: "FABRIC_PEER",
  platform: "FABRIC",
  target: "127.0.0.1:9443",
  path: "/metrics",
  ...extra,
});

describe("the scrape configuration", () => {
  it("reads Prometheus durations", () => {
    expect(durationSeconds("15s")).toBe(15);
    expect(durationSeconds("1m30s")).toBe(90);
    expect(durationSeconds("500ms")).toBe(0.5);
    expect(durationSeconds("1d")).toBe(86_400);
    for (const bad of ["", "15", "fast", "1.5s", "-1s", "15 s"]) expect(durationSeconds(bad), bad).toBeUndefined();
  });

  it("keeps each job name once, the first (the console's own) winning", () => {
    const dropped: string[] = [];
    const kept = uniqueJobs(
      [job("peer0"), job("peer0", { source: "custom", nodeId: 0 }), job("other", { source: "custom" })],
      (j) => dropped.push(`${j.job}:${j.source}`),
    );
    expect(kept.map((j) => `${j.job}:${j.source ?? "node"}`)).toEqual(["peer0:node", "other:custom"]);
    expect(dropped).toEqual(["peer0:custom"]);
  });

  it("renders a custom job with all its targets, Prometheus's labels only, and a timeout within its interval", () => {
    const doc = parse(
      prometheusConfig({
        scrapeIntervalSeconds: 15,
        jobs: [
          job("custom", {
            source: "custom",
            targets: ["10.0.0.1:9100", "exporter.local:9100"],
            labels: {},
            interval: "5s",
            path: "/probe",
          }),
          job("slow", { source: "custom", labels: {}, interval: "1m" }),
        ],
      }),
    ) as { global: Record<string, string>; scrape_configs: Record<string, unknown>[] };
    expect(doc.global.scrape_timeout).toBe("10s");
    expect(doc.scrape_configs[0]).toEqual({
      job_name: "custom",
      metrics_path: "/probe",
      scrape_interval: "5s",
      scrape_timeout: "5s",
      static_configs: [{ targets: ["10.0.0.1:9100", "exporter.local:9100"], labels: {} }],
    });
    expect(doc.scrape_configs[1]).not.toHaveProperty("scrape_timeout");
  });
});
