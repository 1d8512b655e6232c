import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { archiveEntries, zipStream } from "./project-archive.js";
import {
  createDirBody,
  dirQuery,
  listDirQuery,
  listEntriesResponse,
  listFilesResponse,
  projectIdParams,
  pathQuery,
  projectFilesParams,
  statusResponse,
  treeNode,
  writeFileBody,
} from "./projects.schema.js";
import type { ProjectsService } from "./projects.service.js";

const tags = ["Chaincode Projects"];

/** A project's files and folders (/projects/{projectId}/...), confined to its folder. */
export function registerProjectFilesRoutes(app: FastifyInstance, svc: ProjectsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

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
        response: { 200: lazySchema(() => z.object({ content: z.string() })) },
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
        description:
          "A package.json with an npm install script (preinstall, install, postinstall, prepublish, preprepare, " +
          "prepare, postprepare, dependencies) or gypfile, and a binding.gyp, are refused with a 400 naming them: " +
          "npm would run them on the host by itself.",
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

  r.get(
    "/projects/:projectId/files/list",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "listFiles",
        tags: ["files"],
        summary: "The files of one folder of a project (not recursive; symlinks are not listed or followed)",
        params: projectFilesParams,
        querystring: listDirQuery,
        response: { 200: listFilesResponse },
      },
    },
    async (req) => {
      const { files } = await svc.files(req.params.projectId);
      return { files: (await files.listDir(req.query.dir)).files };
    },
  );
  r.get(
    "/projects/:projectId/dirs/list",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "listEntries",
        tags: ["directories"],
        summary: "The files and folders of one folder of a project; node_modules, .git, dist and bin are only named",
        params: projectFilesParams,
        querystring: listDirQuery,
        response: { 200: listEntriesResponse },
      },
    },
    async (req) => {
      const { files } = await svc.files(req.params.projectId);
      return files.listDir(req.query.dir);
    },
  );
  r.get(
    "/chaincode-projects/:id/download",
    {
      compress: false,
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "downloadProject",
        tags: ["Chaincode Projects"],
        summary: "The project's source as a zip, without node_modules, .git, build output and editor folders",
        description:
          "Streamed one file at a time. Only regular files are stored: symlinks are neither followed nor stored, " +
          "so a link planted in the folder can't put a file from elsewhere in the archive.",
        params: projectIdParams,
        produces: ["application/zip"],
        response: { 200: lazySchema(() => z.string().describe("Zip archive (application/zip)")) },
      },
    },
    async (req, reply) => {
      const { row, dir } = await svc.folder(req.params.id);
      const entries = await archiveEntries(dir);
      // A stream, which the route's string schema only documents: sent as it is.
      return (reply as FastifyReply)
        .type("application/zip")
        .header("content-disposition", `attachment; filename="${row.slug}.zip"`)
        .send(zipStream(entries));
    },
  );
}
