import { GO_ZERO_TIME } from "../../http/schema-helpers.js";
import type { BackupRow, ScheduleRow, TargetRow } from "./backups.repo.js";
import { MASKED, type BackupResponse, type ScheduleResponse, type TargetResponse } from "./backups.schema.js";

/** A target as the API shows it: secrets masked, never returned. */
export function toTarget(t: TargetRow): TargetResponse {
  return {
    id: t.id,
    name: t.name,
    type: t.type === "LOCAL" ? "LOCAL" : "S3",
    endpoint: t.endpoint ?? "",
    region: t.region ?? "",
    bucketName: t.bucket_name ?? "",
    bucketPath: t.bucket_path,
    accessKeyId: t.access_key_id ?? "",
    secretKey: t.secret_key_enc ? MASKED : "",
    resticPassword: MASKED,
    forcePathStyle: t.force_path_style === 1,
    createdAt: t.created_at,
    updatedAt: t.updated_at,
  };
}

export function toBackup(b: BackupRow): BackupResponse {
  let metadata: unknown = null;
  try {
    metadata = JSON.parse(b.metadata);
  } catch {
    metadata = null;
  }
  return {
    id: b.id,
    targetId: b.target_id,
    targetName: b.target_name,
    scheduleId: b.schedule_id,
    status: b.status as BackupResponse["status"],
    metadata,
    sizeBytes: b.size_bytes === null ? null : Number(b.size_bytes),
    durationMs: b.duration_ms,
    snapshotId: b.snapshot_id,
    errorMessage: b.error_message,
    verificationStatus: b.verification_status as BackupResponse["verificationStatus"],
    verificationError: b.verification_error,
    verifiedAt: b.verified_at,
    createdBy: b.created_by,
    startedAt: b.started_at,
    completedAt: b.completed_at,
    createdAt: b.created_at,
  };
}

export function toSchedule(s: ScheduleRow): ScheduleResponse {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    cronExpression: s.cron_expression,
    targetId: s.target_id,
    retentionDays: s.retention_days,
    enabled: s.enabled === 1,
    // Upstream answers Go's zero time, never null: its Terraform provider rejects a null here.
    lastRunAt: s.last_run_at ?? GO_ZERO_TIME,
    nextRunAt: (s.enabled === 1 ? s.next_run_at : null) ?? GO_ZERO_TIME,
    createdAt: s.created_at,
    updatedAt: s.updated_at,
  };
}
