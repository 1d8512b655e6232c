import { z } from "zod";
import { builtOnce, dbId, lazySchema, MAX_DB_ID } from "../../http/schema-helpers.js";

const id = lazySchema(() => z.coerce.number().int().min(1).max(MAX_DB_ID));
export const idParams = lazySchema(() => z.object({ id: id.describe("Id") }).strict());

/** What a secret looks like in a response: set or not, never its value. */
export const MASKED = "********";

export const TARGET_TYPES = ["S3", "LOCAL"] as const;
export const BACKUP_STATUSES = ["pending", "running", "completed", "failed"] as const;
export const VERIFICATION_STATUSES = ["running", "verified", "failed"] as const;

export const targetResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int(),
      name: z.string(),
      type: z.enum(TARGET_TYPES).describe("S3 or LOCAL"),
      endpoint: z.string().describe("S3 endpoint URL; empty for AWS"),
      region: z.string(),
      bucketName: z.string(),
      bucketPath: z.string().describe("Path of the restic repository in the bucket (S3) or its directory (LOCAL)"),
      accessKeyId: z.string(),
      secretKey: z.string().describe(`'${MASKED}' when set; the value is never returned`),
      resticPassword: z.string().describe(`'${MASKED}'; the value is never returned`),
      forcePathStyle: z.boolean(),
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .meta({ id: "BackupTarget" }),
);

const targetFields = builtOnce(() => ({
  name: z.string().trim().min(1).max(255).describe("Target name"),
  type: z.enum(TARGET_TYPES).describe("S3 or LOCAL"),
  endpoint: z.string().trim().max(2048).optional().describe("S3 endpoint, e.g. http://127.0.0.1:9000; empty for AWS"),
  region: z.string().trim().max(64).optional().describe("S3 region (us-east-1 by default)"),
  bucketName: z.string().trim().max(255).optional().describe("S3 bucket (required for S3)"),
  bucketPath: z
    .string()
    .trim()
    .max(1024)
    .optional()
    .describe(
      "Path of the repository in the bucket (S3), or an absolute directory (LOCAL) inside CHAINLAUNCH_BACKUP_LOCAL_ROOTS (default <data>/backups/local)",
    ),
  accessKeyId: z.string().trim().max(255).optional().describe("S3 access key id (required for S3)"),
  secretKey: z.string().max(1024).optional().describe("S3 secret key; on update, omit it to keep the stored one"),
  resticPassword: z
    .string()
    .min(8)
    .max(1024)
    .optional()
    .describe("Repository password; generated when omitted on create, kept when omitted on update"),
  forcePathStyle: z.boolean().optional().describe("Path-style bucket URLs (MinIO, moto, most self-hosted S3)"),
}));

export const createTargetBody = lazySchema(() => z.object(targetFields()));
export const updateTargetBody = lazySchema(() => z.object(targetFields()));
export const testTargetBody = lazySchema(() =>
  z.object({
    ...targetFields(),
    id: dbId().optional().describe("An existing target whose stored secrets fill in the ones omitted"),
  }),
);
export const testTargetResponse = lazySchema(() =>
  z
    .object({
      ok: z.boolean(),
      repository: z
        .enum(["exists", "absent"])
        .describe("absent: the first backup (or saving the target) initialises it"),
      message: z.string(),
    })
    .meta({ id: "BackupTargetTest" }),
);

export const backupResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int(),
      targetId: z.number().int(),
      targetName: z.string(),
      scheduleId: z.number().int().nullable(),
      status: z.enum(BACKUP_STATUSES).describe("pending, running, completed or failed"),
      metadata: z.unknown(),
      sizeBytes: z.number().int().nullable().describe("Bytes in the snapshot"),
      durationMs: z.number().int().nullable(),
      snapshotId: z.string().nullable().describe("The restic snapshot id"),
      errorMessage: z.string().nullable(),
      verificationStatus: z.enum(VERIFICATION_STATUSES).nullable().describe("After POST /backups/{id}/verify"),
      verificationError: z.string().nullable(),
      verifiedAt: z.string().nullable(),
      createdBy: z.string().nullable(),
      startedAt: z.string().nullable(),
      completedAt: z.string().nullable(),
      createdAt: z.string(),
    })
    .meta({ id: "Backup" }),
);

export const createBackupBody = lazySchema(() =>
  z.object({
    targetId: dbId().describe("Backup target id"),
    scheduleId: dbId().optional().describe("Schedule this run belongs to (set by the scheduler)"),
    metadata: z.unknown().optional().describe("Free-form JSON kept with the backup"),
  }),
);

export const scheduleResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int(),
      name: z.string(),
      description: z.string(),
      cronExpression: z.string(),
      targetId: z.number().int(),
      retentionDays: z.number().int(),
      enabled: z.boolean(),
      lastRunAt: z.string().describe("When it last ran; 0001-01-01T00:00:00Z (Go's zero time) when never"),
      nextRunAt: z.string().describe("When it runs next; 0001-01-01T00:00:00Z when disabled"),
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .meta({ id: "BackupSchedule" }),
);

const scheduleFields = builtOnce(() => ({
  name: z.string().trim().min(1).max(255),
  description: z.string().max(2000).optional(),
  cronExpression: z.string().trim().min(1).max(255).describe("Cron expression (5 fields, or 6 with seconds)"),
  targetId: dbId(),
  retentionDays: z.number().int().min(1).max(36_500).describe("Snapshots older than this are pruned"),
  enabled: z.boolean().optional(),
}));
export const createScheduleBody = lazySchema(() => z.object(scheduleFields()));
export const updateScheduleBody = lazySchema(() => z.object(scheduleFields()));

export const cronPreviewBody = lazySchema(() =>
  z.object({
    cronExpression: z.string().max(255),
    count: z.number().int().min(1).max(10).optional().describe("How many run times (5 by default, at most 10)"),
  }),
);
export const cronPreviewResponse = lazySchema(() =>
  z
    .object({
      valid: z.boolean(),
      nextExecutions: z.array(z.string()),
      error: z.string().optional(),
    })
    .meta({ id: "CronPreview" }),
);

export type TargetResponse = z.infer<typeof targetResponse>;
export type BackupResponse = z.infer<typeof backupResponse>;
export type ScheduleResponse = z.infer<typeof scheduleResponse>;
export type CreateTargetBody = z.infer<typeof createTargetBody>;
export type CreateScheduleBody = z.infer<typeof createScheduleBody>;

export const recoveryStatusResponse = lazySchema(() =>
  z
    .object({
      configured: z.boolean().describe("Whether a recovery key exists; backups fail until an admin makes one"),
      fingerprint: z.string().nullable().describe("First 16 hex characters of the key's SHA-256, to tell keys apart"),
      createdAt: z.string().nullable(),
      createdBy: z.string().nullable().describe("The admin who made it"),
      matchesMasterKey: z
        .boolean()
        .describe("False when the console runs with another master key than the wrapped one: make a new recovery key"),
    })
    .meta({ id: "BackupRecoveryStatus" }),
);
export const createRecoveryBody = lazySchema(() =>
  z
    .object({
      replace: z
        .boolean()
        .optional()
        .describe("Replace the existing key (snapshots made before keep needing the old one)"),
    })
    .strict(),
);
export const createRecoveryResponse = lazySchema(() =>
  z
    .object({
      recoveryKey: z
        .string()
        .describe("The recovery key, shown this once: the console keeps only its hash. A restore needs it"),
      fingerprint: z.string(),
      createdAt: z.string(),
    })
    .meta({ id: "BackupRecoveryKey" }),
);
