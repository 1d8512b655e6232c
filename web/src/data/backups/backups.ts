import { useMutation, useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type ResponseOf } from "@/api/client";
import type { paths } from "@/api/schema";
import { megabytes } from "@/lib/units";

export type Backup = ResponseOf<"/backups/{id}", "get">;
export type BackupTarget = ResponseOf<"/backups/targets/{id}", "get">;
export type BackupSchedule = ResponseOf<"/backups/schedules/{id}", "get">;
export type RecoveryStatus = ResponseOf<"/backups/recovery-key", "get">;
export type TargetBody = NonNullable<paths["/backups/targets"]["post"]>["requestBody"]["content"]["application/json"];
export type ScheduleBody = NonNullable<
  paths["/backups/schedules"]["post"]
>["requestBody"]["content"]["application/json"];

export const backupKeys = {
  all: ["backups"] as const,
  list: () => [...backupKeys.all, "list"] as const,
  targets: () => [...backupKeys.all, "targets"] as const,
  target: (id: number) => [...backupKeys.all, "targets", id] as const,
  schedules: () => [...backupKeys.all, "schedules"] as const,
  recovery: () => [...backupKeys.all, "recovery-key"] as const,
  preview: (expr: string) => [...backupKeys.all, "preview", expr] as const,
};

const busy = (b: Backup): boolean =>
  b.status === "pending" || b.status === "running" || b.verificationStatus === "running";

/** Backups, newest first; polled every 2 s while one runs or is being verified. */
export function useBackupsQuery(): UseQueryResult<Backup[]> {
  return useQuery({
    queryKey: backupKeys.list(),
    queryFn: () => unwrap(api.GET("/backups")),
    refetchInterval: (q) => (q.state.data?.some(busy) ? 2000 : false),
  });
}

export function useTargetsQuery(): UseQueryResult<BackupTarget[]> {
  return useQuery({ queryKey: backupKeys.targets(), queryFn: () => unwrap(api.GET("/backups/targets")) });
}

export function useTargetQuery(id: number): UseQueryResult<BackupTarget> {
  return useQuery({
    queryKey: backupKeys.target(id),
    queryFn: () => unwrap(api.GET("/backups/targets/{id}", { params: { path: { id } } })),
  });
}

export function useSchedulesQuery(): UseQueryResult<BackupSchedule[]> {
  return useQuery({ queryKey: backupKeys.schedules(), queryFn: () => unwrap(api.GET("/backups/schedules")) });
}

/** Whether the backup recovery key exists, and its fingerprint (never the key). */
export function useRecoveryStatusQuery(): UseQueryResult<RecoveryStatus> {
  return useQuery({ queryKey: backupKeys.recovery(), queryFn: () => unwrap(api.GET("/backups/recovery-key")) });
}

/** The next run times of a cron expression, or the parser's message (valid=false). */
export function useCronPreviewQuery(expr: string) {
  return useQuery({
    queryKey: backupKeys.preview(expr),
    queryFn: () => unwrap(api.POST("/backups/cron/preview", { body: { cronExpression: expr, count: 5 } })),
    enabled: expr.trim().length > 0,
  });
}

/** Every backup mutation refreshes all backup lists. */
function useBackupMutation<V, R>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: backupKeys.all }) });
}

export const useBackupNowMutation = () =>
  useBackupMutation((targetId: number) => unwrap(api.POST("/backups", { body: { targetId } })));
export const useVerifyMutation = () =>
  useBackupMutation((id: number) => unwrap(api.POST("/backups/{id}/verify", { params: { path: { id } } })));
export const useDeleteBackupMutation = () =>
  useBackupMutation((id: number) => unwrap(api.DELETE("/backups/{id}", { params: { path: { id } } })));
export const useCreateTargetMutation = () =>
  useBackupMutation((body: TargetBody) => unwrap(api.POST("/backups/targets", { body })));
export const useUpdateTargetMutation = (id: number) =>
  useBackupMutation((body: TargetBody) => unwrap(api.PUT("/backups/targets/{id}", { params: { path: { id } }, body })));
export const useDeleteTargetMutation = () =>
  useBackupMutation((id: number) => unwrap(api.DELETE("/backups/targets/{id}", { params: { path: { id } } })));
export const useTestTargetMutation = () =>
  useMutation({
    mutationFn: (body: TargetBody & { id?: number }) => unwrap(api.POST("/backups/targets/test", { body })),
  });
/** Makes (or, with replace, replaces) the recovery key; the answer holds the key, shown this once. */
export const useCreateRecoveryKeyMutation = () =>
  useBackupMutation((replace: boolean) => unwrap(api.POST("/backups/recovery-key", { body: { replace } })));
export const useCreateScheduleMutation = () =>
  useBackupMutation((body: ScheduleBody) => unwrap(api.POST("/backups/schedules", { body })));
export const useDeleteScheduleMutation = () =>
  useBackupMutation((id: number) => unwrap(api.DELETE("/backups/schedules/{id}", { params: { path: { id } } })));
export const useScheduleEnabledMutation = () =>
  useBackupMutation(({ id, enabled }: { id: number; enabled: boolean }) =>
    enabled
      ? unwrap(api.PUT("/backups/schedules/{id}/enable", { params: { path: { id } } }))
      : unwrap(api.PUT("/backups/schedules/{id}/disable", { params: { path: { id } } })),
  );

/** Bytes as MB with 2 decimals, the unit the backup notifications use too (`lib/units`). */
export function sizeMB(bytes: number | null | undefined): string {
  return bytes === null || bytes === undefined ? "—" : `${megabytes(bytes)} MB`;
}
