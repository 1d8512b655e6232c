import type { BusEvent } from "../../events/bus.js";
import type { OperationHandle, Operations } from "./operations.js";

/** A backup's phases as the backups module reports them (`backup.progress`), in their order. */
export const BACKUP_PHASES = ["starting", "database", "files", "nodes", "checksums", "upload"] as const;

interface BackupProgress {
  backup_id?: unknown;
  target_name?: unknown;
  status?: unknown;
  phase?: unknown;
  percent?: unknown;
  error?: unknown;
}

/**
 * Turns the backups module's own `backup.progress` events into a `backup` operation per run, so its
 * progress survives a reload like every other long operation without the backup code knowing of
 * operations. Each node copied is one step ("node peer0") of the `nodes` phase.
 */
export function backupProgressMapper(ops: Pick<Operations, "begin">): (event: BusEvent) => void {
  const running = new Map<number, OperationHandle>();
  return (event) => {
    if (event.type !== "backup.progress") return;
    const d = event.data as BackupProgress;
    const id = Number(d.backup_id);
    if (!Number.isInteger(id)) return;
    let op = running.get(id);
    if (d.status === "running") {
      if (!op) {
        op = ops.begin({
          kind: "backup",
          resource: `backup:${id}`,
          label: `Backup to ${String(d.target_name ?? "?")}`,
          phases: BACKUP_PHASES,
        });
        running.set(id, op);
      }
      const phase = String(d.phase ?? "");
      const node = /^node (.+)$/.exec(phase);
      if (node) op.phase("nodes", node[1]);
      else if (phase) op.phase(phase);
      if (typeof d.percent === "number" && phase === "upload") op.progress({ percent: d.percent });
      return;
    }
    if (!op) return;
    running.delete(id);
    if (d.status === "completed") op.succeed();
    else op.fail(typeof d.error === "string" ? d.error : `backup ${String(d.status)}`);
  };
}
