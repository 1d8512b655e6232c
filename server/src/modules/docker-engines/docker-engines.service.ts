import { nowIso, type DB } from "../../db/db.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { decryptEnvelopeToString, encryptEnvelope } from "../../crypto/envelope.js";
import { ConflictError, errorMessage, InputError, NotFoundError } from "../../http/errors.js";
import { dockerClient, pingEngine, type DockerEndpoint, type DockerRuntime } from "../../runtime/docker/index.js";
import type { CreateEngineBody, EngineResponse } from "./docker-engines.schema.js";

const keyAad = (name: string): string => `docker-engine:${name}`;

/**
 * Docker engines besides the local one. An admin registers one (a socket, or tcp:// with TLS client
 * material); it must answer then. The client key is encrypted under the master key and never leaves.
 * Nodes are placed on an engine by name; an engine that runs a node can't be removed.
 */
export function createDockerEnginesService(deps: {
  db: DB;
  docker: DockerRuntime;
  masterKey: () => Uint8Array;
  /** Names a node placed on the engine, or null. */
  usage: (engine: string) => Promise<string | null>;
}) {
  const { db, docker } = deps;

  const rows = () => db.selectFrom("docker_engines").selectAll().orderBy("id").execute();

  function endpointOf(r: Awaited<ReturnType<typeof rows>>[number]): DockerEndpoint {
    return {
      name: r.name,
      host: r.host,
      ...(r.tls_ca && r.tls_cert && r.tls_key_encrypted
        ? {
            tls: {
              ca: r.tls_ca,
              cert: r.tls_cert,
              key: decryptEnvelopeToString(deps.masterKey(), r.tls_key_encrypted, keyAad(r.name)),
            },
          }
        : {}),
    };
  }

  /** Gives the runtime every registered engine (at boot and after each change). */
  async function load(): Promise<void> {
    docker.setEngines((await rows()).map(endpointOf));
  }

  async function probe(e: DockerEndpoint): Promise<{ status: "up" | "down"; version?: string; error?: string }> {
    try {
      const v = await pingEngine(dockerClient(e), e, 3000);
      return { status: "up", version: v.version };
    } catch (err) {
      return { status: "down", error: errorMessage(err) };
    }
  }

  return {
    load,
    async list(): Promise<{ engines: EngineResponse[] }> {
      const out: Promise<EngineResponse>[] = [];
      if (docker.endpoint) {
        const local = docker.endpoint;
        out.push(probe(local).then((p) => ({ id: 0, name: "local", host: local.host, tls: false, local: true, ...p })));
      }
      for (const r of await rows()) {
        out.push(
          probe(endpointOf(r)).then((p) => ({
            id: r.id,
            name: r.name,
            host: r.host,
            tls: r.tls_key_encrypted !== null,
            local: false,
            created_at: r.created_at,
            ...p,
          })),
        );
      }
      return { engines: await Promise.all(out) };
    },
    async create(body: CreateEngineBody): Promise<EngineResponse> {
      if (body.host.startsWith("unix://") && body.tls) {
        throw new InputError("tls: a unix socket takes no TLS material", { field: "tls" });
      }
      const endpoint: DockerEndpoint = { name: body.name, host: body.host, ...(body.tls ? { tls: body.tls } : {}) };
      const p = await probe(endpoint);
      if (p.status === "down") throw new InputError(`host: ${p.error ?? "no answer"}`, { field: "host" });
      const now = nowIso();
      const row = await db
        .insertInto("docker_engines")
        .values({
          name: body.name,
          host: body.host,
          tls_ca: body.tls?.ca ?? null,
          tls_cert: body.tls?.cert ?? null,
          tls_key_encrypted: body.tls ? encryptEnvelope(deps.masterKey(), body.tls.key, keyAad(body.name)) : null,
          created_at: now,
          updated_at: now,
        })
        .returning(["id", "created_at"])
        .executeTakeFirstOrThrow()
        .catch((err: unknown) => {
          if (isUniqueViolation(err)) throw new ConflictError(`name: an engine named '${body.name}' exists`);
          throw err;
        });
      await load();
      return {
        id: row.id,
        name: body.name,
        host: body.host,
        tls: Boolean(body.tls),
        local: false,
        created_at: row.created_at,
        ...p,
      };
    },
    async remove(id: number): Promise<void> {
      const r = await db.selectFrom("docker_engines").selectAll().where("id", "=", id).executeTakeFirst();
      if (!r) throw new NotFoundError(`Docker engine ${id} not found`);
      const user = await deps.usage(r.name);
      if (user) throw new ConflictError(`id: engine '${r.name}' runs ${user}; delete that first`);
      await db.deleteFrom("docker_engines").where("id", "=", id).execute();
      await load();
    },
  };
}

export type DockerEnginesService = ReturnType<typeof createDockerEnginesService>;
