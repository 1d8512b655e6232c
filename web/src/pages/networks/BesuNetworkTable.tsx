import type { ReactElement } from "react";
import { Link, useNavigate } from "react-router";
import type { BesuNetwork } from "@/api/client";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/utils";

/** Besu networks as a table; rows open the network. */
export function BesuNetworkTable({ networks }: { networks: BesuNetwork[] }): ReactElement {
  const navigate = useNavigate();
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Chain ID</TableHead>
          <TableHead className="hidden md:table-cell">Consensus</TableHead>
          <TableHead>Validators</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="hidden lg:table-cell">Created</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {networks.map((n) => (
          <TableRow key={n.id} className="cursor-pointer" onClick={() => void navigate(`/networks/${n.id}/besu`)}>
            <TableCell>
              <Link to={`/networks/${n.id}/besu`} className="font-medium hover:underline">
                {n.name}
              </Link>
              {n.description && <p className="max-w-xs truncate text-xs text-muted-foreground">{n.description}</p>}
            </TableCell>
            <TableCell className="font-mono text-xs tabular-nums">{n.chainId}</TableCell>
            <TableCell className="hidden md:table-cell">
              <Badge variant="outline">QBFT</Badge>
            </TableCell>
            <TableCell className="tabular-nums">{n.validators.length}</TableCell>
            <TableCell>
              <Badge variant={n.status === "imported" ? "secondary" : "success"} className="capitalize">
                {n.status}
              </Badge>
            </TableCell>
            <TableCell className="hidden text-muted-foreground lg:table-cell">{formatDateTime(n.createdAt)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
