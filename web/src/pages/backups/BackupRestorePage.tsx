import { ArchiveRestoreIcon, ArrowLeftIcon, Loader2Icon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link, useParams } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { useLiveEvent } from "@/app/notifications/NotificationsProvider";
import { CopyButton } from "@/components/CopyButton";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { sizeMB, useTargetQuery } from "@/data/backups/backups";
import {
  useRestoreSnapshotMutation,
  useTargetSnapshotsQuery,
  type RestoreResult,
  type TargetSnapshot,
} from "@/data/backups/restore";
import { errorMessage, formatDateTime } from "@/lib/utils";

/** A restore writes a snapshot onto the console's host: admins only (BACKUP_RESTORE on the server). */
const ADMIN = ["admin"] as const;

/** What the console can't do live, said once on the screen (docs/backups.md says the same). */
function InPlaceNote(): ReactElement {
  return (
    <Card className="gap-2 p-4 text-sm" data-testid="in-place-note">
      <h2 className="font-medium">Restoring this console in place</h2>
      <p className="text-muted-foreground">
        A running console is not restored over itself: its database is open, its nodes write to their ledgers and its
        keys are in memory, so files replaced under it would be overwritten or half-read. To go back to a snapshot:
      </p>
      <ol className="list-decimal space-y-1 pl-5 text-muted-foreground">
        <li>Restore the snapshot here into a new directory.</li>
        <li>Stop this console (and its nodes).</li>
        <li>
          Start a console on the new directory with the command shown after the restore, or move the old data directory
          aside and the restored one into its place.
        </li>
        <li>Keep the old directory until the restored console runs as it should.</li>
      </ol>
    </Card>
  );
}

function RestoreForm({
  targetId,
  snapshot,
  onDone,
}: {
  targetId: number;
  snapshot: TargetSnapshot;
  onDone: (r: RestoreResult) => void;
}): ReactElement {
  const [dataDir, setDataDir] = useState("");
  const [recoveryKey, setRecoveryKey] = useState("");
  const restore = useRestoreSnapshotMutation(targetId);
  const [steps, setSteps] = useState<string[]>([]);
  // The server reports each step to the admin who asked; only this target's restore into this directory is shown.
  useLiveEvent("backup.restore.progress", (e) => {
    const d = e.data as { target_id: number; data_dir: string; line: string };
    if (restore.isPending && d.target_id === targetId && d.data_dir === dataDir.trim().replace(/(.)\/+$/, "$1")) {
      setSteps((prev) => [...prev, d.line]);
    }
  });
  return (
    <Card className="gap-3 p-4" data-testid="restore-form">
      <h2 className="font-medium">
        Restore snapshot <span className="font-mono">{snapshot.shortId}</span> of {formatDateTime(snapshot.time)}
      </h2>
      <div className="flex flex-col gap-1">
        <Label htmlFor="restore-data-dir">New data directory</Label>
        <Input
          id="restore-data-dir"
          placeholder="/var/lib/chainlaunch-restored"
          value={dataDir}
          onChange={(e) => setDataDir(e.target.value)}
          className="font-mono"
        />
        <p className="text-xs text-muted-foreground">
          An absolute path on the console&apos;s host that does not exist yet or is empty; never this console&apos;s
          data directory.
        </p>
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="restore-recovery-key">Recovery key (optional)</Label>
        <Input
          id="restore-recovery-key"
          type="password"
          autoComplete="off"
          value={recoveryKey}
          onChange={(e) => setRecoveryKey(e.target.value)}
        />
        <p className="text-xs text-muted-foreground">
          Only for a snapshot made with another master key than this console&apos;s.
        </p>
      </div>
      <div>
        <Button
          disabled={restore.isPending || !dataDir.trim()}
          onClick={() => {
            setSteps([]);
            restore.mutate(
              {
                snapshotId: snapshot.id,
                dataDir: dataDir.trim(),
                ...(recoveryKey.trim() ? { recoveryKey: recoveryKey.trim() } : {}),
              },
              { onSuccess: onDone },
            );
          }}
        >
          {restore.isPending ? <Loader2Icon className="animate-spin" /> : <ArchiveRestoreIcon />} Restore
        </Button>
      </div>
      {restore.isPending ? (
        <p className="text-sm text-muted-foreground" role="status" data-testid="restore-progress">
          Restoring into {dataDir.trim()}: restic restores the snapshot, every file is checked against the backup&apos;s
          manifest, then the database and paths are set up for the new directory…
        </p>
      ) : null}
      {restore.isPending && steps.length ? (
        <ul className="font-mono text-xs text-muted-foreground" data-testid="restore-steps">
          {steps.map((line, i) => (
            <li key={i}>{line}</li>
          ))}
        </ul>
      ) : null}
      {restore.error ? (
        <p role="alert" className="text-sm text-destructive" data-testid="restore-error">
          {errorMessage(restore.error)}
        </p>
      ) : null}
    </Card>
  );
}

function RestoreDone({ result }: { result: RestoreResult }): ReactElement {
  return (
    <Card className="gap-3 p-4" data-testid="restore-result">
      <div className="flex items-center gap-2">
        <Badge>restored</Badge>
        <span className="text-sm">{result.summary}</span>
      </div>
      <p className="text-sm">
        Into <span className="font-mono">{result.dataDir}</span>
        {result.masterKey === "file"
          ? " with its master key (master.key)."
          : ": give the console the master key in CHAINLAUNCH_MASTER_KEY."}
      </p>
      <div className="flex flex-col gap-1">
        <Label>Start a console on it</Label>
        <div className="flex items-start gap-2">
          <pre
            className="min-w-0 flex-1 overflow-x-auto rounded-md bg-muted p-2 font-mono text-xs"
            data-testid="start-command"
          >
            {result.startCommand}
          </pre>
          <CopyButton value={result.startCommand} />
        </div>
        <p className="text-xs text-muted-foreground" data-testid="port-hint">
          {result.portHint}
        </p>
      </div>
      <details>
        <summary className="cursor-pointer text-xs text-muted-foreground">What the restore did</summary>
        <pre className="mt-1 overflow-x-auto text-xs">{result.log.join("\n")}</pre>
      </details>
    </Card>
  );
}

/** settings/backups/targets/{id}/restore: a target's snapshots, one restored into a new data directory. */
export function BackupRestorePage(): ReactElement {
  const id = Number(useParams().id);
  const target = useTargetQuery(id);
  const snapshots = useTargetSnapshotsQuery(id);
  const [chosen, setChosen] = useState<TargetSnapshot | undefined>(undefined);
  const [result, setResult] = useState<RestoreResult | undefined>(undefined);
  return (
    <div className="flex max-w-4xl flex-col gap-4">
      <PageHeader
        title={`Restore from ${target.data?.name ?? "backup target"}`}
        description="The snapshots in this target's restic repository. A restore writes into a new data directory for another console; this one keeps running."
        actions={
          <Button asChild variant="outline">
            <Link to="/settings/backups">
              <ArrowLeftIcon /> Backups
            </Link>
          </Button>
        }
      />
      <Card className="py-0">
        <QueryState
          query={snapshots}
          isEmpty={(d) => d.length === 0}
          empty={<EmptyState icon={ArchiveRestoreIcon} title="No snapshots in this repository yet" />}
        >
          {(list) => (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Snapshot</TableHead>
                  <TableHead>Taken</TableHead>
                  <TableHead>Size</TableHead>
                  <TableHead>Backup</TableHead>
                  <TableHead>Host</TableHead>
                  <TableHead>Tags</TableHead>
                  <TableHead />
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.map((s) => (
                  <TableRow key={s.id} data-testid={`snapshot-${s.shortId}`}>
                    <TableCell className="font-mono text-xs">{s.shortId}</TableCell>
                    <TableCell>{formatDateTime(s.time)}</TableCell>
                    <TableCell>{sizeMB(s.sizeBytes)}</TableCell>
                    <TableCell>{s.backupId !== null ? `#${s.backupId}` : "—"}</TableCell>
                    <TableCell>{s.hostname}</TableCell>
                    <TableCell className="text-xs text-muted-foreground">{s.tags.join(", ")}</TableCell>
                    <TableCell className="text-right">
                      <RoleGate allowed={ADMIN}>
                        <Button
                          size="sm"
                          variant={chosen?.id === s.id ? "default" : "outline"}
                          aria-label={`Restore ${s.shortId}`}
                          onClick={() => {
                            setChosen(s);
                            setResult(undefined);
                          }}
                        >
                          Restore…
                        </Button>
                      </RoleGate>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </QueryState>
      </Card>
      {chosen ? (
        <RoleGate allowed={ADMIN}>
          <RestoreForm key={chosen.id} targetId={id} snapshot={chosen} onDone={setResult} />
        </RoleGate>
      ) : null}
      {result ? <RestoreDone result={result} /> : null}
      <InPlaceNote />
    </div>
  );
}
