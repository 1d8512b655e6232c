import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import {
  commitParams,
  commitResponse,
  commitsQuery,
  diffQuery,
  fileAtCommitQuery,
  projectIdParams,
} from "./projects.schema.js";
import type { ProjectsService } from "./projects.service.js";

const tags = ["Chaincode Projects"];
const user = (req: FastifyRequest): string => req.principal?.username ?? "";

/** A project's history: commits, restore, diffs and files at a commit. */
export function registerProjectHistoryRoutes(app: FastifyInstance, svc: ProjectsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

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
        response: { 200: lazySchema(() => z.object({ commits: z.array(commitResponse) })) },
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
        response: { 200: lazySchema(() => z.string().describe("Unified diff (text/plain)")) },
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
        response: { 200: lazySchema(() => z.string().describe("File contents (text/plain)")) },
      },
    },
    async (req, reply) => {
      const text = await (await svc.history(req.params.id)).fileAt(req.query.commit, req.query.file);
      return reply.type("text/plain; charset=utf-8").send(text);
    },
  );
}
