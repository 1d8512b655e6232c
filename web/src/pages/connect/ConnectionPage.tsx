import { Loader2Icon, RefreshCwIcon, UnplugIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { useParams } from "react-router";
import { ApiError } from "@/api/errors";
import { RoleGate } from "@/app/RoleGate";
import { OPERATORS } from "@/app/roles";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { DetailField, Mono } from "@/components/DetailField";
import { ErrorState, PageHeader, PageSkeleton } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { useConnectedPeersQuery } from "@/data/federation/connected-peers-query";
import { usePeerDisconnectMutation } from "@/data/federation/peer-disconnect-mutation";
import { useSyncExternalNodesMutation } from "@/data/federation/sync-mutation";
import type { ConnectedPeer } from "@/data/federation/types";
import { showToast } from "@/lib/toast";
import { formatDateTime, formatRelative } from "@/lib/utils";
import { ConnectionStatusBadge } from "@/pages/connect/ConnectionStatusBadge";
import { isActive, syncMessage, syncSummary } from "@/pages/connect/federation-view";
import { MetricsFederationCard } from "@/pages/connect/MetricsFederationCard";
import { PeerNodesCard } from "@/pages/connect/PeerNodesCard";

function Actions({ peer }: { peer: ConnectedPeer }): ReactElement | null {
  const sync = useSyncExternalNodesMutation();
  const disconnect = usePeerDisconnectMutation();
  const [confirming, setConfirming] = useState(false);
  if (!isActive(peer)) return null;
  return (
    <>
      <Button
        variant="outline"
        disabled={sync.isPending}
        onClick={() =>
          sync.mutate(peer.node_id, {
            onSuccess: (r) => showToast("success", "External nodes synced", { description: syncMessage(r) }),
          })
        }
      >
        {sync.isPending ? <Loader2Icon className="animate-spin" /> : <RefreshCwIcon />}
        Sync external nodes
      </Button>
      <Button variant="destructive" onClick={() => setConfirming(true)}>
        <UnplugIcon /> Disconnect
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Disconnect this console?"
        description="Both consoles stop accepting each other's messages, and the other console is told now. Its external nodes stay here until you delete them. Connecting again takes a new invitation."
        confirmLabel="Disconnect"
        pending={disconnect.isPending}
        onConfirm={() =>
          disconnect.mutate(peer.node_id, {
            onSuccess: (message) => {
              showToast("success", "Disconnected", { description: message });
              setConfirming(false);
            },
            onError: () => setConfirming(false),
          })
        }
      />
      {sync.data && (
        <div role="status" data-testid="sync-result" className="basis-full text-right text-sm text-muted-foreground">
          Last sync: {syncSummary(sync.data).join("; ") || "nothing added or deleted"}
          {sync.data.errors.length > 0 && ` (${sync.data.errors.length} could not be stored)`}
        </div>
      )}
    </>
  );
}

/** One connected console: its details and live status, its nodes, sync and disconnect. */
export function ConnectionPage(): ReactElement {
  const { id = "" } = useParams();
  const peers = useConnectedPeersQuery();
  if (peers.isPending) return <PageSkeleton />;
  if (peers.isError) return <ErrorState error={peers.error} onRetry={() => void peers.refetch()} />;
  const peer = peers.data.find((p) => p.node_id === id);
  if (!peer) return <ErrorState error={new ApiError(404, "NOT_FOUND", `no connection to ${id}`)} />;
  return (
    <div>
      <PageHeader
        title={peer.node_id}
        description={peer.peer_endpoint}
        actions={
          <RoleGate allowed={OPERATORS}>
            <Actions peer={peer} />
          </RoleGate>
        }
      />
      <div className="space-y-6">
        <Card>
          <CardContent>
            <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
              <DetailField label="Status">
                <ConnectionStatusBadge status={peer.status} />
              </DetailField>
              <DetailField label="Last seen">
                {peer.last_seen_at ? (
                  <span title={formatDateTime(peer.last_seen_at)}>{formatRelative(peer.last_seen_at)}</span>
                ) : (
                  "Never"
                )}
              </DetailField>
              <DetailField label="Endpoint">
                <Mono>{peer.peer_endpoint}</Mono>
              </DetailField>
              <DetailField label="Connection ID">{peer.id}</DetailField>
              <DetailField label="Public key (Ed25519)" className="sm:col-span-2">
                <Mono>{peer.peer_public_key}</Mono>
              </DetailField>
              {peer.last_error && (
                <DetailField label={peer.status === "revoked" ? "Reason" : "Last error"} className="sm:col-span-2">
                  <span className="font-normal text-muted-foreground">{peer.last_error}</span>
                </DetailField>
              )}
            </dl>
          </CardContent>
        </Card>
        <MetricsFederationCard peer={peer} />
        <PeerNodesCard peer={peer} />
      </div>
    </div>
  );
}
