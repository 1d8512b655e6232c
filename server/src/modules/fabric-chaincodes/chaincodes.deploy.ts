import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { nowIso } from "../../db/db.js";
import { ConflictError, errorMessage, InputError, NotFoundError } from "../../http/errors.js";
import { chaincodeServerEnv } from "../../runtime/chaincode-source.js";
import type { ChaincodePackaging } from "./chaincodes.package.js";
import { ensureImage, ensureProgramImage } from "../../runtime/docker/index.js";
import { json, type ChaincodeShared, type ChaincodesDeps } from "./chaincodes.shared.js";
import type { ChaincodeSources } from "./chaincodes.source.js";
import { operationPhase } from "../operations/operation-scope.js";

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
  /**
   * The built source in an image tagged `tag` (FROM scratch, no registry): a Go or executable
   * chaincode as /usr/local/bin/chaincode, a Node.js one as /chaincode with its node_modules and the
   * console's node. Returns how to run it as a container.
   */
  async function sourceImage(
    def: { id: number; source_type: string; chaincode_address: string },
    run: { command: string; args: string[]; cwd: string },
    tag: string,
    packageId: string,
    env: Record<string, string>,
  ) {
    const docker = deps.docker as NonNullable<typeof deps.docker>;
    const node = def.source_type === "node";
    const port = def.chaincode_address.slice(def.chaincode_address.lastIndexOf(":") + 1);
    const inside = (a: string): string =>
      a.startsWith(`${run.cwd}/`) ? `/chaincode/${a.slice(run.cwd.length + 1)}` : a;
    try {
      await ensureProgramImage(docker.client(), {
        tag,
        programs: [
          node
            ? { src: process.execPath, dest: "/usr/local/bin/node" }
            : { src: run.command, dest: "/usr/local/bin/chaincode" },
        ],
        ...(node ? { dirs: [{ src: run.cwd, dest: "/chaincode" }] } : {}),
        labels: { "dev.chainlaunch.definition": String(def.id) },
      });
    } catch (err) {
      throw new InputError(`docker_image: building ${tag} from the source failed: ${errorMessage(err)}`, {
        field: "docker_image",
      });
    }
    const cmd = node
      ? ["node", ...run.args.map(inside), "--chaincode-address", `0.0.0.0:${port}`, "--chaincode-id", packageId]
      : ["/usr/local/bin/chaincode", ...run.args];
    return {
      command: tag,
      args: [],
      env,
      cwd: defDir(def.id),
      image: tag,
      cmd,
      workingDir: node ? "/chaincode" : "/tmp",
    };
  }

  /** A docker_image definition runs only where an engine answers and has (or can pull) the image. */
  async function dockerReady(image: string | undefined): Promise<void> {
    const docker = deps.docker;
    if (!docker?.endpoint) {
      throw new InputError(
        `docker_image: running '${image ?? "the built source"}' needs a Docker engine and none is configured (set CHAINLAUNCH_DOCKER_HOST or DOCKER_HOST, or start dockerd on /var/run/docker.sock); or upload the chaincode source (node, go or executable) to run it as a process`,
        { field: "docker_image" },
      );
    }
    try {
      await docker.ready();
      if (image) await ensureImage(docker.client(), image);
    } catch (err) {
      throw new InputError(`docker_image: ${errorMessage(err)}`, { field: "docker_image" });
    }
  }

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
      const image =
        def.source_type === "docker" || (def.source_type === "none" && def.docker_image) ? def.docker_image : undefined;
      // Source and docker_image: the source is built (in the sandbox, as for a process) into that image.
      const intoImage = !image && def.docker_image && def.source_path ? def.docker_image : undefined;
      if (image) await dockerReady(image);
      else if (intoImage) await dockerReady(undefined);
      else if (def.source_type === "none" || !def.source_path) {
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
      const tls = await tlsFiles(def);
      const serverEnv = chaincodeServerEnv({
        ccid: pkg.packageId,
        address: def.chaincode_address,
        ...(tls ? { tls } : {}),
      });
      let launch: {
        command: string;
        args: string[];
        env: Record<string, string>;
        cwd: string;
        image?: string;
        cmd?: string[];
        workingDir?: string;
      };
      if (intoImage) {
        const run = await buildDefinition(def, user, { built: opts.built === true });
        launch = await sourceImage(def, run, intoImage, pkg.packageId, { ...environment, ...serverEnv });
      } else if (image) {
        // The image is the whole environment: nothing of the console's own goes in.
        launch = { command: image, args: [], env: { ...environment, ...serverEnv }, cwd: defDir(def.id), image };
      } else {
        const run = await buildDefinition(def, user, { built: opts.built === true });
        const args =
          def.source_type === "node"
            ? [...run.args, "--chaincode-address", def.chaincode_address, "--chaincode-id", pkg.packageId]
            : run.args;
        const base: Record<string, string> = {};
        for (const k of ["PATH", "HOME", "TMPDIR", "LANG", "TZ"]) {
          const v = process.env[k];
          if (v !== undefined) base[k] = v;
        }
        launch = { command: run.command, args, env: { ...base, ...environment, ...serverEnv }, cwd: run.cwd };
      }
      operationPhase("start");
      await runtime.stop(def.id);
      const failed = async (message: string): Promise<never> => {
        await runtime.settle(def.id);
        const tail = (await runtime.tail(def.id, 30)).join("\n");
        await repo.updateDefinition(def.id, { deploy_status: "error", deploy_error: message, updated_at: nowIso() });
        await event(def.id, "deploy", { status: "failed", user, error: message, log: tail });
        throw new InputError(`the chaincode server did not start: ${message}`, { log: tail });
      };
      const state = await runtime
        .start({ definitionId: def.id, ...launch, address: def.chaincode_address })
        .catch((err: unknown) => failed(errorMessage(err)));
      // The supervisor reports a server that exited or never listened as ERROR (it does not throw).
      if (state.status !== "RUNNING") await failed(state.errorMessage ?? `the server is ${state.status}`);
      await runtime.settle(def.id);
      await repo.updateDefinition(def.id, { deploy_status: "running", deploy_error: null, updated_at: nowIso() });
      await event(def.id, "deploy", {
        status: "success",
        user,
        pid: state.pid,
        address: def.chaincode_address,
        package_id: pkg.packageId,
        ...(state.container ? { container_id: state.container.id, image: state.container.image } : {}),
      });
      return {
        status: "success",
        message: state.container
          ? `chaincode container ${state.container.name} (${state.container.image}) serving at ${def.chaincode_address}`
          : `chaincode server running at ${def.chaincode_address}`,
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
      if (s?.container && deps.docker) {
        // The container as the engine sees it.
        const info = await deps.docker
          .client()
          .getContainer(s.container.id)
          .inspect()
          .catch(() => undefined);
        if (info) {
          const ports = Object.entries(info.NetworkSettings.Ports ?? {}).flatMap(([port, binds]) =>
            (binds ?? []).map((b) => `${b.HostIp}:${b.HostPort}->${port}`),
          );
          return {
            id: info.Id,
            name: info.Name.replace(/^\//, ""),
            image: info.Config.Image,
            state: info.State.Status,
            status: `${info.State.Status}${s.restarts ? ` (${s.restarts} restarts)` : ""}`,
            docker_status: info.State.Status,
            created: Math.floor(Date.parse(info.Created) / 1000),
            ports,
          };
        }
      }
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
