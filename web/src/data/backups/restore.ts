import { useMutation, useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type ResponseOf } from "@/api/client";
import type { paths } from "@/api/schema";
import { backupKeys } from "./backups";

export type TargetSnapshot = ResponseOf<"/backups/targets/{id}/snapshots", "get">[number];
export type RestoreResult = ResponseOf<"/backups/targets/{id}/restore", "post">;
export type RestoreBody = NonNullable<
  paths["/backups/targets/{id}/restore"]["post"]
>["requestBody"]["content"]["application/json"];

/** Under backupKeys.all, so every backup mutation (a new backup, a delete) refreshes the list. */
export const snapshotKeys = (targetId: number) => [...backupKeys.target(targetId), "snapshots"] as const;

/** The restic snapshots in a target's repository, newest first (read from the repository each time). */
export function useTargetSnapshotsQuery(targetId: number): UseQueryResult<TargetSnapshot[]> {
  return useQuery({
    queryKey: snapshotKeys(targetId),
    queryFn: () => unwrap(api.GET("/backups/targets/{id}/snapshots", { params: { path: { id: targetId } } })),
  });
}

/** Restores a snapshot into a new data directory on the console's host (admin-only on the server). */
export function useRestoreSnapshotMutation(targetId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RestoreBody) =>
      unwrap(api.POST("/backups/targets/{id}/restore", { params: { path: { id: targetId } }, body })),
    onSettled: () => qc.invalidateQueries({ queryKey: backupKeys.all }),
    // The form shows the server's message under the field it names; no toast on top of it.
    meta: { silent: true },
  });
}
