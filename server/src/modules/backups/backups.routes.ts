import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import type { BackupScheduler } from "./backups.scheduler.js";
import {
  backupResponse,
  createBackupBody,
  createScheduleBody,
  createTargetBody,
  cronPreviewBody,
  cronPreviewResponse,
  createRecoveryBody,
  createRecoveryResponse,
  recoveryStatusResponse,
  idParams,
  scheduleResponse,
  targetResponse,
  testTargetBody,
  testTargetResponse,
  updateScheduleBody,
  updateTargetBody,
} from "./backups.schema.js";
import type { BackupsService } from "./backups.service.js";

const user = (req: FastifyRequest): string | null => req.principal?.username ?? null;

/** /backups, /backups/targets, /backups/schedules and /backups/cron/preview. */
export function registerBackupsRoutes(app: FastifyInstance, svc: BackupsService, scheduler: BackupScheduler): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // ---- targets
  const targetTags = ["Backup Targets"];
  r.get(
    "/backups/targets",
    {
      config: { access: "BACKUP_READ" },
      schema: {
        operationId: "listBackupTargets",
        tags: targetTags,
        summary: "List backup targets (secrets masked)",
        response: { 200: lazySchema(() => z.array(targetResponse)) },
      },
    },
    async () => svc.listTargets(),
  );
  r.post(
    "/backups/targets",
    {
      config: { access: "BACKUP_TARGETS", audit: "backup_target.create" },
      schema: {
        operationId: "createBackupTarget",
        tags: targetTags,
        summary: "Create a backup target; its repository is opened (or initialised) first",
        body: createTargetBody,
        response: { 201: targetResponse },
      },
    },
    async (req, reply) => reply.code(201).send(await svc.createTarget(req.body)),
  );
  r.post(
    "/backups/targets/test",
    {
      config: { access: "BACKUP_TARGETS", audit: "backup_target.test" },
      schema: {
        operationId: "testBackupTarget",
        tags: targetTags,
        summary: "Check a target's settings without saving them",
        body: testTargetBody,
        response: { 200: testTargetResponse },
      },
    },
    async (req) => svc.testTarget(req.body),
  );
  r.get(
    "/backups/targets/:id",
    {
      config: { access: "BACKUP_READ" },
      schema: {
        operationId: "getBackupTarget",
        tags: targetTags,
        summary: "Get a backup target (secrets masked)",
        params: idParams,
        response: { 200: targetResponse },
      },
    },
    async (req) => svc.getTarget(req.params.id),
  );
  r.put(
    "/backups/targets/:id",
    {
      config: { access: "BACKUP_TARGETS", audit: "backup_target.update" },
      schema: {
        operationId: "updateBackupTarget",
        tags: targetTags,
        summary: "Update a backup target; omitted secrets keep their stored values",
        params: idParams,
        body: updateTargetBody,
        response: { 200: targetResponse },
      },
    },
    async (req) => svc.updateTarget(req.params.id, req.body),
  );
  r.delete(
    "/backups/targets/:id",
    {
      config: { access: "BACKUP_TARGETS", audit: "backup_target.delete" },
      schema: {
        operationId: "deleteBackupTarget",
        tags: targetTags,
        summary: "Delete a backup target and its backup records (the repository's data stays)",
        params: idParams,
        response: { 204: lazySchema(() => z.null()) },
      },
    },
    async (req, reply) => {
      await svc.deleteTarget(req.params.id);
      return reply.code(204).send(null);
    },
  );

  // ---- recovery key
  r.get(
    "/backups/recovery-key",
    {
      config: { access: "BACKUP_READ" },
      schema: {
        operationId: "getBackupRecoveryKey",
        tags: targetTags,
        summary: "Whether the backup recovery key exists, and its fingerprint (never the key)",
        response: { 200: recoveryStatusResponse },
      },
    },
    async () => svc.recoveryStatus(),
  );
  r.post(
    "/backups/recovery-key",
    {
      config: { access: "BACKUP_TARGETS", audit: "backup.recovery_key_create" },
      schema: {
        operationId: "createBackupRecoveryKey",
        tags: targetTags,
        summary: "Make the recovery key that wraps the master key in snapshots; it is returned this once",
        body: createRecoveryBody,
        response: { 201: createRecoveryResponse },
      },
    },
    async (req, reply) => {
      const created = await svc.createRecoveryKey(req.body, user(req));
      req.auditInfo.resource = `recovery-key:${created.fingerprint}`;
      return reply.code(201).send(created);
    },
  );

  // ---- schedules
  const scheduleTags = ["Backup Schedules"];
  r.get(
    "/backups/schedules",
    {
      config: { access: "BACKUP_READ" },
      schema: {
        operationId: "listBackupSchedules",
        tags: scheduleTags,
        summary: "List backup schedules",
        response: { 200: lazySchema(() => z.array(scheduleResponse)) },
      },
    },
    async () => svc.listSchedules(),
  );
  r.post(
    "/backups/schedules",
    {
      config: { access: "BACKUP_CONFIG", audit: "backup_schedule.create" },
      schema: {
        operationId: "createBackupSchedule",
        tags: scheduleTags,
        summary: "Create a backup schedule",
        body: createScheduleBody,
        response: { 201: scheduleResponse },
      },
    },
    async (req, reply) => {
      const s = await svc.createSchedule(req.body);
      await scheduler.refresh(s.id);
      return reply.code(201).send(s);
    },
  );
  r.get(
    "/backups/schedules/:id",
    {
      config: { access: "BACKUP_READ" },
      schema: {
        operationId: "getBackupSchedule",
        tags: scheduleTags,
        summary: "Get a backup schedule",
        params: idParams,
        response: { 200: scheduleResponse },
      },
    },
    async (req) => svc.getSchedule(req.params.id),
  );
  r.put(
    "/backups/schedules/:id",
    {
      config: { access: "BACKUP_CONFIG", audit: "backup_schedule.update" },
      schema: {
        operationId: "updateBackupSchedule",
        tags: scheduleTags,
        summary: "Update a backup schedule",
        params: idParams,
        body: updateScheduleBody,
        response: { 200: scheduleResponse },
      },
    },
    async (req) => {
      const s = await svc.updateSchedule(req.params.id, req.body);
      await scheduler.refresh(s.id);
      return s;
    },
  );
  r.delete(
    "/backups/schedules/:id",
    {
      config: { access: "BACKUP_CONFIG", audit: "backup_schedule.delete" },
      schema: {
        operationId: "deleteBackupSchedule",
        tags: scheduleTags,
        summary: "Delete a backup schedule (its backups stay)",
        params: idParams,
        response: { 204: lazySchema(() => z.null()) },
      },
    },
    async (req, reply) => {
      await svc.deleteSchedule(req.params.id);
      await scheduler.refresh(req.params.id);
      return reply.code(204).send(null);
    },
  );
  for (const [action, enabled] of [
    ["enable", true],
    ["disable", false],
  ] as const) {
    r.put(
      `/backups/schedules/:id/${action}`,
      {
        config: { access: "BACKUP_CONFIG", audit: `backup_schedule.${action}` },
        schema: {
          operationId: `${action}BackupSchedule`,
          tags: scheduleTags,
          summary: `${enabled ? "Enable" : "Disable"} a backup schedule`,
          params: idParams,
          response: { 200: scheduleResponse },
        },
      },
      async (req) => {
        const s = await svc.setScheduleEnabled(req.params.id, enabled);
        await scheduler.refresh(s.id);
        return s;
      },
    );
  }
  r.post(
    "/backups/cron/preview",
    {
      config: { access: "BACKUP_READ", audit: "backup.cron_preview" },
      schema: {
        operationId: "previewCronSchedule",
        tags: ["Backup Utilities"],
        summary: "The next run times of a cron expression, or valid=false with the parser's message",
        body: cronPreviewBody,
        response: { 200: cronPreviewResponse },
      },
    },
    async (req) => svc.previewCron(req.body.cronExpression, req.body.count ?? 5),
  );

  // ---- backups
  const tags = ["Backups"];
  r.get(
    "/backups",
    {
      config: { access: "BACKUP_READ" },
      schema: {
        operationId: "listBackups",
        tags,
        summary: "List backups, newest first",
        response: { 200: lazySchema(() => z.array(backupResponse)) },
      },
    },
    async () => svc.listBackups(),
  );
  r.post(
    "/backups",
    {
      config: { access: "BACKUP_RUN", audit: "backup.create" },
      schema: {
        operationId: "createBackup",
        tags,
        summary: "Back up now (returns the pending backup; progress goes out over the websocket)",
        body: createBackupBody,
        response: { 201: backupResponse },
      },
    },
    async (req, reply) => reply.code(201).send(await svc.createBackup(req.body, user(req))),
  );
  r.get(
    "/backups/:id",
    {
      config: { access: "BACKUP_READ" },
      schema: {
        operationId: "getBackup",
        tags,
        summary: "Get a backup",
        params: idParams,
        response: { 200: backupResponse },
      },
    },
    async (req) => svc.getBackup(req.params.id),
  );
  r.delete(
    "/backups/:id",
    {
      config: { access: "BACKUP_RUN", audit: "backup.delete" },
      schema: {
        operationId: "deleteBackup",
        tags,
        summary: "Delete a backup and forget its snapshot (restic forget --prune)",
        params: idParams,
        response: { 204: lazySchema(() => z.null()) },
      },
    },
    async (req, reply) => {
      await svc.deleteBackup(req.params.id);
      return reply.code(204).send(null);
    },
  );
  r.post(
    "/backups/:id/verify",
    {
      config: { access: "BACKUP_RESTORE", audit: "backup.verify" },
      schema: {
        operationId: "verifyBackup",
        tags,
        summary: "Restore drill: restic check, restore into a scratch folder, compare with the manifest",
        params: idParams,
        response: { 202: backupResponse },
      },
    },
    async (req, reply) => reply.code(202).send(await svc.verify(req.params.id)),
  );
}
