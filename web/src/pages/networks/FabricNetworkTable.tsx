import type { ReactElement } from "react";
import { Link, useNavigate } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { FabricNetwork } from "@/data/fabric-networks/types";
import { formatDateTime } from "@/lib/utils";

/** Consensus type from the creation parameters (base64 JSON), if readable. */
export function consensusOf(n: FabricNetwork): string {
  try {
    const c = JSON.parse(atob(n.config)) as { consensusType?: string; config?: { consensusType?: string } };
    const t = c.consensusType ?? c.config?.consensusType ?? "etcdraft";
    return t === "smartbft" ? "BFT" : t;
  } catch {
    return "—";
  }
}

export function statusLabel(status: string): string {
  return status.replace(/_/g, " ");
}

/** Green when the channel runs, red when it failed or stopped, amber while joining or degraded. */
export function statusVariant(status: string): "success" | "destructive" | "warning" | "secondary" {
  if (status === "running") return "success";
  if (status === "stopped" || status === "join_failed") return "destructive";
  if (status === "partially_joined" || status === "degraded") return "warning";
  return "secondary";
}

/** Fabric channels as a table; rows open the network. */
export function FabricNetworkTable({ networks }: { networks: FabricNetwork[] }): ReactElement {
  const navigate = useNavigate();
  return (
    <Table data-testid="fabric-network-list">
      <TableHeader>
        <TableRow>
          <TableHead>Channel</TableHead>
          <TableHead className="hidden md:table-cell">Consensus</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="hidden lg:table-cell">Created</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {networks.map((n) => (
          <TableRow key={n.id} className="cursor-pointer" onClick={() => void navigate(`/networks/${n.id}/fabric`)}>
            <TableCell>
              <Link to={`/networks/${n.id}/fabric`} className="font-medium hover:underline">
                {n.name}
              </Link>
              {n.description && <p className="max-w-xs truncate text-xs text-muted-foreground">{n.description}</p>}
            </TableCell>
            <TableCell className="hidden md:table-cell">
              <Badge variant="outline">{consensusOf(n)}</Badge>
            </TableCell>
            <TableCell>
              <Badge variant={statusVariant(n.status)} className="capitalize" data-testid={`network-status-${n.name}`}>
                {statusLabel(n.status)}
              </Badge>
            </TableCell>
            <TableCell className="hidden text-muted-foreground lg:table-cell">{formatDateTime(n.createdAt)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
