import { BanIcon, DownloadIcon, SendIcon, ShieldCheckIcon, Undo2Icon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { API_BASE } from "@/api/client";
import { RoleGate } from "@/app/RoleGate";
import { Mono } from "@/components/DetailField";
import { EmptyState, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useCertificateUnrevokeMutation } from "@/data/organizations/certificate-unrevoke-mutation";
import { useRevokedCertificatesQuery } from "@/data/organizations/organization-query";
import { showToast } from "@/lib/toast";
import { formatDateTime } from "@/lib/utils";
import { revocationReasonLabel } from "@/pages/organizations/organization-form";
import { PublishCrlPanel } from "@/pages/organizations/PublishCrlPanel";
import { RevokeDialog } from "@/pages/organizations/RevokeDialog";

/** The organization's certificate revocation list: revoked serials, un-revoke, revoke by serial/PEM, CRL download. */
export function RevocationCard({ organizationId, mspId }: { organizationId: number; mspId: string }): ReactElement {
  const revoked = useRevokedCertificatesQuery(organizationId);
  const unrevoke = useCertificateUnrevokeMutation();
  const [open, setOpen] = useState(false);
  const [publishing, setPublishing] = useState(false);
  return (
    <Card className="gap-0 pb-0">
      <CardHeader className="flex flex-col gap-3 pb-4 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <CardTitle className="text-base">Revoked certificates</CardTitle>
          <CardDescription className="mt-1">
            The signed CRL lists these serials. Channels use the CRL last published to them: publish it after a change.
          </CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" asChild>
            <a href={`${API_BASE}/organizations/${organizationId}/crl`} download={`${mspId}-crl.pem`}>
              <DownloadIcon /> Download CRL
            </a>
          </Button>
          <RoleGate denied={["viewer"]}>
            <Button variant="outline" size="sm" onClick={() => setPublishing(true)}>
              <SendIcon /> Publish CRL to channels
            </Button>
            <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
              <BanIcon /> Revoke certificate
            </Button>
          </RoleGate>
        </div>
      </CardHeader>
      <div className="border-t">
        <QueryState
          query={revoked}
          isEmpty={(d) => d.length === 0}
          empty={
            <EmptyState
              icon={ShieldCheckIcon}
              title="Nothing revoked"
              description="Revoke an identity from its row above, or by serial number or PEM."
            />
          }
        >
          {(rows) => (
            <Table data-testid="revoked-list">
              <TableHeader>
                <TableRow>
                  <TableHead>Serial number</TableHead>
                  <TableHead>Revoked</TableHead>
                  <TableHead>Reason</TableHead>
                  <TableHead className="w-28">
                    <span className="sr-only">Actions</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((r) => (
                  <TableRow key={r.serialNumber}>
                    <TableCell>
                      <Mono>{r.serialNumber}</Mono>
                    </TableCell>
                    <TableCell className="text-muted-foreground">{formatDateTime(r.revocationTime)}</TableCell>
                    <TableCell>{revocationReasonLabel(r.reason)}</TableCell>
                    <TableCell className="text-right">
                      <RoleGate denied={["viewer"]}>
                        <Button
                          variant="ghost"
                          size="sm"
                          disabled={unrevoke.isPending}
                          aria-label={`Un-revoke ${r.serialNumber}`}
                          onClick={() =>
                            unrevoke.mutate(
                              { organizationId, serialNumber: r.serialNumber },
                              {
                                onSuccess: () =>
                                  showToast("success", "Revocation removed", {
                                    description: `Serial ${r.serialNumber} is no longer on the CRL.`,
                                  }),
                              },
                            )
                          }
                        >
                          <Undo2Icon /> Un-revoke
                        </Button>
                      </RoleGate>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </QueryState>
      </div>
      {open && <RevokeDialog organizationId={organizationId} onClose={() => setOpen(false)} />}
      {publishing && (
        <Dialog open onOpenChange={(v) => !v && setPublishing(false)}>
          <DialogContent className="sm:max-w-lg">
            <DialogHeader>
              <DialogTitle>Publish the CRL to channels</DialogTitle>
              <DialogDescription>Choose the channels of {mspId} to update.</DialogDescription>
            </DialogHeader>
            <PublishCrlPanel organizationId={organizationId} onDone={() => setPublishing(false)} />
          </DialogContent>
        </Dialog>
      )}
    </Card>
  );
}
