import { Trash2Icon } from "lucide-react";
import type { ReactElement, ReactNode } from "react";
import { Link } from "react-router";
import { ExpiryBadge } from "@/components/certificates/ExpiryBadge";
import { Mono } from "@/components/DetailField";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type {
  ExternalBesuNode,
  ExternalFabricOrderer,
  ExternalFabricPeer,
  ExternalOrganization,
} from "@/data/external-nodes/types";
import { useDecodedCertificate } from "@/lib/certificates/use-decoded-certificate";

/**
 * Tables of organizations and nodes from another console, shared by the External Nodes screen
 * (stored records, with their source and a delete) and a connection's screen (fetched live).
 */
export interface TableExtras {
  /** The source instance column: the node id of the record's connection, when known. */
  sourceOf?: (connectionId: number) => string | undefined;
  /** Adds a delete button per row (admins and managers). */
  onDelete?: (id: number, name: string) => void;
}

function CertExpiry({ pem }: { pem: string }): ReactElement {
  const cert = useDecodedCertificate(pem);
  if (cert.isError) return <span className="text-muted-foreground">—</span>;
  if (!cert.data) return <span className="text-muted-foreground">…</span>;
  return <ExpiryBadge notAfter={cert.data.notAfter} notBefore={cert.data.notBefore} />;
}

function Source({ connectionId, sourceOf }: { connectionId: number; sourceOf: TableExtras["sourceOf"] }): ReactNode {
  const nodeId = sourceOf?.(connectionId);
  if (!nodeId) return <span className="text-muted-foreground">connection {connectionId}</span>;
  return (
    <Link to={`/connect/${encodeURIComponent(nodeId)}`} className="hover:underline">
      <Mono>{nodeId}</Mono>
    </Link>
  );
}

function DeleteCell({
  id,
  name,
  onDelete,
}: {
  id: number;
  name: string;
  onDelete: TableExtras["onDelete"];
}): ReactNode {
  if (!onDelete) return null;
  return (
    <TableCell className="w-12 text-right">
      <Button variant="ghost" size="icon-sm" aria-label={`Delete ${name}`} onClick={() => onDelete(id, name)}>
        <Trash2Icon />
      </Button>
    </TableCell>
  );
}

export function OrganizationsTable({
  rows,
  sourceOf,
  onDelete,
}: { rows: ExternalOrganization[] } & TableExtras): ReactElement {
  return (
    <Table aria-label="Organizations">
      <TableHeader>
        <TableRow>
          <TableHead>MSP ID</TableHead>
          <TableHead className="hidden md:table-cell">Name</TableHead>
          {sourceOf && <TableHead className="hidden md:table-cell">Source instance</TableHead>}
          <TableHead>Signing CA</TableHead>
          <TableHead className="hidden lg:table-cell">TLS CA</TableHead>
          {onDelete && <TableHead className="w-12" aria-label="Actions" />}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((o) => (
          <TableRow key={o.id} data-testid={`external-org-${o.mspId}`}>
            <TableCell className="font-medium">{o.mspId}</TableCell>
            <TableCell className="hidden text-muted-foreground md:table-cell">{o.name}</TableCell>
            {sourceOf && (
              <TableCell className="hidden md:table-cell">
                <Source connectionId={o.externalNodeId} sourceOf={sourceOf} />
              </TableCell>
            )}
            <TableCell>
              <CertExpiry pem={o.signCertificate} />
            </TableCell>
            <TableCell className="hidden lg:table-cell">
              <CertExpiry pem={o.tlsCertificate} />
            </TableCell>
            <DeleteCell id={o.id} name={o.mspId} onDelete={onDelete} />
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function FabricNodesTable({
  label,
  rows,
  sourceOf,
  onDelete,
}: { label: string; rows: (ExternalFabricPeer | ExternalFabricOrderer)[] } & TableExtras): ReactElement {
  return (
    <Table aria-label={label}>
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>MSP ID</TableHead>
          <TableHead className="hidden md:table-cell">Endpoint</TableHead>
          {sourceOf && <TableHead className="hidden lg:table-cell">Source instance</TableHead>}
          <TableHead className="hidden lg:table-cell">Version</TableHead>
          <TableHead className="hidden md:table-cell">TLS certificate</TableHead>
          {onDelete && <TableHead className="w-12" aria-label="Actions" />}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((n) => (
          <TableRow key={n.id}>
            <TableCell className="font-medium">{n.name}</TableCell>
            <TableCell>{n.mspId}</TableCell>
            <TableCell className="hidden md:table-cell">
              <Mono>{n.externalEndpoint || "—"}</Mono>
            </TableCell>
            {sourceOf && (
              <TableCell className="hidden lg:table-cell">
                <Source connectionId={n.externalNodeId} sourceOf={sourceOf} />
              </TableCell>
            )}
            <TableCell className="hidden text-muted-foreground lg:table-cell">{n.version || "—"}</TableCell>
            <TableCell className="hidden md:table-cell">
              {n.tlsCertificate ? <CertExpiry pem={n.tlsCertificate} /> : "—"}
            </TableCell>
            <DeleteCell id={n.id} name={n.name} onDelete={onDelete} />
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function BesuNodesTable({ rows, sourceOf, onDelete }: { rows: ExternalBesuNode[] } & TableExtras): ReactElement {
  return (
    <Table aria-label="Besu nodes">
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Enode URL</TableHead>
          <TableHead className="hidden md:table-cell">RPC URL</TableHead>
          {sourceOf && <TableHead className="hidden lg:table-cell">Source instance</TableHead>}
          <TableHead className="hidden lg:table-cell">Version</TableHead>
          {onDelete && <TableHead className="w-12" aria-label="Actions" />}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((n) => (
          <TableRow key={n.id}>
            <TableCell className="font-medium">{n.name}</TableCell>
            <TableCell className="max-w-xs">
              <Mono>{n.enodeUrl || "—"}</Mono>
            </TableCell>
            <TableCell className="hidden md:table-cell">
              <Mono>{n.rpcUrl || "—"}</Mono>
            </TableCell>
            {sourceOf && (
              <TableCell className="hidden lg:table-cell">
                <Source connectionId={n.externalNodeId} sourceOf={sourceOf} />
              </TableCell>
            )}
            <TableCell className="hidden text-muted-foreground lg:table-cell">{n.version || "—"}</TableCell>
            <DeleteCell id={n.id} name={n.name} onDelete={onDelete} />
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
