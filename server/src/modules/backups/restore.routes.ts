import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { idParams } from "./backups.schema.js";
import type { BackupsService } from "./backups.service.js";

const snapshotResponse = lazySchema(() =>
  z
    .object({
      id: z.string().describe("restic snapshot id (64 hex)"),
      shortId: z.string(),
      time: z.string().describe("When restic took the snapshot (ISO 8601)"),
      hostname: z.string(),
      tags: z.array(z.string()).describe("chainlaunch, backup:<id>, schedule:<id>"),
      backupId: z
        .number()
        .int()
        .nullable()
        .describe("The backup that made it (from its tag when this console has no row)"),
      sizeBytes: z.number().nullable().describe("What the backup uploaded, from this console's backup row"),
    })
    .strict(),
);

const restoreBody = lazySchema(() =>
  z
    .object({
      snapshotId: z
        .string()
        .regex(/^(latest|[0-9a-fA-F]{8,64})$/, "a snapshot id (8 to 64 hex characters) or 'latest'")
        .describe("Snapshot id (or a unique prefix of 8+ characters) or 'latest'"),
      dataDir: z
        .string()
        .min(1)
        .max(4096)
        .describe("Absolute path of a new or empty directory, not this console's data directory nor inside it"),
      recoveryKey: z
        .string()
        .max(200)
        .optional()
        .describe("The backup recovery key; needed only when the snapshot was made with another master key"),
      databaseUrl: z
        .string()
        .max(2000)
        .optional()
        .describe("PostgreSQL backups: an empty database to load the dump into"),
    })
    .strict(),
);

const restoreResponse = lazySchema(() =>
  z
    .object({
      backupId: z.number().int(),
      createdAt: z.string(),
      snapshotId: z.string(),
      dataDir: z.string(),
      database: z.enum(["sqlite", "postgres"]),
      counts: z.record(z.string(), z.number()),
      masterKey: z
        .enum(["file", "env"])
        .describe("file: master.key is in the directory; env: give CHAINLAUNCH_MASTER_KEY"),
      summary: z.string(),
      startCommand: z.string().describe("The command that starts a console on the restored directory"),
      portHint: z.string(),
      log: z.array(z.string()),
    })
    .strict(),
);

/**
 * /backups/targets/:id/snapshots and /backups/targets/:id/restore: the restore screen. Upstream has
 * no snapshot or restore route, so these sit under the target they read.
 */
export function registerRestoreRoutes(app: FastifyInstance, svc: BackupsService, live: { port: number }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["Backup Targets"];
  r.get(
    "/backups/targets/:id/snapshots",
    {
      config: { access: "BACKUP_READ" },
      schema: {
        operationId: "listBackupTargetSnapshots",
        tags,
        summary: "The ChainLaunch snapshots in a target's restic repository, newest first",
        params: idParams,
        response: { 200: lazySchema(() => z.array(snapshotResponse)) },
      },
    },
    async (req) => svc.listTargetSnapshots(req.params.id),
  );
  r.post(
    "/backups/targets/:id/restore",
    {
      config: { access: "BACKUP_RESTORE", audit: "backup.restore" },
      schema: {
        operationId: "restoreBackupSnapshot",
        tags,
        summary:
          "Restore a snapshot into a new data directory on this host (never the running console's); returns the command that starts a console on it",
        params: idParams,
        body: restoreBody,
        response: { 200: restoreResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `backup-target:${req.params.id}`;
      req.auditInfo.details = { snapshotId: req.body.snapshotId, dataDir: req.body.dataDir };
      return svc.restoreSnapshot(req.params.id, req.body, { port: live.port, userId: req.principal?.userId });
    },
  );
}
