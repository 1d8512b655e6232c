import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  boilerplateResponse,
  boilerplatesQuery,
  createDirBody,
  createProjectBody,
  createProjectResponse,
  dirQuery,
  pathQuery,
  projectFilesParams,
  projectIdParams,
  projectResponse,
  statusResponse,
  treeNode,
  updatePolicyBody,
  writeFileBody,
} from "./projects.schema.js";
import type { ProjectsService } from "./projects.service.js";

const tags = ["Chaincode Projects"];

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
        response: { 200: z.array(boilerplateResponse) },
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
        response: { 200: z.object({ projects: z.array(projectResponse) }) },
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
      const project = await svc.create(req.body);
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
        response: { 200: z.record(z.string(), z.string()) },
      },
    },
    async (req) => {
      req.auditInfo.resource = `chaincode_project:${req.params.id}`;
      return svc.remove(req.params.id);
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

  // ---- files ----
  r.get(
    "/projects/:projectId/files/entries",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "listFilesEntries",
        tags,
        summary: "The project's file tree (without node_modules, .git, dist and bin)",
        params: projectFilesParams,
        response: { 200: treeNode },
      },
    },
    async (req) => {
      const { row, files } = await svc.files(req.params.projectId);
      return files.entries(row.slug);
    },
  );
  r.get(
    "/projects/:projectId/files/read",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "readFile",
        tags,
        summary: "Read a file of a project",
        params: projectFilesParams,
        querystring: pathQuery,
        response: { 200: z.object({ content: z.string() }) },
      },
    },
    async (req) => {
      const { files } = await svc.files(req.params.projectId);
      return { content: await files.read(req.query.path) };
    },
  );
  r.post(
    "/projects/:projectId/files/write",
    {
      config: { access: "CHAINCODE_UPDATE", audit: "chaincode_project.write_file" },
      // Room for a file at the limit as JSON (escaped), so an oversize file gets the named 400.
      bodyLimit: 8 * 1024 * 1024,
      schema: {
        operationId: "writeFile",
        tags,
        summary: "Write a file of a project (atomically)",
        params: projectFilesParams,
        body: writeFileBody,
        response: { 201: statusResponse },
      },
    },
    async (req, reply) => {
      req.auditInfo.resource = `chaincode_project:${req.params.projectId}`;
      req.auditInfo.details = { path: req.body.path, bytes: Buffer.byteLength(req.body.content) };
      const { files } = await svc.files(req.params.projectId);
      await files.write(req.body.path, req.body.content);
      return reply.code(201).send({ status: "written" });
    },
  );
  r.delete(
    "/projects/:projectId/files/delete",
    {
      config: { access: "CHAINCODE_UPDATE", audit: "chaincode_project.delete_file" },
      schema: {
        operationId: "deleteFile",
        tags,
        summary: "Delete a file of a project",
        params: projectFilesParams,
        querystring: pathQuery,
        response: { 200: statusResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `chaincode_project:${req.params.projectId}`;
      req.auditInfo.details = { path: req.query.path };
      const { files } = await svc.files(req.params.projectId);
      await files.deleteFile(req.query.path);
      return { status: "deleted" };
    },
  );
  r.post(
    "/projects/:projectId/dirs/create",
    {
      config: { access: "CHAINCODE_UPDATE", audit: "chaincode_project.create_dir" },
      schema: {
        operationId: "createDir",
        tags: ["directories"],
        summary: "Create a folder in a project",
        params: projectFilesParams,
        body: createDirBody,
        response: { 201: statusResponse },
      },
    },
    async (req, reply) => {
      req.auditInfo.resource = `chaincode_project:${req.params.projectId}`;
      req.auditInfo.details = { dir: req.body.dir };
      const { files } = await svc.files(req.params.projectId);
      await files.createDir(req.body.dir);
      return reply.code(201).send({ status: "created" });
    },
  );
  r.delete(
    "/projects/:projectId/dirs/delete",
    {
      config: { access: "CHAINCODE_UPDATE", audit: "chaincode_project.delete_dir" },
      schema: {
        operationId: "deleteDir",
        tags: ["directories"],
        summary: "Delete a folder of a project with everything in it",
        params: projectFilesParams,
        querystring: dirQuery,
        response: { 200: statusResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `chaincode_project:${req.params.projectId}`;
      req.auditInfo.details = { dir: req.query.dir };
      const { files } = await svc.files(req.params.projectId);
      await files.deleteDir(req.query.dir);
      return { status: "deleted" };
    },
  );
}
