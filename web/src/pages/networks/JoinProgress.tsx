import { useReducer, useState, type ReactElement } from "react";
import { FailedRetry, StepIcon } from "@/components/progress";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { FabricNetwork } from "@/data/fabric-networks/types";
import { joinOrder, joinReducer, joinSummary, type JoinRow } from "@/pages/networks/fabric-network";
import { errorMessage } from "@/lib/utils";

/** Live join rows: one per chosen node, with Retry on the failed ones only. */
export function JoinProgress({
  network,
  rows,
  running,
  onRetry,
}: {
  network: Pick<FabricNetwork, "id" | "name">;
  rows: JoinRow[];
  running: boolean;
  onRetry: (r: JoinRow) => void;
}): ReactElement {
  const sum = joinSummary(rows);
  const done = sum.pending + sum.joining === 0;
  return (
    <Card className="gap-0 pb-0" data-testid="join-progress" data-done={done ? "true" : "false"}>
      <CardHeader className="flex flex-row items-center justify-between gap-2 pb-4">
        <div>
          <CardTitle className="text-base">Joining {network.name}</CardTitle>
          <CardDescription>
            {sum.joined} joined · {sum.failed} failed · {sum.pending + sum.joining} to go
          </CardDescription>
        </div>
        {done && (
          <Button asChild>
            <Link to={`/networks/${network.id}/fabric`}>Open network {network.name}</Link>
          </Button>
        )}
      </CardHeader>
      <div className="border-t">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead className="w-8">
                <span className="sr-only">State</span>
              </TableHead>
              <TableHead>Node</TableHead>
              <TableHead className="hidden sm:table-cell">Role</TableHead>
              <TableHead>Status</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.nodeId} data-testid={`join-row-${r.name}`} data-state={r.state}>
                <TableCell>
                  <StepIcon state={r.state === "joining" ? "running" : r.state === "joined" ? "done" : r.state} />
                </TableCell>
                <TableCell className="font-medium">{r.name}</TableCell>
                <TableCell className="hidden capitalize sm:table-cell">{r.role}</TableCell>
                <TableCell>
                  {r.state === "pending" && <Badge variant="secondary">Pending</Badge>}
                  {r.state === "joining" && <Badge variant="warning">Joining…</Badge>}
                  {r.state === "joined" && <Badge variant="success">Joined</Badge>}
                  {r.state === "failed" && (
                    <FailedRetry name={r.name} message={r.error} disabled={running} onRetry={() => onRetry(r)} />
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </Card>
  );
}

/**
 * Runs one join step per row, one after another with orderers first (a peer's join is checked
 * against a running orderer), tracking each row's state; `retry` reruns one failed row alone.
 */
export function useJoinRunner(step: (r: Pick<JoinRow, "nodeId" | "role">) => Promise<unknown>): {
  rows: JoinRow[];
  running: boolean;
  start: (planned: Omit<JoinRow, "state">[]) => void;
  retry: (r: JoinRow) => void;
} {
  const [rows, dispatch] = useReducer(joinReducer, []);
  const [running, setRunning] = useState(false);
  const runOne = async (r: Pick<JoinRow, "nodeId" | "role">): Promise<void> => {
    dispatch({ type: "joining", nodeId: r.nodeId });
    try {
      await step(r);
      dispatch({ type: "joined", nodeId: r.nodeId });
    } catch (e) {
      dispatch({ type: "failed", nodeId: r.nodeId, error: errorMessage(e) });
    }
  };
  return {
    rows,
    running,
    start: (planned) => {
      dispatch({ type: "plan", rows: planned });
      setRunning(true);
      void (async () => {
        for (const r of joinOrder(planned)) await runOne(r);
        setRunning(false);
      })();
    },
    retry: (r) => {
      setRunning(true);
      void runOne(r).finally(() => setRunning(false));
    },
  };
}
