import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { nowIso } from "../../db/db.js";
import { ConflictError, errorMessage, InputError, NotFoundError } from "../../http/errors.js";
import { chaincodeServerEnv } from "../../runtime/chaincode-source.js";
import type { ChaincodePackaging } from "./chaincodes.package.js";
import { dockerEngineAvailable, json, type ChaincodeShared, type ChaincodesDeps } from "./chaincodes.shared.js";
import type { ChaincodeSources } from "./chaincodes.source.js";

/** The chaincode server as a supervised process: build, run (deploy), stop, and what runs. */
export function createChaincodeDeploy(
  deps: ChaincodesDeps,
  s: ChaincodeShared,
  pkgs: ChaincodePackaging,
  src: Pick<ChaincodeSources, "buildDefinition">,
) {
  const { repo, runtime } = deps;
  const { defDir, definition, event } = s;
  const { packageOf, tlsFiles } = pkgs;
  const { buildDefinition } = src;
  const api = {
    /**
     * Builds a definition's source (npm install + build, go build) without running it, so a caller can
     * learn of a compile error before anything reaches the channel. `logFile` also receives the output.
     */
    async build(definitionId: number, user: string, opts: { logFile?: string } = {}): Promise<void> {
      const { def } = await definition(definitionId);
      await buildDefinition(def, user, { built: false, ...(opts.logFile ? { logFile: opts.logFile } : {}) });
    },

    async deploy(
      definitionId: number,
      env: Record<string, string> | undefined,
      user: string,
      opts: { built?: boolean } = {},
    ) {
      const { def, cc } = await definition(definitionId);
      if (def.source_type === "docker" || (def.source_type === "none" && def.docker_image)) {
        const message = (deps.dockerAvailable ?? dockerEngineAvailable)()
          ? `docker_image: the Docker runtime is not available in this version; upload the chaincode source (node, go or executable) to run it as a process`
          : `docker_image: running '${def.docker_image}' needs a Docker engine and none was found (no /var/run/docker.sock, DOCKER_HOST unset); upload the chaincode source (node, go or executable) to run it as a process`;
        throw new InputError(message, { field: "docker_image" });
      }
      if (def.source_type === "none" || !def.source_path) {
        throw new InputError("source_type: this definition has no source yet; upload an archive or give source_path", {
          field: "source_type",
        });
      }
      const installed = (await repo.events(def.id)).some(
        (e) => e.event_type === "install" && json<{ status?: string }>(e.event_data, {}).status === "success",
      );
      const pkg = await packageOf(cc, def);
      if (!installed) {
        throw new ConflictError(
          `install definition ${definitionId} on a peer before deploying it: the chaincode server's id is the installed package id (${pkg.packageId})`,
        );
      }
      const environment = { ...json<Record<string, string>>(def.environment, {}), ...(env ?? {}) };
      if (env) await repo.updateDefinition(def.id, { environment: JSON.stringify(environment) });
      const run = await buildDefinition(def, user, { built: opts.built === true });
      const args =
        def.source_type === "node"
          ? [...run.args, "--chaincode-address", def.chaincode_address, "--chaincode-id", pkg.packageId]
          : run.args;
      const tls = await tlsFiles(def);
      const base: Record<string, string> = {};
      for (const k of ["PATH", "HOME", "TMPDIR", "LANG", "TZ"]) {
        const v = process.env[k];
        if (v !== undefined) base[k] = v;
      }
      const childEnv = {
        ...base,
        ...environment,
        ...chaincodeServerEnv({
          ccid: pkg.packageId,
          address: def.chaincode_address,
          ...(tls ? { tls } : {}),
        }),
      };
      await runtime.stop(def.id);
      const state = await runtime
        .start({
          definitionId: def.id,
          command: run.command,
          args,
          env: childEnv,
          cwd: run.cwd,
          address: def.chaincode_address,
        })
        .catch(async (err: unknown) => {
          const tail = (await runtime.tail(def.id, 30)).join("\n");
          await repo.updateDefinition(def.id, {
            deploy_status: "error",
            deploy_error: errorMessage(err),
            updated_at: nowIso(),
          });
          await event(def.id, "deploy", { status: "failed", user, error: errorMessage(err), log: tail });
          throw new InputError(`the chaincode server did not start: ${errorMessage(err)}`, { log: tail });
        });
      await runtime.settle(def.id);
      await repo.updateDefinition(def.id, { deploy_status: "running", deploy_error: null, updated_at: nowIso() });
      await event(def.id, "deploy", {
        status: "success",
        user,
        pid: state.pid,
        address: def.chaincode_address,
        package_id: pkg.packageId,
      });
      return {
        status: "success",
        message: `chaincode server running at ${def.chaincode_address}`,
        pid: String(state.pid ?? ""),
      };
    },

    async undeploy(definitionId: number, user: string): Promise<Record<string, string>> {
      const { def } = await definition(definitionId);
      await runtime.stop(def.id);
      await repo.updateDefinition(def.id, { deploy_status: "stopped", deploy_error: null, updated_at: nowIso() });
      await event(def.id, "undeploy", { status: "success", user });
      return { status: "success", message: "chaincode server stopped" };
    },

    async dockerInfo(definitionId: number) {
      const { def } = await definition(definitionId);
      const s = runtime.state(def.id);
      if (!s?.pid) throw new NotFoundError(`definition ${definitionId} has no running chaincode server`);
      const running = s.status === "RUNNING";
      const started = s.startedAt ? Math.floor(Date.parse(s.startedAt) / 1000) : 0;
      let command = "";
      try {
        command = (JSON.parse(await readFile(join(defDir(def.id), "run.json"), "utf8")) as { command: string }).command;
      } catch {
        // not recorded
      }
      return {
        id: String(s.pid),
        name: s.id,
        image: command,
        state: running ? "running" : s.status === "STOPPED" ? "exited" : s.status.toLowerCase(),
        status: `${s.status}${s.restarts ? ` (${s.restarts} restarts)` : ""}`,
        docker_status: s.status.toLowerCase(),
        created: started,
        ports: [def.chaincode_address],
      };
    },

    async logFile(definitionId: number): Promise<string> {
      const { def } = await definition(definitionId);
      return runtime.logFile(def.id);
    },
  };
  return api;
}

export type ChaincodeDeploy = ReturnType<typeof createChaincodeDeploy>;
