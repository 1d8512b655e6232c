import { Loader2Icon, SendIcon, Trash2Icon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { RoleGate } from "@/app/RoleGate";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { EmptyState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useConnectedPeersQuery } from "@/data/federation/connected-peers-query";
import { useSignatureShareMutation, useSignatureWithdrawMutation } from "@/data/governance/proposal-mutations";
import type { Proposal, ProposalSignature } from "@/data/governance/types";
import { showToast } from "@/lib/toast";
import { formatDateTime } from "@/lib/utils";
import { isProposer, proposerConnection } from "@/pages/governance/proposal-view";

/** Sends one signature to the proposer's console (over the connection whose node id is the origin). */
export function SendSignatureButton({
  p,
  signatureId,
  mspId,
}: {
  p: Proposal;
  signatureId: number;
  mspId: string;
}): ReactElement {
  const peers = useConnectedPeersQuery();
  const share = useSignatureShareMutation(p.id);
  const conn = proposerConnection(p, peers.data);
  const busy = share.isPending && share.variables.signatureId === signatureId;
  return (
    <Button
      size="sm"
      variant="outline"
      disabled={!conn || busy || p.status === "submitted"}
      title={conn ? undefined : `No connection to ${p.origin_node_id}`}
      aria-label={`Send ${mspId} signature to ${p.origin_node_id}`}
      onClick={() =>
        conn &&
        share.mutate(
          { connectionId: conn.id, signatureId },
          {
            onSuccess: () =>
              showToast("success", "Signature shared", {
                description: `${mspId}'s signature was sent to ${p.origin_node_id}.`,
              }),
          },
        )
      }
    >
      {busy ? <Loader2Icon className="animate-spin" /> : <SendIcon />} Send to proposer
    </Button>
  );
}

/** The signatures collected here, with withdraw and (on a received copy) send back to the proposer. */
export function SignaturesCard({ p }: { p: Proposal }): ReactElement {
  const withdraw = useSignatureWithdrawMutation(p.id);
  const [withdrawing, setWithdrawing] = useState<ProposalSignature>();
  const open = p.status !== "submitted";
  return (
    <Card className="gap-0 pb-0">
      <CardHeader className="pb-4">
        <CardTitle className="text-base">Signatures</CardTitle>
        <CardDescription>
          {isProposer(p)
            ? "Signed here or received from connected consoles (verified against the org's MSP before they count)."
            : `Signed on this console. Send them to the proposer (${p.origin_node_id}) so they count there.`}
        </CardDescription>
      </CardHeader>
      <ConfirmDialog
        open={Boolean(withdrawing)}
        onOpenChange={(o) => !o && setWithdrawing(undefined)}
        title={`Withdraw ${withdrawing?.msp_id ?? ""}'s signature?`}
        description="The signature is deleted here; it no longer counts toward the policy."
        confirmLabel="Withdraw"
        pending={withdraw.isPending}
        onConfirm={() => withdrawing && withdraw.mutate(withdrawing.id, { onSettled: () => setWithdrawing(undefined) })}
      />
      <div className="border-t">
        {p.signatures.length === 0 ? (
          <EmptyState title="No signatures yet" />
        ) : (
          <Table aria-label="Signatures">
            <TableHeader>
              <TableRow>
                <TableHead>Organization</TableHead>
                <TableHead className="hidden sm:table-cell">Signed</TableHead>
                <TableHead className="hidden md:table-cell">By</TableHead>
                <TableHead className="text-right">
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {p.signatures.map((s) => (
                <TableRow key={s.id} data-testid={`signature-${s.msp_id}`}>
                  <TableCell className="font-medium">{s.msp_id}</TableCell>
                  <TableCell className="hidden text-muted-foreground sm:table-cell">
                    {formatDateTime(s.signed_at)}
                  </TableCell>
                  <TableCell className="hidden md:table-cell">{s.signed_by}</TableCell>
                  <TableCell className="text-right">
                    {open && (
                      <RoleGate denied={["viewer"]}>
                        <div className="flex justify-end gap-2">
                          {!isProposer(p) && <SendSignatureButton p={p} signatureId={s.id} mspId={s.msp_id} />}
                          <Button
                            size="sm"
                            variant="ghost"
                            aria-label={`Withdraw ${s.msp_id} signature`}
                            onClick={() => setWithdrawing(s)}
                          >
                            <Trash2Icon />
                          </Button>
                        </div>
                      </RoleGate>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </div>
    </Card>
  );
}
