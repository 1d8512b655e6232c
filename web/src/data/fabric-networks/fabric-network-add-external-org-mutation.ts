import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { fabricNetworkKeys } from "@/data/fabric-networks/keys";
import type { FabricUpdateConfigResult } from "@/data/fabric-networks/types";

/**
 * Adds an external organization (synced from a connected console) to the channel as a config
 * update; the server reads its MSP ID and CA certificates from the stored record. Silent: the card
 * shows the refusal (not an admin of enough orgs, already a member, unknown id) next to the field.
 */
export function useFabricAddExternalOrgMutation(
  networkId: number,
): UseMutationResult<FabricUpdateConfigResult, Error, number> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (externalOrganizationId: number) =>
      unwrap(
        api.POST("/networks/fabric/{id}/update-config", {
          params: { path: { id: networkId } },
          body: { operations: [{ type: "add_org", payload: { external_organization_id: externalOrganizationId } }] },
        }),
      ),
    onSettled: () => qc.invalidateQueries({ queryKey: fabricNetworkKeys.all }),
    meta: { silent: true },
  });
}
