import { Loader2Icon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { Mono } from "@/components/DetailField";
import { EmptyState, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useFabricRemoveNodeMutation } from "@/data/fabric-networks/fabric-network-membership-mutations";
import { useFabricJoinMutation } from "@/data/fabric-networks/fabric-network-mutations";
import { useFabricNetworkNodesQuery } from "@/data/fabric-networks/fabric-network-queries";
import type { FabricNetwork, FabricNetworkNode } from "@/data/fabric-networks/types";
import { showToast } from "@/lib/toast";
import { AddNodeToChannel } from "@/pages/networks/AddNodeToChannel";
import { JOIN_STATUS_VARIANT } from "@/pages/networks/fabric-network";
import { mspOf } from "@/pages/networks/FabricNetworkOrgTabs";

/**
 * The channel's members and where each join stands: join, retry, unjoin, and remove a member
 * that has not joined (a Pending row left by old data or a failed join).
 */
export function NodesTab({ n }: { n: FabricNetwork }): ReactElement {
  const members = useFabricNetworkNodesQuery(n.id);
  const join = useFabricJoinMutation(n.id);
  const remove = useFabricRemoveNodeMutation(n.id);
  const [leaving, setLeaving] = useState<FabricNetworkNode>();
  const [removing, setRemoving] = useState<FabricNetworkNode>();
  const leavingName = leaving?.node?.name ?? `node ${leaving?.nodeId}`;
  const removingName = removing?.node?.name ?? `node ${removing?.nodeId}`;
  return (
    <Card className="gap-0 py-0">
      <ConfirmDialog
        open={Boolean(removing)}
        onOpenChange={(o) => !o && setRemoving(undefined)}
        title={`Remove ${removingName} from ${n.name}?`}
        description={
          removing?.status === "failed"
            ? `Its join failed half-way, so ${removingName} leaves the channel first${removing.role === "peer" ? " (the peer is stopped, unjoined and started again)" : ""}; then it is taken out of the network. The node itself is kept.`
            : `${removingName} has not joined: it is taken out of the network record and nothing changes on the node.`
        }
        confirmLabel="Remove"
        pending={remove.isPending}
        onConfirm={() =>
          removing &&
          remove.mutate(
            { role: removing.role, nodeId: removing.nodeId },
            {
              onSuccess: () =>
                showToast("success", "Node removed", { description: `${removingName} is no longer in ${n.name}.` }),
              onSettled: () => setRemoving(undefined),
            },
          )
        }
      />
      <ConfirmDialog
        open={Boolean(leaving)}
        onOpenChange={(o) => !o && setLeaving(undefined)}
        title={`Unjoin ${leavingName}?`}
        description={
          leaving?.role === "peer"
            ? `Fabric removes a channel only from a stopped peer: ${leavingName} is stopped, ${n.name} is removed from its ledger (peer node unjoin), and it is started again.`
            : `${leavingName} leaves ${n.name} through its channel participation API and removes its copy of the ledger.`
        }
        confirmLabel="Unjoin"
        pending={join.isPending}
        onConfirm={() =>
          leaving &&
          join.mutate(
            { role: leaving.role, nodeId: leaving.nodeId, unjoin: true },
            { onSettled: () => setLeaving(undefined) },
          )
        }
      />
      <QueryState
        query={members}
        isEmpty={(d) => d.length === 0}
        empty={<EmptyState title="No nodes in this channel" description="Add a peer or orderer below." />}
      >
        {(d) => (
          <Table data-testid="network-nodes">
            <TableHeader>
              <TableRow>
                <TableHead>Node</TableHead>
                <TableHead>Role</TableHead>
                <TableHead className="hidden md:table-cell">MSP</TableHead>
                <TableHead>Join status</TableHead>
                <TableHead className="text-right">
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {d.map((m) => {
                const name = m.node?.name ?? `node ${m.nodeId}`;
                const busy = join.isPending && join.variables.nodeId === m.nodeId;
                return (
                  <TableRow key={m.id} data-testid={`member-row-${name}`} data-status={m.status}>
                    <TableCell>
                      {m.node ? (
                        <Link to={`/nodes/${m.nodeId}`} className="font-medium hover:underline">
                          {name}
                        </Link>
                      ) : (
                        <span className="text-muted-foreground">{name} (deleted)</span>
                      )}
                      {m.node?.endpoint && (
                        <Mono className="block text-xs text-muted-foreground">{m.node.endpoint}</Mono>
                      )}
                    </TableCell>
                    <TableCell className="capitalize">{m.role}</TableCell>
                    <TableCell className="hidden md:table-cell">{mspOf(m)}</TableCell>
                    <TableCell>
                      <Badge variant={JOIN_STATUS_VARIANT[m.status]} className="capitalize">
                        {m.status}
                      </Badge>
                      {m.error && m.status === "failed" && (
                        <p className="mt-1 max-w-sm text-xs break-words text-destructive">{m.error}</p>
                      )}
                    </TableCell>
                    <TableCell className="text-right">
                      <RoleGate denied={["viewer"]}>
                        {m.status === "joined" ? (
                          <Button
                            size="sm"
                            variant="outline"
                            disabled={busy || !m.node}
                            onClick={() => setLeaving(m)}
                            aria-label={`Unjoin ${name}`}
                          >
                            {busy && <Loader2Icon className="animate-spin" />} Unjoin
                          </Button>
                        ) : (
                          <span className="inline-flex gap-2">
                            <Button
                              size="sm"
                              disabled={busy || !m.node}
                              onClick={() => join.mutate({ role: m.role, nodeId: m.nodeId })}
                              aria-label={`Join ${name}`}
                            >
                              {busy && <Loader2Icon className="animate-spin" />}
                              {m.status === "failed" ? "Retry join" : "Join"}
                            </Button>
                            <Button
                              size="sm"
                              variant="outline"
                              disabled={busy || (remove.isPending && remove.variables.nodeId === m.nodeId)}
                              onClick={() => setRemoving(m)}
                              aria-label={`Remove ${name}`}
                            >
                              Remove
                            </Button>
                          </span>
                        )}
                      </RoleGate>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </QueryState>
      <RoleGate denied={["viewer"]}>
        <AddNodeToChannel networkId={n.id} members={members.data ?? []} />
      </RoleGate>
    </Card>
  );
}
