import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import {
  boilerplateResponse,
  boilerplatesQuery,
  createProjectBody,
  createProjectResponse,
  projectIdParams,
  projectResponse,
  updatePolicyBody,
} from "./projects.schema.js";
import type { ProjectsService } from "./projects.service.js";
import { registerProjectFilesRoutes } from "./projects-files.routes.js";
import { registerProjectHistoryRoutes } from "./projects-history.routes.js";
import { registerProjectRunRoutes } from "./projects-run.routes.js";

const tags = ["Chaincode Projects"];
const user = (req: FastifyRequest): string => req.principal?.username ?? "";

/** Chaincode projects (/chaincode-projects), their files (/projects/{projectId}/...) and boilerplates. */
export function registerProjectsRoutes(app: FastifyInstance, svc: ProjectsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/ai/boilerplates",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "getAIBoilerplates",
        tags: ["ai"],
        summary: "Boilerplates that fit a network's platform",
        querystring: boilerplatesQuery,
        response: { 200: lazySchema(() => z.array(boilerplateResponse)) },
      },
    },
    async (req) => svc.boilerplates(req.query.network_id),
  );

  r.get(
    "/chaincode-projects",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "listProjects",
        tags,
        summary: "List chaincode projects",
        response: { 200: lazySchema(() => z.object({ projects: z.array(projectResponse) })) },
      },
    },
    async () => svc.list(),
  );
  r.post(
    "/chaincode-projects",
    {
      config: { access: "CHAINCODE_CREATE", audit: "chaincode_project.create" },
      schema: {
        operationId: "createProject",
        tags,
        summary: "Create a chaincode project from a boilerplate",
        body: createProjectBody,
        response: { 201: createProjectResponse },
      },
    },
    async (req, reply) => {
      req.auditInfo.details = { name: req.body.name, networkId: req.body.networkId, boilerplate: req.body.boilerplate };
      // The first history commit is the creator's, as every start's is the starter's.
      const project = await svc.create(req.body, req.principal?.username ?? "");
      req.auditInfo.resource = `chaincode_project:${project.id}`;
      return reply.code(201).send(project);
    },
  );
  r.get(
    "/chaincode-projects/:id",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "getProject",
        tags,
        summary: "Get a chaincode project",
        params: projectIdParams,
        response: { 200: projectResponse },
      },
    },
    async (req) => svc.get(req.params.id),
  );
  r.delete(
    "/chaincode-projects/:id",
    {
      config: { access: "CHAINCODE_DELETE", audit: "chaincode_project.delete" },
      schema: {
        operationId: "deleteProject",
        tags,
        summary: "Delete a chaincode project and its files",
        params: projectIdParams,
        response: { 200: lazySchema(() => z.record(z.string(), z.string())) },
      },
    },
    async (req) => {
      req.auditInfo.resource = `chaincode_project:${req.params.id}`;
      return svc.remove(req.params.id, user(req));
    },
  );
  r.put(
    "/chaincode-projects/:id/endorsement-policy",
    {
      config: { access: "CHAINCODE_UPDATE", audit: "chaincode_project.update_policy" },
      schema: {
        operationId: "updateProjectEndorsementPolicy",
        tags,
        summary: "Change a project's endorsement policy (used from its next start)",
        params: projectIdParams,
        body: updatePolicyBody,
        response: { 200: projectResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `chaincode_project:${req.params.id}`;
      req.auditInfo.details = { endorsementPolicy: req.body.endorsementPolicy };
      return svc.updatePolicy(req.params.id, req.body.endorsementPolicy);
    },
  );
  registerProjectRunRoutes(app, svc);
  registerProjectHistoryRoutes(app, svc);
  registerProjectFilesRoutes(app, svc);
}
