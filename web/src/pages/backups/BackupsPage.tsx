import { DatabaseBackupIcon, PlusIcon } from "lucide-react";
import { useEffect, useState, type ReactElement } from "react";
import { Link } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { RoleGate } from "@/app/RoleGate";
import { OPERATORS } from "@/app/roles";
import { RecoveryKeyCard } from "./components/RecoveryKeyCard";
import { useLiveEvent } from "@/app/notifications/NotificationsProvider";
import { OperationProgress } from "@/components/OperationProgress";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { ConfirmButton } from "@/components/ConfirmDialog";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import {
  backupKeys,
  sizeMB,
  useBackupNowMutation,
  useBackupsQuery,
  useCreateScheduleMutation,
  useCronPreviewQuery,
  useDeleteBackupMutation,
  useDeleteScheduleMutation,
  useScheduleEnabledMutation,
  useSchedulesQuery,
  useTargetsQuery,
  useVerifyMutation,
  type Backup,
  type BackupTarget,
} from "@/data/backups/backups";
import { showMutationError } from "@/data/error-toast";
import { showToast } from "@/lib/toast";
import { formatDateTime } from "@/lib/utils";

const SELECT = "h-9 w-full rounded-md border bg-transparent px-3 text-sm";
/** Targets (where the data goes), the recovery key and restore drills are admin-only on the server. */
const ADMIN = ["admin"] as const;

function StatusBadge({ status }: { status: string | null }): ReactElement | null {
  if (!status) return null;
  const variant =
    status === "failed" ? "destructive" : status === "completed" || status === "verified" ? "default" : "secondary";
  return <Badge variant={variant}>{status}</Badge>;
}

/** A row's Delete, after a confirmation that says what goes. */
function DeleteButton(props: {
  question: string;
  description: string;
  onConfirm: () => void;
  disabled?: boolean;
}): ReactElement {
  return (
    <ConfirmButton
      size="sm"
      variant="ghost"
      disabled={props.disabled}
      title={props.question}
      description={props.description}
      confirmLabel="Delete"
      onConfirm={props.onConfirm}
    >
      Delete
    </ConfirmButton>
  );
}

/** "Back up now" with the target to use; live progress shows on the row. */
function BackupNow({ targets }: { targets: BackupTarget[] }): ReactElement {
  const [chosen, setChosen] = useState<number | undefined>(undefined);
  // What the select shows is what runs: the one picked while it still exists, else the first. (Kept as a
  // choice, not a copy of targets[0] made at mount, which stayed undefined when the first target arrived later.)
  const targetId = targets.some((t) => t.id === chosen) ? chosen : targets[0]?.id;
  const run = useBackupNowMutation();
  if (!targets.length) return <p className="text-sm text-muted-foreground">Add a target to back up to.</p>;
  return (
    <div className="flex items-center gap-2">
      <select
        aria-label="Backup target"
        className={SELECT}
        value={targetId}
        onChange={(e) => setChosen(Number(e.target.value))}
      >
        {targets.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>
      <Button
        disabled={run.isPending || targetId === undefined}
        onClick={() =>
          targetId !== undefined &&
          run.mutate(targetId, {
            onSuccess: () => showToast("success", "Backup started"),
            onError: showMutationError,
          })
        }
      >
        <DatabaseBackupIcon /> Back up now
      </Button>
    </div>
  );
}

function BackupsTab({ targets }: { targets: BackupTarget[] }): ReactElement {
  const backups = useBackupsQuery();
  const qc = useQueryClient();
  const verify = useVerifyMutation();
  const remove = useDeleteBackupMutation();
  // Progress ticks refetch nothing (live-invalidation.ts); the end of a backup does. A verify's
  // events refetch through the shared `backup` prefix.
  useLiveEvent("backup.progress", (e) => {
    if ((e.data as { status: string }).status !== "running") void qc.invalidateQueries({ queryKey: backupKeys.list() });
  });
  return (
    <Card className="py-0">
      <div className="flex justify-end border-b p-3">
        <RoleGate allowed={OPERATORS}>
          <BackupNow targets={targets} />
        </RoleGate>
      </div>
      <QueryState
        query={backups}
        isEmpty={(d) => d.length === 0}
        empty={<EmptyState icon={DatabaseBackupIcon} title="No backups yet" />}
      >
        {(list: Backup[]) => (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Target</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Size</TableHead>
                <TableHead>Duration</TableHead>
                <TableHead>Snapshot</TableHead>
                <TableHead>Verification</TableHead>
                <TableHead>Started</TableHead>
                <TableHead />
              </TableRow>
            </TableHeader>
            <TableBody>
              {list.map((b) => (
                <TableRow key={b.id} data-testid={`backup-${b.id}`}>
                  <TableCell>{b.targetName}</TableCell>
                  <TableCell>
                    <StatusBadge status={b.status} />
                    {b.status === "running" && (
                      <OperationProgress resource={`backup:${b.id}`} runningOnly className="mt-1" />
                    )}
                    {b.errorMessage ? <p className="text-xs text-destructive">{b.errorMessage}</p> : null}
                  </TableCell>
                  <TableCell>{sizeMB(b.sizeBytes)}</TableCell>
                  <TableCell>{b.durationMs !== null ? `${(b.durationMs / 1000).toFixed(1)} s` : "—"}</TableCell>
                  <TableCell className="font-mono text-xs">{b.snapshotId?.slice(0, 8) ?? "—"}</TableCell>
                  <TableCell>
                    <StatusBadge status={b.verificationStatus} />
                    {b.verificationError ? <p className="text-xs text-destructive">{b.verificationError}</p> : null}
                  </TableCell>
                  <TableCell>{formatDateTime(b.startedAt)}</TableCell>
                  <TableCell className="text-right">
                    {/* A drill restores the snapshot onto this host: admins only (BACKUP_RESTORE). */}
                    <RoleGate allowed={ADMIN}>
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={b.status !== "completed" || b.verificationStatus === "running"}
                        onClick={() => verify.mutate(b.id, { onError: showMutationError })}
                      >
                        Verify
                      </Button>{" "}
                    </RoleGate>
                    <RoleGate allowed={OPERATORS}>
                      <DeleteButton
                        disabled={b.status === "pending" || b.status === "running"}
                        question={`Delete the backup to ${b.targetName} of ${formatDateTime(b.startedAt)}?`}
                        description={`The record goes and its snapshot${b.snapshotId ? ` ${b.snapshotId.slice(0, 8)}` : ""} is forgotten in the repository; it can't be restored afterwards.`}
                        onConfirm={() => remove.mutate(b.id, { onError: showMutationError })}
                      />
                    </RoleGate>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </QueryState>
    </Card>
  );
}

/** The cron field's live preview: the next five times in local time, or the parser's message. */
export function CronPreview({ expression }: { expression: string }): ReactElement | null {
  const [debounced, setDebounced] = useState(expression);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(expression), 300);
    return () => clearTimeout(t);
  }, [expression]);
  const preview = useCronPreviewQuery(debounced);
  if (!debounced.trim() || !preview.data) return null;
  if (!preview.data.valid) {
    return (
      <p role="alert" className="text-xs text-destructive" data-testid="cron-error">
        {preview.data.error}
      </p>
    );
  }
  return (
    <ul className="text-xs text-muted-foreground" data-testid="cron-preview">
      {preview.data.nextExecutions.map((t) => (
        <li key={t}>{new Date(t).toLocaleString()}</li>
      ))}
    </ul>
  );
}

function SchedulesTab({ targets }: { targets: BackupTarget[] }): ReactElement {
  const schedules = useSchedulesQuery();
  const create = useCreateScheduleMutation();
  const remove = useDeleteScheduleMutation();
  const toggle = useScheduleEnabledMutation();
  const [name, setName] = useState("");
  const [cron, setCron] = useState("0 0 * * *");
  const [retention, setRetention] = useState(30);
  const [chosen, setChosen] = useState<number | undefined>(undefined);
  // As in BackupNow: the target shown is the one used, also when the first target arrives after mount.
  const targetId = targets.some((t) => t.id === chosen) ? chosen : targets[0]?.id;
  const targetName = (id: number) => targets.find((t) => t.id === id)?.name ?? `#${id}`;
  return (
    <div className="flex flex-col gap-4">
      <RoleGate allowed={OPERATORS}>
        <Card className="grid gap-3 p-4 sm:grid-cols-2">
          <div className="flex flex-col gap-1">
            <Label htmlFor="schedule-name">Name</Label>
            <Input id="schedule-name" value={name} onChange={(e) => setName(e.target.value)} />
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="schedule-target">Target</Label>
            <select
              id="schedule-target"
              className={SELECT}
              value={targetId}
              onChange={(e) => setChosen(Number(e.target.value))}
            >
              {targets.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="schedule-cron">Cron expression</Label>
            <Input id="schedule-cron" value={cron} onChange={(e) => setCron(e.target.value)} className="font-mono" />
            <CronPreview expression={cron} />
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="schedule-retention">Retention (days)</Label>
            <Input
              id="schedule-retention"
              type="number"
              min={1}
              value={retention}
              onChange={(e) => setRetention(Number(e.target.value))}
            />
          </div>
          <div className="sm:col-span-2">
            <Button
              disabled={create.isPending || !name.trim() || targetId === undefined}
              onClick={() =>
                targetId !== undefined &&
                create.mutate(
                  { name: name.trim(), cronExpression: cron, retentionDays: retention, targetId },
                  {
                    onSuccess: () => {
                      showToast("success", `Schedule ${name.trim()} added`, {
                        description: `Runs at "${cron}" on ${targetName(targetId)}; backups kept ${retention} days.`,
                      });
                      setName("");
                    },
                    onError: showMutationError,
                  },
                )
              }
            >
              <PlusIcon /> Add schedule
            </Button>
          </div>
        </Card>
      </RoleGate>
      <Card className="py-0">
        <QueryState
          query={schedules}
          isEmpty={(d) => d.length === 0}
          empty={<EmptyState icon={DatabaseBackupIcon} title="No schedules" />}
        >
          {(list) => (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Name</TableHead>
                  <TableHead>Cron</TableHead>
                  <TableHead>Target</TableHead>
                  <TableHead>Retention</TableHead>
                  <TableHead>Next run</TableHead>
                  <TableHead>Last run</TableHead>
                  <TableHead>Enabled</TableHead>
                  <TableHead />
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.map((s) => (
                  <TableRow key={s.id}>
                    <TableCell>{s.name}</TableCell>
                    <TableCell className="font-mono text-xs">{s.cronExpression}</TableCell>
                    <TableCell>{targetName(s.targetId)}</TableCell>
                    <TableCell>{s.retentionDays} d</TableCell>
                    <TableCell>{formatDateTime(s.nextRunAt)}</TableCell>
                    <TableCell>{formatDateTime(s.lastRunAt)}</TableCell>
                    <TableCell>
                      <RoleGate allowed={OPERATORS} fallback={<span>{s.enabled ? "yes" : "no"}</span>}>
                        <input
                          type="checkbox"
                          aria-label={`Enable ${s.name}`}
                          checked={s.enabled}
                          onChange={(e) =>
                            toggle.mutate(
                              { id: s.id, enabled: e.target.checked },
                              {
                                onSuccess: (_r, v) =>
                                  showToast("success", `Schedule ${s.name} ${v.enabled ? "enabled" : "disabled"}`, {
                                    description: v.enabled
                                      ? "It runs again at its next time."
                                      : "It makes no backups until enabled.",
                                  }),
                                onError: showMutationError,
                              },
                            )
                          }
                        />
                      </RoleGate>
                    </TableCell>
                    <TableCell className="text-right">
                      <RoleGate allowed={OPERATORS}>
                        <DeleteButton
                          question={`Delete schedule ${s.name}?`}
                          description="It makes no more backups; the backups it made stay."
                          onConfirm={() => remove.mutate(s.id, { onError: showMutationError })}
                        />
                      </RoleGate>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </QueryState>
      </Card>
    </div>
  );
}

function TargetsTab(): ReactElement {
  const targets = useTargetsQuery();
  return (
    <Card className="py-0">
      <QueryState
        query={targets}
        isEmpty={(d) => d.length === 0}
        empty={<EmptyState icon={DatabaseBackupIcon} title="No targets" />}
      >
        {(list) => (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Type</TableHead>
                <TableHead>Location</TableHead>
                <TableHead>Updated</TableHead>
                <TableHead />
              </TableRow>
            </TableHeader>
            <TableBody>
              {list.map((t) => (
                <TableRow key={t.id}>
                  <TableCell>
                    <Link to={`/settings/backups/targets/${t.id}`} className="font-medium hover:underline">
                      {t.name}
                    </Link>
                  </TableCell>
                  <TableCell>
                    <Badge variant="secondary">{t.type}</Badge>
                  </TableCell>
                  <TableCell className="font-mono text-xs">
                    {t.type === "S3" ? `${t.endpoint || "AWS"}/${t.bucketName}/${t.bucketPath}` : t.bucketPath}
                  </TableCell>
                  <TableCell>{formatDateTime(t.updatedAt)}</TableCell>
                  <TableCell className="text-right">
                    <Link to={`/settings/backups/targets/${t.id}/restore`} className="text-sm hover:underline">
                      Snapshots &amp; restore
                    </Link>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </QueryState>
    </Card>
  );
}

/** settings/backups: backups (with "Back up now" and live progress), schedules and targets. */
export function BackupsPage(): ReactElement {
  const targets = useTargetsQuery();
  const list = targets.data ?? [];
  return (
    <div>
      <PageHeader
        title="Backups"
        description="restic snapshots of the database, keys, node files and ledgers, on S3 or a local directory."
        actions={
          <RoleGate allowed={ADMIN}>
            <Button asChild>
              <Link to="/settings/backups/targets/create">
                <PlusIcon /> Add target
              </Link>
            </Button>
          </RoleGate>
        }
      />
      <RecoveryKeyCard />
      <Tabs defaultValue="backups">
        <TabsList>
          <TabsTrigger value="backups">Backups</TabsTrigger>
          <TabsTrigger value="schedules">Schedules</TabsTrigger>
          <TabsTrigger value="targets">Targets</TabsTrigger>
        </TabsList>
        <TabsContent value="backups">{targets.isPending ? null : <BackupsTab targets={list} />}</TabsContent>
        <TabsContent value="schedules">{targets.isPending ? null : <SchedulesTab targets={list} />}</TabsContent>
        <TabsContent value="targets">
          <TargetsTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}
