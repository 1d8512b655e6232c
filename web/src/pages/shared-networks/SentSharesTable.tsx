import { SendIcon, Trash2Icon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link } from "react-router";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { Mono } from "@/components/DetailField";
import { EmptyState, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useConnectedPeersQuery } from "@/data/federation/connected-peers-query";
import { useSharedNetworkDeleteMutation } from "@/data/sharing/shared-network-delete-mutation";
import { useSharedNetworksQuery } from "@/data/sharing/shared-networks-query";
import type { SharedNetwork } from "@/data/sharing/types";
import { showToast } from "@/lib/toast";
import { formatDateTime, formatRelative } from "@/lib/utils";
import { connectionHref, platformLabel, recipientName, recipientOutcomes } from "@/pages/shared-networks/share-view";
import { ShareStatusBadge } from "@/pages/shared-networks/ShareStatusBadge";

/** Networks this console shared, with their recipients; operators delete a record. */
export function SentSharesTable({ canManage }: { canManage: boolean }): ReactElement {
  const shares = useSharedNetworksQuery("sent");
  const peers = useConnectedPeersQuery();
  const remove = useSharedNetworkDeleteMutation();
  const [target, setTarget] = useState<SharedNetwork | undefined>();
  return (
    <>
      <QueryState
        query={shares}
        isEmpty={(d) => d.length === 0}
        empty={
          <EmptyState
            icon={SendIcon}
            title="No networks shared yet"
            description="Share a network from its page (Share) with the consoles you are connected to."
          />
        }
      >
        {(rows) => (
          <Table aria-label="Sent networks">
            <TableHeader>
              <TableRow>
                <TableHead>Network</TableHead>
                <TableHead>Platform</TableHead>
                <TableHead>Recipients</TableHead>
                <TableHead className="hidden md:table-cell">Shared</TableHead>
                <TableHead>Status</TableHead>
                {canManage && (
                  <TableHead className="text-right">
                    <span className="sr-only">Actions</span>
                  </TableHead>
                )}
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((s) => (
                <TableRow key={s.id} data-testid={`sent-${s.id}`}>
                  <TableCell className="font-medium">{s.networkName}</TableCell>
                  <TableCell>{platformLabel(s.platform)}</TableCell>
                  <TableCell>
                    <ul className="space-y-1">
                      {recipientOutcomes(s).map((r) => {
                        const name = r.nodeId ?? recipientName(r.recipient, peers.data);
                        const known = r.nodeId !== undefined || peers.data?.some((p) => p.id === r.recipient);
                        return (
                          <li key={r.recipient} className="flex flex-wrap items-center gap-2">
                            {known ? (
                              <Link to={connectionHref(name)} className="hover:underline">
                                <Mono>{name}</Mono>
                              </Link>
                            ) : (
                              <Mono className="text-muted-foreground">{name}</Mono>
                            )}
                            {r.status !== s.status && <ShareStatusBadge status={r.status} />}
                            {r.error && <span className="basis-full text-xs text-destructive">{r.error}</span>}
                          </li>
                        );
                      })}
                    </ul>
                  </TableCell>
                  <TableCell className="hidden text-muted-foreground md:table-cell" title={formatDateTime(s.createdAt)}>
                    {formatRelative(s.createdAt)}
                  </TableCell>
                  <TableCell>
                    <ShareStatusBadge status={s.status} />
                    {s.error && <p className="mt-1 max-w-xs text-xs text-destructive">{s.error}</p>}
                  </TableCell>
                  {canManage && (
                    <TableCell className="text-right">
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={`Delete share of ${s.networkName}`}
                        onClick={() => setTarget(s)}
                      >
                        <Trash2Icon />
                      </Button>
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </QueryState>
      {target && (
        <ConfirmDialog
          open
          onOpenChange={(v) => !v && setTarget(undefined)}
          title={`Delete the share of ${target.networkName}?`}
          description="The record is removed from this console. A console that already imported the network keeps it."
          confirmLabel="Delete share"
          pending={remove.isPending}
          onConfirm={() =>
            remove.mutate(target.id, {
              onSuccess: () => {
                showToast("success", "Share deleted", { description: target.networkName });
                setTarget(undefined);
              },
              onError: () => setTarget(undefined),
            })
          }
        />
      )}
    </>
  );
}
