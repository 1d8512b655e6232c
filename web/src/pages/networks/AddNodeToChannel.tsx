import { Loader2Icon, PlusIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useFabricAddNodeMutation } from "@/data/fabric-networks/fabric-network-mutations";
import { useFabricChannelConfigQuery } from "@/data/fabric-networks/fabric-network-queries";
import type { FabricNetworkNode } from "@/data/fabric-networks/types";
import { useNodesQuery } from "@/data/nodes/nodes-query";
import { showToast } from "@/lib/toast";
import { addNodeChoices, blockedOrgs } from "@/pages/networks/channel-membership";
import { channelOrgsOf } from "@/pages/networks/fabric-network";

/**
 * "Add a node": this console's Fabric nodes not yet in the network. A peer whose org is not in the
 * channel is shown but can't be chosen; the reason and a way to add its org come with it.
 */
export function AddNodeToChannel({
  networkId,
  members,
}: {
  networkId: number;
  members: FabricNetworkNode[];
}): ReactElement {
  const nodes = useNodesQuery({ page: 1, limit: 1000, platform: "FABRIC" });
  const current = useFabricChannelConfigQuery(networkId, "current");
  const add = useFabricAddNodeMutation(networkId);
  const [nodeId, setNodeId] = useState("");
  const channelPeers = current.isSuccess ? channelOrgsOf(current.data.config).peer : undefined;
  const choices = addNodeChoices(
    nodes.data?.items ?? [],
    members.map((m) => m.nodeId),
    channelPeers,
  );
  const chosen = choices.find((c) => String(c.id) === nodeId && !c.blocked);
  const blocked = blockedOrgs(choices);
  return (
    <div className="grid gap-2 border-t px-5 py-4">
      <div className="flex flex-wrap items-end gap-2">
        <div className="grid min-w-56 gap-2">
          <Label htmlFor="add-node">Add a node</Label>
          <Select value={nodeId} onValueChange={setNodeId}>
            <SelectTrigger id="add-node" aria-label="Node to add">
              <SelectValue placeholder={choices.length ? "Choose a peer or orderer" : "No other Fabric nodes"} />
            </SelectTrigger>
            <SelectContent>
              {choices.map((c) => (
                <SelectItem key={c.id} value={String(c.id)} disabled={Boolean(c.blocked)}>
                  {c.name} ({c.role}){c.blocked ? `: ${c.blocked}` : ""}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <Button
          variant="outline"
          disabled={!chosen || add.isPending}
          onClick={() =>
            chosen &&
            add.mutate(
              { nodeId: chosen.id, role: chosen.role },
              {
                onSuccess: () => {
                  setNodeId("");
                  showToast("success", "Node added", { description: `${chosen.name} can now join the channel.` });
                },
              },
            )
          }
        >
          {add.isPending ? <Loader2Icon className="animate-spin" /> : <PlusIcon />} Add
        </Button>
      </div>
      {blocked.map((o) => (
        <p key={o.mspId} data-testid={`not-member-${o.mspId}`} className="text-sm text-muted-foreground">
          Peers of {o.mspId} can&apos;t join: the organization is not a member of the channel.{" "}
          {o.organizationId !== undefined && (
            <Link
              to={{ search: `?tab=organizations&addOrg=${o.organizationId}` }}
              className="text-primary hover:underline"
            >
              Add {o.mspId} to the channel first
            </Link>
          )}
        </p>
      ))}
    </div>
  );
}
