import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { sendLogFile } from "../../http/log-response.js";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import {
  handlerRequest,
  handlerResponse,
  projectLogsQuery,
  startResponse,
  projectIdParams,
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

/** Running a project on its channel, calling it, and its run log. */
export function registerProjectRunRoutes(app: FastifyInstance, svc: ProjectsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    "/chaincode-projects/:id/start",
    {
      config: { access: "CHAINCODE_EXECUTE", audit: "chaincode_project.start" },
      schema: {
        operationId: "startProjectServer",
        tags,
        summary:
          "Build the project and run it on its channel as the next sequence (install, run, verify, approve, commit)",
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
        response: { 200: lazySchema(() => z.record(z.string(), z.string())) },
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
        response: { 200: lazySchema(() => z.string().describe("Log lines (text/plain)")) },
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
        response: { 200: lazySchema(() => z.string().describe("SSE stream (text/event-stream)")) },
      },
    },
    async (req, reply) => sendLog(await svc.logPath(req.params.id), reply, { tail: 500, follow: true, sse: true }),
  );
}
