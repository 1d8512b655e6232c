import { BanIcon, ExternalLinkIcon, MoreHorizontalIcon, RefreshCwIcon, UsersIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link } from "react-router";
import type { OrganizationKey } from "@/api/client";
import { RoleGate } from "@/app/RoleGate";
import { ExpiryBadge } from "@/components/certificates/ExpiryBadge";
import { Mono } from "@/components/DetailField";
import { EmptyState, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useIdentityRenewMutation } from "@/data/organizations/identity-renew-mutation";
import { useOrganizationIdentitiesQuery, useRevokedCertificatesQuery } from "@/data/organizations/organization-query";
import { useDecodedCertificate } from "@/lib/certificates/use-decoded-certificate";
import { showToast } from "@/lib/toast";
import { IdentityIssueDialog } from "@/pages/organizations/IdentityIssueDialog";
import { RevokeDialog } from "@/pages/organizations/RevokeDialog";

const PURPOSE: Record<string, string> = { sign: "Signing", tls: "TLS", ca: "Signing CA", tlsca: "TLS CA" };

function Serial({ pem }: { pem: string | null }): ReactElement {
  const cert = useDecodedCertificate(pem);
  if (!pem) return <span className="text-muted-foreground">—</span>;
  return <Mono className="text-muted-foreground">{cert.data?.serialNumber ?? "…"}</Mono>;
}

/** Expiry, or "Revoked" once the certificate's serial is on the organization's CRL. */
function Status({ row, revoked }: { row: OrganizationKey; revoked: ReadonlySet<string> }): ReactElement {
  const cert = useDecodedCertificate(row.certificate);
  if (cert.data && revoked.has(cert.data.serialNumber)) {
    return (
      <Badge variant="destructive">
        <BanIcon /> Revoked
      </Badge>
    );
  }
  return <ExpiryBadge notAfter={row.keyExpiresAt} />;
}

function RowActions({
  row,
  organizationId,
  onRevoke,
}: {
  row: OrganizationKey;
  organizationId: number;
  onRevoke: (row: OrganizationKey) => void;
}): ReactElement {
  const renew = useIdentityRenewMutation();
  const isCa = row.identityType === "ca";
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon-sm" aria-label={`Actions for ${row.keyName}`}>
          <MoreHorizontalIcon />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem asChild>
          <Link to={`/settings/keys/${row.keyId}`}>
            <ExternalLinkIcon /> View key
          </Link>
        </DropdownMenuItem>
        <RoleGate denied={["viewer"]}>
          <DropdownMenuSeparator />
          <DropdownMenuItem
            disabled={renew.isPending || !row.certificate}
            onSelect={() =>
              renew.mutate(
                { organizationId, keyId: row.keyId },
                {
                  onSuccess: (k) =>
                    showToast("success", "Certificate renewed", {
                      description: `${k.name} has a new certificate${k.expiresAt ? ` until ${new Date(k.expiresAt).toLocaleDateString()}` : ""}.`,
                    }),
                },
              )
            }
          >
            <RefreshCwIcon /> Renew certificate
          </DropdownMenuItem>
          {!isCa && (
            <DropdownMenuItem className="text-destructive" disabled={!row.certificate} onSelect={() => onRevoke(row)}>
              <BanIcon /> Revoke
            </DropdownMenuItem>
          )}
        </RoleGate>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** The organization's CAs and identities, with issue, renew and revoke. */
export function IdentitiesCard({ organizationId, mspId }: { organizationId: number; mspId: string }): ReactElement {
  const identities = useOrganizationIdentitiesQuery(organizationId);
  const revokedList = useRevokedCertificatesQuery(organizationId);
  const revoked = new Set((revokedList.data ?? []).map((r) => r.serialNumber.toLowerCase()));
  const [revoking, setRevoking] = useState<OrganizationKey | null>(null);
  return (
    <Card className="gap-0 pb-0">
      <CardHeader className="flex flex-row items-start justify-between gap-3 pb-4">
        <div>
          <CardTitle className="text-base">Identities</CardTitle>
          <CardDescription className="mt-1">
            Keys whose certificates this organization&apos;s CAs signed.
          </CardDescription>
        </div>
        <RoleGate denied={["viewer"]}>
          <IdentityIssueDialog organizationId={organizationId} mspId={mspId} />
        </RoleGate>
      </CardHeader>
      <div className="border-t">
        <QueryState
          query={identities}
          isEmpty={(d) => d.length === 0}
          empty={<EmptyState icon={UsersIcon} title="No identities yet" />}
        >
          {(rows) => (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Name</TableHead>
                  <TableHead>Role</TableHead>
                  <TableHead className="hidden md:table-cell">Purpose</TableHead>
                  <TableHead className="hidden md:table-cell">Serial</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead className="w-12">
                    <span className="sr-only">Actions</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((r) => (
                  <TableRow key={r.id} data-testid={`identity-${r.keyName}`}>
                    <TableCell>
                      <Link to={`/settings/keys/${r.keyId}`} className="font-medium hover:underline">
                        {r.keyName}
                      </Link>
                    </TableCell>
                    <TableCell>
                      <Badge variant={r.identityType === "ca" ? "secondary" : "outline"} className="capitalize">
                        {r.identityType === "ca" ? "CA" : r.identityType}
                      </Badge>
                    </TableCell>
                    <TableCell className="hidden text-muted-foreground md:table-cell">
                      {PURPOSE[r.keyPurpose] ?? r.keyPurpose}
                    </TableCell>
                    <TableCell className="hidden md:table-cell">
                      <Serial pem={r.certificate} />
                    </TableCell>
                    <TableCell>
                      <Status row={r} revoked={revoked} />
                    </TableCell>
                    <TableCell>
                      <RowActions row={r} organizationId={organizationId} onRevoke={setRevoking} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </QueryState>
      </div>
      {revoking && (
        <RevokeWithSerial organizationId={organizationId} row={revoking} onClose={() => setRevoking(null)} />
      )}
    </Card>
  );
}

function RevokeWithSerial({
  organizationId,
  row,
  onClose,
}: {
  organizationId: number;
  row: OrganizationKey;
  onClose: () => void;
}): ReactElement | null {
  const cert = useDecodedCertificate(row.certificate);
  if (!cert.data) return null;
  return (
    <RevokeDialog
      organizationId={organizationId}
      serial={cert.data.serialNumber}
      subject={row.keyName}
      onClose={onClose}
    />
  );
}
