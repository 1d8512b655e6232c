import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { NodeHealthHistory, NodeInfo, NodePage } from "@/api/client";
import { certificateKeys } from "@/data/certificates/keys";
import type { CertificateInventory } from "@/data/certificates/certificate-inventory-query";
import { fabricNetworkKeys } from "@/data/fabric-networks/keys";
import type { FabricNetwork, FabricNetworkMap, FabricNetworkPage } from "@/data/fabric-networks/types";
import { metricsKeys } from "@/data/metrics/metrics";
import { nodeKeys } from "@/data/nodes/keys";
import { AnalyticsPage } from "@/pages/analytics/AnalyticsPage";

const node = (id: number, name: string): NodeInfo =>
  ({ id, name, platform: "FABRIC", nodeType: "FABRIC_PEER", status: "RUNNING" }) as NodeInfo;

const member = (nodeId: number, id: string, height: number): FabricNetworkMap["nodes"][number] => ({
  nodeId,
  id,
  host: "127.0.0.1",
  port: 7051,
  role: "peer",
  mspId: "Org1MSP",
  mine: true,
  healthy: true,
  height,
  joinStatus: "joined",
  latency: "1ms",
  latencyNs: 1,
});

/** The page's text with every card's data already in the cache (nothing is fetched). */
function render(seed: (qc: QueryClient) => void): string {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  seed(qc);
  return renderToStaticMarkup(
    <QueryClientProvider client={qc}>
      <MemoryRouter>
        <AnalyticsPage />
      </MemoryRouter>
    </QueryClientProvider>,
  )
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
}

describe("AnalyticsPage", () => {
  it("shows each card's empty state", () => {
    const text = render((qc) => {
      qc.setQueryData(fabricNetworkKeys.list(5, 0), { networks: [], total: 0 } as FabricNetworkPage);
      qc.setQueryData(nodeKeys.list({ page: 1, limit: 10 }), { items: [], total: 0 } as unknown as NodePage);
      qc.setQueryData(metricsKeys.status(), { status: "not_deployed" });
      qc.setQueryData(certificateKeys.inventory(), { entries: [], undecodable: 0, truncated: false });
    });
    expect(text).toContain("No Fabric channels");
    expect(text).toContain("No nodes");
    expect(text).toContain("Prometheus is not deployed");
    expect(text).toContain("No certificates");
  });

  it("marks a lagging member, shows uptime and lists certificates soonest first", () => {
    const checks = (statuses: ("healthy" | "unhealthy")[]) =>
      ({
        healthchecks: statuses.map((status, i) => ({
          checkedAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
          status,
          responseTimeMs: 3,
        })),
      }) as NodeHealthHistory;
    const text = render((qc) => {
      qc.setQueryData(fabricNetworkKeys.list(5, 0), {
        networks: [{ id: 3, name: "mychannel" } as FabricNetwork],
        total: 1,
      } as FabricNetworkPage);
      qc.setQueryData(fabricNetworkKeys.map(3), {
        networkId: 3,
        platform: "FABRIC",
        nodes: [member(1, "peer0", 12), member(2, "peer1", 9)],
      });
      qc.setQueryData(nodeKeys.list({ page: 1, limit: 10 }), {
        items: [node(1, "peer0"), node(2, "peer1")],
        total: 2,
      } as unknown as NodePage);
      qc.setQueryData(nodeKeys.healthHistory(1), checks(["healthy", "healthy", "healthy", "healthy"]));
      qc.setQueryData(nodeKeys.healthHistory(2), checks(["healthy", "unhealthy", "healthy", "healthy"]));
      qc.setQueryData(metricsKeys.status(), { status: "not_deployed" });
      const cert = (id: string, what: string, notAfter: string) => ({
        id,
        what,
        owner: { label: "peer0", href: "/nodes/1" },
        pem: "",
        subject: `CN=${id}`,
        notBefore: new Date("2020-01-01"),
        notAfter: new Date(notAfter),
      });
      qc.setQueryData<CertificateInventory>(certificateKeys.inventory(), {
        entries: [cert("a", "Node TLS certificate", "2020-06-01"), cert("b", "Signing CA", "2099-01-01")],
        undecodable: 1,
        truncated: false,
      });
    });
    expect(text).toContain("mychannel");
    expect(text).toContain("(3 behind)");
    expect(text).toContain("100%");
    expect(text).toContain("75%");
    expect(text).toMatch(/Node TLS certificate.*Signing CA/);
    expect(text).toContain("1 certificate could not be decoded.");
  });
});
