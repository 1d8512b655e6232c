import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { fabricNetworkKeys } from "@/data/fabric-networks/keys";
import type {
  ExternalAddOrgOperation,
  FabricUpdateConfigBody,
  FabricUpdateConfigResult,
} from "@/data/fabric-networks/types";

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
    mutationFn: (externalOrganizationId: number) => {
      const op: ExternalAddOrgOperation = {
        type: "add_org",
        payload: { external_organization_id: externalOrganizationId },
      };
      // The cast goes once the generated operation union has this payload (see ExternalAddOrgOperation).
      const body = { operations: [op] } as unknown as FabricUpdateConfigBody;
      return unwrap(api.POST("/networks/fabric/{id}/update-config", { params: { path: { id: networkId } }, body }));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: fabricNetworkKeys.all }),
    meta: { silent: true },
  });
}
