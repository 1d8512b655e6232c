import { CheckIcon, InboxIcon, Loader2Icon, XIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link, useNavigate } from "react-router";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { Mono } from "@/components/DetailField";
import { EmptyState, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useSharedNetworkAcceptMutation } from "@/data/sharing/shared-network-accept-mutation";
import { useSharedNetworkRejectMutation } from "@/data/sharing/shared-network-reject-mutation";
import { useSharedNetworksQuery } from "@/data/sharing/shared-networks-query";
import type { SharedNetwork } from "@/data/sharing/types";
import { showToast } from "@/lib/toast";
import { formatDateTime, formatRelative } from "@/lib/utils";
import { canDecide, connectionHref, importedNetworkHref, platformLabel } from "@/pages/shared-networks/share-view";
import { ShareStatusBadge } from "@/pages/shared-networks/ShareStatusBadge";

/** Accept and Reject of one pending share; reject asks first. */
function Decide({ share }: { share: SharedNetwork }): ReactElement {
  const accept = useSharedNetworkAcceptMutation();
  const reject = useSharedNetworkRejectMutation();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const busy = accept.isPending || reject.isPending;
  return (
    <div className="flex justify-end gap-2">
      <Button
        size="sm"
        disabled={busy}
        aria-label={`Accept ${share.networkName}`}
        onClick={() =>
          accept.mutate(share.id, {
            onSuccess: (r) => {
              const href = importedNetworkHref({ localNetworkId: r.networkId, platform: share.platform });
              showToast("success", "Network imported", {
                description:
                  share.platform === "fabric"
                    ? `${share.networkName} was imported. Your peers can join the channel from its page.`
                    : `${share.networkName} was imported.`,
                ...(href ? { link: { href, label: "Open", onNavigate: (h: string) => void navigate(h) } } : {}),
              });
            },
          })
        }
      >
        {accept.isPending ? <Loader2Icon className="animate-spin" /> : <CheckIcon />}
        Accept
      </Button>
      <Button
        size="sm"
        variant="outline"
        disabled={busy}
        aria-label={`Reject ${share.networkName}`}
        onClick={() => setConfirming(true)}
      >
        <XIcon /> Reject
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Reject ${share.networkName}?`}
        description={`Nothing is imported, and ${share.sharedByNodeId} would have to share it again.`}
        confirmLabel="Reject"
        pending={reject.isPending}
        onConfirm={() =>
          reject.mutate(share.id, {
            onSuccess: () => {
              showToast("success", "Share rejected", { description: share.networkName });
              setConfirming(false);
            },
            onError: () => setConfirming(false),
          })
        }
      />
    </div>
  );
}

/** Where an accepted share lives now, and what to do next there. */
function Imported({ share }: { share: SharedNetwork }): ReactElement | null {
  const href = importedNetworkHref(share);
  if (!href) return null;
  return (
    <div className="text-sm">
      <Link to={href} className="font-medium text-primary hover:underline">
        Open network
      </Link>
      {share.platform === "fabric" && (
        <p className="text-xs text-muted-foreground">Your peers can join the channel from that page.</p>
      )}
    </div>
  );
}

/** Networks connected consoles shared with this one; operators accept or reject the pending ones. */
export function ReceivedSharesTable({ canManage }: { canManage: boolean }): ReactElement {
  const shares = useSharedNetworksQuery("received");
  return (
    <QueryState
      query={shares}
      isEmpty={(d) => d.length === 0}
      empty={
        <EmptyState
          icon={InboxIcon}
          title="No networks shared with this console"
          description="When a connected console shares a Fabric channel or a Besu network, it shows up here to accept or reject."
        />
      }
    >
      {(rows) => (
        <Table aria-label="Received networks">
          <TableHeader>
            <TableRow>
              <TableHead>Network</TableHead>
              <TableHead>Platform</TableHead>
              <TableHead>From</TableHead>
              <TableHead className="hidden md:table-cell">Received</TableHead>
              <TableHead>Status</TableHead>
              <TableHead className="text-right">
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((s) => (
              <TableRow key={s.id} data-testid={`received-${s.id}`}>
                <TableCell className="font-medium">{s.networkName}</TableCell>
                <TableCell>{platformLabel(s.platform)}</TableCell>
                <TableCell>
                  <Link to={connectionHref(s.sharedByNodeId)} className="hover:underline">
                    <Mono>{s.sharedByNodeId}</Mono>
                  </Link>
                </TableCell>
                <TableCell className="hidden text-muted-foreground md:table-cell" title={formatDateTime(s.createdAt)}>
                  {formatRelative(s.createdAt)}
                </TableCell>
                <TableCell>
                  <ShareStatusBadge status={s.status} />
                  {s.error && <p className="mt-1 max-w-xs text-xs text-destructive">{s.error}</p>}
                </TableCell>
                <TableCell className="text-right">
                  {canManage && canDecide(s) ? <Decide share={s} /> : <Imported share={s} />}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </QueryState>
  );
}
