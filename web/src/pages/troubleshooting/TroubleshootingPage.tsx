import { ListChecksIcon, Loader2Icon } from "lucide-react";
import { useMemo, useRef, useState, type ReactElement } from "react";
import { PageHeader } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useNodesQuery } from "@/data/nodes/nodes-query";
import {
  describeToolError,
  testConnection,
  type ConnectionTestRequest,
} from "@/data/troubleshooting/troubleshooting-api";
import { CertificateCard } from "@/pages/troubleshooting/CertificateCard";
import { ConnectionForm } from "@/pages/troubleshooting/ConnectionForm";
import { PublicIpCard } from "@/pages/troubleshooting/PublicIpCard";
import { ResultsTable, type TestRow } from "@/pages/troubleshooting/ResultsTable";
import { buildPresets, runPool, type ConnectionPreset } from "@/pages/troubleshooting/presets";

/** Tests run at once by "Test all nodes": enough to be quick, few enough for a small host and the rate limit. */
const PARALLEL = 3;

/** The troubleshooting tools (issue 19): public IP, connection tests with node presets, certificate check. */
export function TroubleshootingPage(): ReactElement {
  const nodes = useNodesQuery({ page: 1, limit: 1000 });
  const presets = useMemo(() => buildPresets(nodes.data?.items ?? []), [nodes.data]);
  const [rows, setRows] = useState<TestRow[]>([]);
  const [runningAll, setRunningAll] = useState(false);
  const [runningOne, setRunningOne] = useState(false);
  const manualCount = useRef(0);

  const update = (id: string, patch: Partial<TestRow>): void =>
    setRows((prev) => prev.map((r) => (r.id === id ? { ...r, ...patch } : r)));

  const run = async (id: string, request: ConnectionTestRequest): Promise<void> => {
    try {
      const result = await testConnection(request);
      update(id, { state: "done", result });
    } catch (e) {
      update(id, { state: "failed", error: describeToolError(e) });
    }
  };

  const runManual = (request: ConnectionTestRequest): void => {
    manualCount.current += 1;
    const id = `manual-${manualCount.current}`;
    setRows((prev) => [{ id, node: "Manual", target: "Manual test", request, state: "running" }, ...prev]);
    setRunningOne(true);
    void run(id, request).finally(() => setRunningOne(false));
  };

  const runPresets = (list: readonly ConnectionPreset[]): void => {
    const ids = new Set(list.map((p) => p.id));
    setRows((prev) => [
      ...prev.filter((r) => !ids.has(r.id)),
      ...list.map((p): TestRow => ({ id: p.id, node: p.node, target: p.target, request: p.request, state: "running" })),
    ]);
    setRunningAll(true);
    void runPool(list, PARALLEL, (p) => run(p.id, p.request)).finally(() => setRunningAll(false));
  };

  return (
    <div className="space-y-6">
      <PageHeader
        title="Troubleshooting"
        description="Check how this console and its nodes are reached: public address, connections and certificates."
      />
      <PublicIpCard />
      <Card>
        <CardHeader>
          <CardTitle>Test connection</CardTitle>
          <CardDescription>
            Reach an endpoint over tcp, tls, gRPC or HTTP from the console's host: timing, TLS details, the gRPC
            handshake and health check, the HTTP status.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          <ConnectionForm onRun={runManual} running={runningOne} />
          <section aria-label="Node presets" className="flex flex-wrap items-center gap-3 border-t pt-4">
            <Button
              type="button"
              variant="secondary"
              disabled={runningAll || presets.length === 0}
              onClick={() => runPresets(presets)}
            >
              {runningAll ? <Loader2Icon className="animate-spin" /> : <ListChecksIcon />}
              Test all nodes
            </Button>
            <span className="text-sm text-muted-foreground">
              {nodes.isPending
                ? "Loading nodes…"
                : nodes.isError
                  ? `Nodes could not be loaded: ${describeToolError(nodes.error)}`
                  : presets.length === 0
                    ? "No nodes yet: create peers, orderers or Besu nodes to get presets."
                    : `${presets.length} presets: each peer's and orderer's gRPC and operations port, orderers' admin port, Besu JSON-RPC.`}
            </span>
          </section>
          {rows.length > 0 ? (
            <ResultsTable rows={rows} />
          ) : (
            <p className="text-sm text-muted-foreground">No tests run yet.</p>
          )}
        </CardContent>
      </Card>
      <CertificateCard />
    </div>
  );
}
