import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";
import type { NodesService } from "../nodes/nodes.service.js";
import { createBackupsRepo } from "./backups.repo.js";
import { registerBackupsRoutes } from "./backups.routes.js";
import { createBackupScheduler } from "./backups.scheduler.js";
import { createBackupsService, type BackupsService } from "./backups.service.js";
import { resolveRestic } from "./restic.js";
import { registerRestoreRoutes } from "./restore.routes.js";

export interface BackupsModule {
  service: BackupsService;
  /** Stops the schedule timers (a running backup finishes on its own). */
  close(): void;
}

/**
 * Backups on restic: targets, backups, restore drills and schedules. On ready it resumes nodes a
 * dead console left paused, fails runs it left unfinished and starts the scheduler (which runs a
 * missed schedule once).
 */
export function registerBackupsModule(
  api: FastifyInstance,
  ctx: Pick<AppContext, "db" | "bus" | "log" | "config" | "dialect" | "sqlitePath">,
  deps: {
    masterKey: () => { key: Buffer; fromEnv: boolean };
    nodes: Pick<NodesService, "backupPoints">;
    /** Backups wait for this: a node not yet adopted could not be paused while it is copied. */
    nodesAdopted: Promise<void>;
  },
): BackupsModule {
  const repo = createBackupsRepo(ctx.db);
  const database =
    ctx.dialect === "postgres"
      ? { dialect: "postgres" as const, url: ctx.config.databaseUrl ?? "" }
      : { dialect: "sqlite" as const, path: ctx.sqlitePath ?? "" };
  const service = createBackupsService({
    repo,
    bus: ctx.bus,
    log: ctx.log,
    dataDir: ctx.config.dataDir,
    localRoots: ctx.config.backupLocalRoots,
    database,
    masterKey: deps.masterKey,
    nodes: async () => {
      await deps.nodesAdopted;
      return deps.nodes.backupPoints();
    },
  });
  const scheduler = createBackupScheduler({ repo, backups: service, log: ctx.log });
  registerBackupsRoutes(api, service, scheduler);
  registerRestoreRoutes(api, service, { port: ctx.config.port });
  api.addHook("onReady", async () => {
    try {
      resolveRestic();
    } catch (err) {
      // Said once at boot; backups and targets answer 503 with the same message until it is installed.
      ctx.log.warn(`backups are unavailable: ${(err as Error).message}`);
    }
    await service.recover();
    await scheduler.start();
  });
  api.addHook("onClose", async () => {
    scheduler.stop();
    await service.close();
  });
  return { service, close: () => scheduler.stop() };
}
