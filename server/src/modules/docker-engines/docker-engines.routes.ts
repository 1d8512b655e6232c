import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { idParams } from "../users/users.schema.js";
import { createEngineBody, engineList, engineResponse } from "./docker-engines.schema.js";
import type { DockerEnginesService } from "./docker-engines.service.js";

const tags = ["Docker engines"];

/** The Docker engines nodes can be placed on: anyone who reads nodes sees them, admins add and remove. */
export function registerDockerEnginesRoutes(app: FastifyInstance, svc: DockerEnginesService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/docker/engines",
    {
      config: { access: "NODE_READ" },
      schema: {
        operationId: "listDockerEngines",
        tags,
        summary: "The local engine and the registered ones, each pinged now",
        response: { 200: engineList },
      },
    },
    async () => svc.list(),
  );
  r.post(
    "/docker/engines",
    {
      config: { access: "DOCKER_ENGINE_MANAGE", audit: "docker_engine.create" },
      schema: {
        operationId: "createDockerEngine",
        tags,
        summary: "Register a Docker engine (it must answer now); the TLS key is stored encrypted",
        body: createEngineBody,
        response: { 201: engineResponse },
      },
    },
    async (req, reply) => {
      req.auditInfo.details = { name: req.body.name, host: req.body.host, tls: Boolean(req.body.tls) };
      const created = await svc.create(req.body);
      req.auditInfo.resource = `docker_engine:${created.id}`;
      return reply.status(201).send(created);
    },
  );
  r.delete(
    "/docker/engines/:id",
    {
      config: { access: "DOCKER_ENGINE_MANAGE", audit: "docker_engine.delete" },
      schema: {
        operationId: "deleteDockerEngine",
        tags,
        summary: "Remove a registered engine that runs no node",
        params: idParams,
      },
    },
    async (req, reply) => {
      req.auditInfo.resource = `docker_engine:${req.params.id}`;
      await svc.remove(req.params.id);
      return reply.status(204).send();
    },
  );
}
