import { randomBytes } from "node:crypto";
import { nowIso } from "../../db/db.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { ConflictError, InputError } from "../../http/errors.js";
import type { BackupsCore } from "./backups.core.js";
import { toTarget } from "./backups.mappers.js";
import type { CreateTargetBody, TargetResponse } from "./backups.schema.js";
import { checkLocalPath } from "./local-roots.js";
import { ResticError, resticRepo, runRestic, toHttpError, validateTargetAccess, type TargetAccess } from "./restic.js";

/**
 * Backup targets (restic repositories on S3 or in a local directory). They decide where the
 * console's data goes, so only an admin makes them (BACKUP_TARGETS); a LOCAL one stays inside the
 * allowed roots.
 */
export function createBackupTargets(core: BackupsCore) {
  const { repo, deps } = core;
  const duplicate = (name: string): ConflictError =>
    new ConflictError(`name: a backup target named '${name}' already exists`);

  /**
   * A stored S3 secret key goes only where it was saved for: a body that moves the target (type,
   * endpoint or bucket) must bring the secret key again, or it would be sent to the new place.
   */
  function keptSecret(body: CreateTargetBody, current?: TargetAccess): string | null {
    if (body.type !== "S3") return null;
    if (body.secretKey) return body.secretKey;
    if (!current?.secretKey) return null;
    const moved =
      current.type !== "S3" ||
      (current.endpoint ?? "") !== (body.endpoint || "") ||
      (current.bucketName ?? "") !== (body.bucketName || "");
    if (moved) {
      throw new InputError(
        "secretKey: the endpoint or bucket changed; send the secret key again (the stored one goes only where it was saved for)",
      );
    }
    return current.secretKey;
  }

  async function accessFromBody(body: CreateTargetBody, current?: TargetAccess): Promise<TargetAccess> {
    const access: TargetAccess = {
      type: body.type,
      endpoint: body.type === "S3" ? body.endpoint || null : null,
      region: body.type === "S3" ? body.region || null : null,
      bucketName: body.type === "S3" ? body.bucketName || null : null,
      bucketPath: body.bucketPath ?? "",
      accessKeyId: body.type === "S3" ? body.accessKeyId || null : null,
      secretKey: keptSecret(body, current),
      resticPassword: body.resticPassword || current?.resticPassword || randomBytes(24).toString("base64url"),
      forcePathStyle: body.type === "S3" ? (body.forcePathStyle ?? false) : false,
    };
    if (body.type === "LOCAL" && !access.bucketPath)
      throw new InputError("bucketPath: a LOCAL target needs a directory");
    validateTargetAccess(access);
    if (access.type === "LOCAL") await checkLocalPath(access.bucketPath, deps.localRoots ?? [], deps.dataDir);
    return access;
  }

  return {
    async listTargets(): Promise<TargetResponse[]> {
      return (await repo.targets.list()).map(toTarget);
    },
    async getTarget(id: number): Promise<TargetResponse> {
      return toTarget(await core.mustTarget(id));
    },
    async createTarget(body: CreateTargetBody): Promise<TargetResponse> {
      if ((await repo.targets.list()).some((t) => t.name === body.name)) throw duplicate(body.name);
      const access = await accessFromBody(body);
      await core.checkTarget(access);
      const at = nowIso();
      try {
        const id = await repo.targets.insert({
          ...core.targetColumns(body.name, access),
          created_at: at,
          updated_at: at,
        });
        return toTarget(await core.mustTarget(id));
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicate(body.name);
        throw err;
      }
    },
    async updateTarget(id: number, body: CreateTargetBody): Promise<TargetResponse> {
      const current = await core.mustTarget(id);
      const other = (await repo.targets.list()).find((t) => t.name === body.name && t.id !== id);
      if (other) throw duplicate(body.name);
      const access = await accessFromBody(body, core.accessOf(current));
      await core.checkTarget(access);
      try {
        await repo.targets.update(id, { ...core.targetColumns(body.name, access), updated_at: nowIso() });
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicate(body.name);
        throw err;
      }
      return toTarget(await core.mustTarget(id));
    },
    /** Checks a target's settings without saving them (and without initialising a repository). */
    async testTarget(body: CreateTargetBody & { id?: number | undefined }) {
      const current = body.id ? core.accessOf(await core.mustTarget(body.id)) : undefined;
      if (!body.resticPassword && !current) throw new InputError("resticPassword: needed to open the repository");
      const access = await accessFromBody(body, current);
      const r = resticRepo(access);
      try {
        await runRestic(r, ["cat", "config"], { timeoutMs: core.checkTimeoutMs });
        return { ok: true, repository: "exists" as const, message: `opened the restic repository at ${r.repository}` };
      } catch (err) {
        if (err instanceof ResticError && err.kind === "no-repository") {
          return {
            ok: true,
            repository: "absent" as const,
            message: `reachable; no repository at ${r.repository} yet (saving the target initialises it)`,
          };
        }
        core.reportConnection(err, r);
        throw toHttpError(err, r);
      }
    },
    async deleteTarget(id: number): Promise<void> {
      const t = await core.mustTarget(id);
      const schedules = await repo.schedules.byTarget(id);
      if (schedules.length) {
        throw new ConflictError(
          `backup target '${t.name}' is used by schedule${schedules.length > 1 ? "s" : ""} ${schedules
            .map((s) => `'${s.name}'`)
            .join(", ")}; delete or move ${schedules.length > 1 ? "them" : "it"} first`,
        );
      }
      const active = (await repo.backups.byTarget(id)).find((b) => b.status === "pending" || b.status === "running");
      if (active) throw new ConflictError(`backup target '${t.name}' has backup ${active.id} ${active.status}`);
      await repo.targets.delete(id);
    },
  };
}
