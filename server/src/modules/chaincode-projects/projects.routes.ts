import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { sendLogFile } from "../../http/log-response.js";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  boilerplateResponse,
  boilerplatesQuery,
  createDirBody,
  createProjectBody,
  commitParams,
  commitResponse,
  commitsQuery,
  createProjectResponse,
  diffQuery,
  fileAtCommitQuery,
  handlerRequest,
  handlerResponse,
  projectLogsQuery,
  startResponse,
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
const user = (req: FastifyRequest): string => req.principal?.username ?? "";

/** The project's run log (created empty before its first start, so it can be followed). */
async function sendLog(file: string, reply: FastifyReply, opts: { tail: number; follow: boolean; sse: boolean }) {
  mkdirSync(dirname(file), { recursive: true });
  closeSync(openSync(file, "a"));
  return sendLogFile(reply, file, opts);
}

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

  // ---- running and calling ----
  r.post(
    "/chaincode-projects/:id/start",
    {
      config: { access: "CHAINCODE_EXECUTE", audit: "chaincode_project.start" },
      schema: {
        operationId: "startProjectServer",
        tags,
        summary: "Build the project and run it on its channel as the next sequence (install, run, approve, commit)",
        params: projectIdParams,
        response: { 200: startResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `chaincode_project:${req.params.id}`;
      const r = await svc.start(req.params.id, user(req));
      req.auditInfo.details = { sequence: r.sequence, definitionId: r.definitionId };
      return r;
    },
  );
  r.post(
    "/chaincode-projects/:id/stop",
    {
      config: { access: "CHAINCODE_EXECUTE", audit: "chaincode_project.stop" },
      schema: {
        operationId: "stopProjectServer",
        tags,
        summary: "Stop the project's chaincode server (the definition stays committed)",
        params: projectIdParams,
        response: { 200: z.record(z.string(), z.string()) },
      },
    },
    async (req) => {
      req.auditInfo.resource = `chaincode_project:${req.params.id}`;
      return svc.stop(req.params.id, user(req));
    },
  );
  for (const kind of ["invoke", "query"] as const) {
    r.post(
      `/chaincode-projects/:id/${kind}`,
      {
        config: {
          access: kind === "invoke" ? "CHAINCODE_EXECUTE" : "CHAINCODE_READ",
          audit: kind === "invoke" ? "chaincode_project.invoke" : "chaincode_project.query",
        },
        schema: {
          operationId: kind === "invoke" ? "invokeChaincodeTransaction" : "queryChaincodeTransaction",
          tags,
          summary:
            kind === "invoke"
              ? "Submit a transaction to the project's chaincode (endorse, order, wait for the commit)"
              : "Evaluate a function of the project's chaincode on a peer",
          params: projectIdParams,
          body: handlerRequest,
          response: { 200: handlerResponse },
        },
      },
      async (req) => {
        req.auditInfo.resource = `chaincode_project:${req.params.id}`;
        req.auditInfo.details = { function: req.body.function, args: req.body.args.length };
        const { row, chaincodeId } = await svc.chaincodeId(req.params.id);
        const keyId = req.body.keyId ?? (req.body.orgId ? await svc.clientKeyOf(req.body.orgId) : undefined);
        const body = { function: req.body.function, args: req.body.args, ...(keyId ? { key_id: String(keyId) } : {}) };
        const r = await svc.calls()[kind](chaincodeId, body);
        const block = /block (\d+)/.exec(r.message)?.[1];
        return {
          status: r.status,
          message: r.message,
          result: r.result,
          transactionId: r.transaction_id,
          function: req.body.function,
          args: req.body.args,
          chaincode: row.slug,
          channel: row.network_name,
          project: row.name,
          code: 200,
          ...(block ? { blockNumber: Number(block) } : {}),
        };
      },
    );
  }
  r.get(
    "/chaincode-projects/:id/metadata",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "getChaincodeProjectMetadata",
        tags,
        summary: "The running chaincode's contract metadata (org.hyperledger.fabric:GetMetadata)",
        params: projectIdParams,
        response: { 200: handlerResponse },
      },
    },
    async (req) => {
      const { row, chaincodeId } = await svc.chaincodeId(req.params.id);
      const r = await svc.calls().metadata(chaincodeId);
      return {
        status: r.status,
        message: r.message,
        result: r.result,
        transactionId: "",
        function: "org.hyperledger.fabric:GetMetadata",
        args: [],
        chaincode: row.slug,
        channel: row.network_name,
        project: row.name,
        code: 200,
      };
    },
  );
  r.get(
    "/chaincode-projects/:id/logs",
    {
      compress: false,
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "getProjectLogs",
        tags,
        summary:
          "The project's run log (steps, build output, errors): the last `tail` lines, then new ones while `follow` is on",
        params: projectIdParams,
        querystring: projectLogsQuery,
        response: { 200: z.string().describe("Log lines (text/plain)") },
      },
    },
    async (req, reply) => {
      const file = await svc.logPath(req.params.id);
      const sse = req.query.follow && (req.headers.accept ?? "").includes("text/event-stream");
      return sendLog(file, reply, { tail: req.query.tail, follow: req.query.follow, sse });
    },
  );
  r.get(
    "/chaincode-projects/:id/logs/stream",
    {
      compress: false,
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "streamProjectLogs",
        tags,
        summary: "The project's run log as Server-Sent Events: the last 500 lines, then new ones",
        params: projectIdParams,
        response: { 200: z.string().describe("SSE stream (text/event-stream)") },
      },
    },
    async (req, reply) => sendLog(await svc.logPath(req.params.id), reply, { tail: 500, follow: true, sse: true }),
  );

  // ---- history ----
  r.get(
    "/chaincode-projects/:id/commits",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "getProjectCommits",
        tags,
        summary: "The project's history, newest first, with the files each commit added, changed and removed",
        params: projectIdParams,
        querystring: commitsQuery,
        response: { 200: z.object({ commits: z.array(commitResponse) }) },
      },
    },
    async (req) => ({ commits: await (await svc.history(req.params.id)).list(req.query.page, req.query.pageSize) }),
  );
  r.get(
    "/chaincode-projects/:id/commits/:commitHash",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "getProjectCommitDetail",
        tags,
        summary: "One commit of the project's history",
        params: commitParams,
        response: { 200: commitResponse },
      },
    },
    async (req) => (await svc.history(req.params.id)).detail(req.params.commitHash),
  );
  r.post(
    "/chaincode-projects/:id/commits/:commitHash/restore",
    {
      config: { access: "CHAINCODE_UPDATE", audit: "chaincode_project.restore" },
      schema: {
        operationId: "restoreProjectCommit",
        tags,
        summary: "Put the project's files back as they were at a commit (recorded as a new commit)",
        description:
          "A commit holding an npm install script or a binding.gyp is refused (400) before anything is written.",
        params: commitParams,
        response: { 200: commitResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `chaincode_project:${req.params.id}`;
      req.auditInfo.details = { commit: req.params.commitHash };
      const history = await svc.history(req.params.id);
      return history.detail(await history.restore(req.params.commitHash, user(req)));
    },
  );
  r.get(
    "/chaincode-projects/:id/diff",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "getProjectFileDiff",
        tags,
        summary: "Unified diff of one file between two commits",
        params: projectIdParams,
        querystring: diffQuery,
        response: { 200: z.string().describe("Unified diff (text/plain)") },
      },
    },
    async (req, reply) => {
      const text = await (await svc.history(req.params.id)).diff(req.query.file, req.query.from, req.query.to);
      return reply.type("text/plain; charset=utf-8").send(text);
    },
  );
  r.get(
    "/chaincode-projects/:id/file_at_commit",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "getProjectFileAtCommit",
        tags,
        summary: "A file's contents at a commit",
        params: projectIdParams,
        querystring: fileAtCommitQuery,
        response: { 200: z.string().describe("File contents (text/plain)") },
      },
    },
    async (req, reply) => {
      const text = await (await svc.history(req.params.id)).fileAt(req.query.commit, req.query.file);
      return reply.type("text/plain; charset=utf-8").send(text);
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
}
