import { NetworkIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link, useNavigate } from "react-router";
import { Mono } from "@/components/DetailField";
import { EmptyState, QueryState } from "@/components/states";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useConnectedPeersQuery } from "@/data/federation/connected-peers-query";
import { formatDateTime, formatRelative } from "@/lib/utils";
import { ConnectionStatusBadge } from "@/pages/connect/ConnectionStatusBadge";

/** The consoles this one knows, revoked ones included, with their live status. */
export function ConnectedPeersTable(): ReactElement {
  const peers = useConnectedPeersQuery();
  const navigate = useNavigate();
  return (
    <Card className="gap-0 pb-0">
      <CardHeader className="pb-4">
        <CardTitle>Connected instances</CardTitle>
        <CardDescription>Each connection is pinged regularly; its status here refreshes on its own.</CardDescription>
      </CardHeader>
      <QueryState
        query={peers}
        isEmpty={(d) => d.length === 0}
        empty={
          <EmptyState
            icon={NetworkIcon}
            title="No connected instances yet"
            description="Generate an invitation here and accept it on the other console, or accept one you received."
          />
        }
      >
        {(list) => (
          <Table aria-label="Connected instances">
            <TableHeader>
              <TableRow>
                <TableHead>Node ID</TableHead>
                <TableHead className="hidden md:table-cell">Endpoint</TableHead>
                <TableHead>Status</TableHead>
                <TableHead className="hidden lg:table-cell">Last seen</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {list.map((p) => (
                <TableRow
                  key={p.node_id}
                  data-testid={`peer-${p.node_id}`}
                  className="cursor-pointer"
                  onClick={() => void navigate(`/connect/${encodeURIComponent(p.node_id)}`)}
                >
                  <TableCell>
                    <Link to={`/connect/${encodeURIComponent(p.node_id)}`} className="hover:underline">
                      <Mono className="font-medium">{p.node_id}</Mono>
                    </Link>
                  </TableCell>
                  <TableCell className="hidden md:table-cell">
                    <Mono className="text-muted-foreground">{p.peer_endpoint}</Mono>
                  </TableCell>
                  <TableCell>
                    <span title={p.last_error ?? undefined}>
                      <ConnectionStatusBadge status={p.status} />
                    </span>
                  </TableCell>
                  <TableCell
                    className="hidden text-muted-foreground lg:table-cell"
                    title={p.last_seen_at ? formatDateTime(p.last_seen_at) : undefined}
                  >
                    {p.last_seen_at ? formatRelative(p.last_seen_at) : "Never"}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </QueryState>
    </Card>
  );
}
