import { ScrollTextIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link, useSearchParams } from "react-router";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Card } from "@/components/ui/card";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useNodesQuery } from "@/data/nodes/nodes-query";
import { nodeStatusDot } from "@/data/nodes/node-status";
import { cn } from "@/lib/utils";
import { LogViewer } from "@/pages/nodes/LogViewer";

/** Pick any node and follow its log; the choice lives in the URL (?node=ID). */
export function NodeLogsPage(): ReactElement {
  const [params, setParams] = useSearchParams();
  const nodes = useNodesQuery({ page: 1, limit: 1000 });
  const selected = params.get("node") ?? "";
  return (
    <div className="space-y-4">
      <PageHeader
        title="Node Logs"
        description="Follow a node's output live: the last 200 lines, then everything new."
      />
      <QueryState
        query={nodes}
        isEmpty={(d) => d.items.length === 0}
        empty={
          <Card>
            <EmptyState icon={ScrollTextIcon} title="No nodes yet" description="Create a node to see its logs here." />
          </Card>
        }
      >
        {(d) => (
          <>
            <div className="flex flex-wrap items-center gap-3">
              <Select value={selected} onValueChange={(v) => setParams({ node: v }, { replace: true })}>
                <SelectTrigger aria-label="Node" className="w-72">
                  <SelectValue placeholder="Choose a node" />
                </SelectTrigger>
                <SelectContent>
                  {d.items.map((n) => (
                    <SelectItem key={n.id} value={String(n.id)}>
                      <span className={cn("size-2 rounded-full", nodeStatusDot(n.status))} />
                      {n.name}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              {selected && (
                <Link to={`/nodes/${selected}`} className="text-sm hover:underline">
                  Open node
                </Link>
              )}
            </div>
            {selected ? (
              <LogViewer key={selected} nodeId={Number(selected)} height="h-[calc(100vh-16rem)] min-h-80" />
            ) : (
              <Card>
                <EmptyState icon={ScrollTextIcon} title="Choose a node" description="Its log streams here." />
              </Card>
            )}
          </>
        )}
      </QueryState>
    </div>
  );
}
