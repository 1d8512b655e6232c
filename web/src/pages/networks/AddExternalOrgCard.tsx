import { Loader2Icon, PlusIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { FieldError, Label } from "@/components/ui/label";
import { useExternalOrganizationsQuery } from "@/data/external-nodes/external-organizations-query";
import type { ExternalOrganization } from "@/data/external-nodes/types";
import { useFabricAddExternalOrgMutation } from "@/data/fabric-networks/fabric-network-add-external-org-mutation";
import { useFabricChannelConfigQuery } from "@/data/fabric-networks/fabric-network-queries";
import { useConnectedPeersQuery } from "@/data/federation/connected-peers-query";
import { errorMessage } from "@/lib/utils";
import { showToast } from "@/lib/toast";
import { sourceNodeId } from "@/pages/connect/federation-view";
import { channelOrgsOf } from "@/pages/networks/fabric-network";

/** External organizations that are not members of the channel yet (by MSP ID), in MSP ID order. */
export function addableExternalOrgs(
  orgs: readonly ExternalOrganization[],
  channelMspIds: readonly string[],
): ExternalOrganization[] {
  const members = new Set(channelMspIds);
  return orgs.filter((o) => !members.has(o.mspId)).sort((a, b) => a.mspId.localeCompare(b.mspId));
}

/**
 * "Add organization from a connected console": picks an external organization and adds it to the
 * channel's application orgs with one config update (its certificates come from the synced record).
 */
export function AddExternalOrgCard({ networkId }: { networkId: number }): ReactElement {
  const orgs = useExternalOrganizationsQuery();
  const current = useFabricChannelConfigQuery(networkId, "current");
  const peers = useConnectedPeersQuery();
  const add = useFabricAddExternalOrgMutation(networkId);
  const [chosen, setChosen] = useState("");
  const [error, setError] = useState<string>();
  const candidates = addableExternalOrgs(orgs.data ?? [], channelOrgsOf(current.data?.config).peer);
  const submit = (): void => {
    if (!chosen) return setError("Choose an organization");
    const org = candidates.find((o) => String(o.id) === chosen);
    setError(undefined);
    add.mutate(Number(chosen), {
      onSuccess: () => {
        showToast("success", "Organization added", {
          description: `${org?.mspId ?? "The organization"} is a member of the channel now. Share the network with its console so its peers can join.`,
        });
        setChosen("");
        void current.refetch();
      },
      onError: (e) => setError(errorMessage(e)),
    });
  };
  return (
    <Card data-testid="add-external-org">
      <CardHeader>
        <CardTitle className="text-base">Add organization from a connected console</CardTitle>
        <CardDescription>
          An organization synced from a connected console (External Nodes) joins the channel&apos;s application
          organizations, signed by this console&apos;s org admins.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2">
        {orgs.isPending ? (
          <p className="text-sm text-muted-foreground">Loading external organizations…</p>
        ) : orgs.isError ? (
          <p className="text-sm text-destructive">External organizations could not be loaded: {orgs.error.message}</p>
        ) : candidates.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            {(orgs.data ?? []).length === 0
              ? "No external organizations yet. Sync a connected console on "
              : "Every external organization is already a member. Sync a connected console on "}
            <Link to="/connect" className="text-primary hover:underline">
              Connect
            </Link>{" "}
            to bring in others.
          </p>
        ) : (
          <>
            <Label htmlFor="external-org">Organization</Label>
            <select
              id="external-org"
              className="h-9 rounded-md border bg-background px-3 text-sm"
              value={chosen}
              onChange={(e) => {
                setChosen(e.target.value);
                setError(undefined);
              }}
            >
              <option value="">Choose an external organization</option>
              {candidates.map((o) => {
                const from = sourceNodeId(o.externalNodeId, peers.data);
                return (
                  <option key={o.id} value={String(o.id)}>
                    {o.mspId} ({o.name}){from ? ` from ${from}` : ""}
                  </option>
                );
              })}
            </select>
          </>
        )}
        <FieldError message={error} />
      </CardContent>
      <CardFooter className="justify-end pt-4">
        <Button onClick={submit} disabled={add.isPending || candidates.length === 0}>
          {add.isPending ? <Loader2Icon className="animate-spin" /> : <PlusIcon />}
          Add to channel
        </Button>
      </CardFooter>
    </Card>
  );
}
