import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { nowIso } from "../../db/db.js";
import { errorMessage, InputError } from "../../http/errors.js";
import {
  ChaincodeBuildError,
  copySourceDir,
  detectSourceType,
  extractArchive,
} from "../../runtime/chaincode-source.js";
import { assertSourceTreeSafe } from "./source-policy.js";
import type { DefinitionRow } from "./chaincodes.repo.js";
import type { DefinitionResponse } from "./chaincodes.schema.js";
import type { ChaincodeShared, ChaincodesDeps } from "./chaincodes.shared.js";

/** A definition's source: imported from a host path or an uploaded archive, and built. */
export function createChaincodeSources(deps: ChaincodesDeps, s: ChaincodeShared) {
  const { repo } = deps;
  const { defDir, definition, definitionResponse, event, begin } = s;

  /** Copies a source directory or executable from this host into the definition's folder. */
  async function importSourcePath(
    definitionId: number,
    path: string,
    type: string | undefined,
  ): Promise<{
    type: "node" | "go" | "executable";
    path: string;
  }> {
    const st = await stat(path).catch(() => undefined);
    if (!st) throw new InputError(`source_path: ${path} does not exist on this host`, { field: "source_path" });
    const dest = join(defDir(definitionId), "src");
    await rm(dest, { recursive: true, force: true });
    await mkdir(dest, { recursive: true });
    if (st.isFile()) {
      if (type && type !== "executable") {
        throw new InputError(`source_path: ${path} is a file; a ${type} source must be a directory`, {
          field: "source_path",
        });
      }
      await copySourceDir(path, join(dest, "chaincode"));
      return { type: "executable", path: join(dest, "chaincode") };
    }
    await copySourceDir(path, dest);
    const found = (type && type !== "auto" ? type : await detectSourceType(dest)) as
      "node" | "go" | "executable" | undefined;
    if (!found) {
      throw new InputError(`source_path: ${path} holds no package.json, go.mod or single executable`, {
        field: "source_path",
      });
    }
    return { type: found, path: dest };
  }

  /** Builds (or, when `built`, only locates) a definition's runnable; records the build on its timeline. */
  async function buildDefinition(
    def: DefinitionRow,
    user: string,
    opts: { built: boolean; logFile?: string },
  ): Promise<{ command: string; args: string[]; cwd: string }> {
    if (def.source_type === "none" || !def.source_path) {
      throw new InputError("source_type: this definition has no source yet; upload an archive or give source_path", {
        field: "source_type",
      });
    }
    const kind = def.source_type as "node" | "go" | "executable";
    if (opts.built) {
      const found = await deps.runtime
        .build(def.id, {
          type: kind,
          srcDir: def.source_path,
          logFile: join(defDir(def.id), "build.log"),
          built: true,
        })
        .catch(() => undefined);
      if (found) return found;
    }
    await repo.updateDefinition(def.id, { deploy_status: "building", deploy_error: null, updated_at: nowIso() });
    const entry = await begin(def.id, "build", { user, source_type: def.source_type });
    const buildLog = opts.logFile ?? join(defDir(def.id), "build.log");
    try {
      // In the sandbox, through the runtime (it knows the definition's folders).
      const run = await deps.runtime.build(def.id, { type: kind, srcDir: def.source_path, logFile: buildLog });
      await entry.finish("success");
      await repo.updateDefinition(def.id, { deploy_status: "none", updated_at: nowIso() });
      return run;
    } catch (err) {
      const log = err instanceof ChaincodeBuildError ? err.log : "";
      await repo.updateDefinition(def.id, {
        deploy_status: "error",
        deploy_error: errorMessage(err),
        updated_at: nowIso(),
      });
      await entry.finish("failed", { error: errorMessage(err), log });
      throw new InputError(`source: ${errorMessage(err)}`, { field: "source", buildLog: log });
    }
  }

  /**
   * Stores uploaded source (an archive) for a definition. The archive is unpacked once, into a staging
   * folder, and every check runs on those very files before they replace the source: the tree's
   * safety (npm install scripts, binding.gyp) here, and `admit` with the source type found (the route
   * refuses an executable for a non-admin there), so no check made on an earlier copy can be sidestepped.
   */
  async function uploadSource(
    definitionId: number,
    body: unknown,
    type: "auto" | "node" | "go" | "executable",
    user: string,
    admit?: (found: "node" | "go" | "executable") => void,
  ): Promise<DefinitionResponse> {
    const { def } = await definition(definitionId);
    if (body && typeof body === "object" && !Buffer.isBuffer(body)) {
      const path = (body as { source_path?: unknown }).source_path;
      if (typeof path !== "string" || path === "") {
        throw new InputError(
          "body.source_path: give a directory or executable path, or send the archive as application/octet-stream",
          {
            field: "body.source_path",
          },
        );
      }
      const src = await importSourcePath(def.id, path, type === "auto" ? undefined : type);
      await repo.updateDefinition(def.id, { source_type: src.type, source_path: src.path, updated_at: nowIso() });
      await event(def.id, "source", { status: "success", user, type: src.type, from: path });
      return definitionResponse((await repo.definition(def.id)) as DefinitionRow);
    }
    if (!Buffer.isBuffer(body) || body.length === 0) {
      throw new InputError("body: send the archive (tar.gz, tar or zip) or executable as application/octet-stream", {
        field: "body",
      });
    }
    const archive = body;
    const staging = join(defDir(def.id), "src.new");
    // A refused upload leaves the data directory as it was: a definition folder made for it goes again.
    const folderExisted = await stat(defDir(def.id)).then(
      () => true,
      () => false,
    );
    await rm(staging, { recursive: true, force: true });
    await mkdir(staging, { recursive: true });
    let stored = false;
    try {
      if (type === "executable") {
        await writeFile(join(staging, "chaincode"), archive, { mode: 0o755 });
      } else {
        await extractArchive(archive, staging).catch((err: unknown) => {
          throw new InputError(`body: ${errorMessage(err)}`, { field: "body" });
        });
        // npm install scripts and native builds are refused for everyone, checked on the files stored.
        if (type !== "go") await assertSourceTreeSafe(staging);
      }
      const found = type === "auto" ? await detectSourceType(staging) : type;
      if (!found) {
        throw new InputError("body: the archive holds no package.json, go.mod or single executable", {
          field: "body",
        });
      }
      admit?.(found);
      const dest = join(defDir(def.id), "src");
      await rm(dest, { recursive: true, force: true });
      await rename(staging, dest);
      const path = found === "executable" && type === "executable" ? join(dest, "chaincode") : dest;
      stored = true;
      await repo.updateDefinition(def.id, { source_type: found, source_path: path, updated_at: nowIso() });
      await event(def.id, "source", { status: "success", user, type: found, bytes: archive.length });
    } finally {
      await rm(staging, { recursive: true, force: true });
      if (!stored && !folderExisted) await rm(defDir(def.id), { recursive: true, force: true });
    }
    return definitionResponse((await repo.definition(def.id)) as DefinitionRow);
  }

  return { importSourcePath, buildDefinition, uploadSource };
}

export type ChaincodeSources = ReturnType<typeof createChaincodeSources>;
