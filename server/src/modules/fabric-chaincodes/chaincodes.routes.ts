import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { assertHostCommandAllowed } from "../../http/host-command.js";
import { sendLogFile } from "../../http/log-response.js";
import type { ChaincodeCalls } from "./chaincodes.calls.js";
import {
  callBody,
  callResponse,
  chaincodeDefinitionParams,
  chaincodeIdParams,
  chaincodeParams,
  chaincodeResponse,
  createChaincodeBody,
  createDefinitionBody,
  definitionParams,
  definitionResponse,
  deployBody,
  dockerInfoResponse,
  eventResponse,
  installBody,
  logsQuery,
  messageResponse,
  peerBody,
  peerParams,
  sequenceQuery,
  sequenceResponse,
  sourceQuery,
  statusResponse,
  updateDefinitionBody,
} from "./chaincodes.schema.js";
import type { ChaincodesService } from "./chaincodes.service.js";
import { assertOutsideDataDir, assertSourceTreeSafe } from "./source-policy.js";

const tags = ["Chaincode"];
const user = (req: FastifyRequest): string => req.principal?.username ?? "";

/** Largest chaincode source archive accepted. */
export const MAX_SOURCE_BYTES = 200 * 1024 * 1024;

const EXECUTABLE = "a prebuilt chaincode executable";
const SOURCE_PATH = "copying chaincode source from a path on this host";

/**
 * Fabric chaincodes, definitions and their lifecycle (/sc/fabric/...). What a definition runs is
 * checked here, before the service stores anything: a prebuilt executable and a `source_path` are
 * host commands (HOST_COMMAND, admins); a source_path touching the data directory and an npm
 * install script are refused for everyone (docs/chaincode.md, "Who may define what runs").
 */
export function registerChaincodesRoutes(
  app: FastifyInstance,
  svc: ChaincodesService,
  calls: ChaincodeCalls,
  opts: { dataDir: string },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** A host folder or file to copy as source: admins only, never the data directory, no npm install scripts. */
  async function checkSourcePath(req: FastifyRequest, path: string, field: string): Promise<void> {
    assertHostCommandAllowed(req, field, SOURCE_PATH);
    await assertOutsideDataDir(path, opts.dataDir, field);
    await assertSourceTreeSafe(path);
  }
  /** The source fields of a definition body (create and update). */
  async function checkDefinitionSource(
    req: FastifyRequest,
    body: { source_type?: string; source_path?: string },
  ): Promise<void> {
    if (body.source_type === "executable") assertHostCommandAllowed(req, "source_type", EXECUTABLE);
    if (body.source_path) await checkSourcePath(req, body.source_path, "source_path");
  }
  /**
   * An upload declared an executable is a host command. What an archive holds is checked by the service on
   * the files it stores (the executable it finds goes through `admit`, install scripts are refused there).
   */
  function checkUpload(req: FastifyRequest, type: string): void {
    if (type === "executable") assertHostCommandAllowed(req, "type", EXECUTABLE);
  }

  r.get(
    "/sc/fabric/chaincodes",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "listFabricChaincodes",
        tags,
        summary: "List Fabric chaincodes",
        response: { 200: lazySchema(() => z.object({ chaincodes: z.array(chaincodeResponse) })) },
      },
    },
    async () => svc.list(),
  );
  r.post(
    "/sc/fabric/chaincodes",
    {
      config: { access: "CHAINCODE_CREATE", audit: "chaincode.create" },
      schema: {
        operationId: "createChaincode",
        tags,
        summary: "Create a chaincode (a name on one Fabric channel)",
        body: createChaincodeBody,
        response: { 200: lazySchema(() => z.object({ chaincode: chaincodeResponse })) },
      },
    },
    async (req) => {
      req.auditInfo.details = { name: req.body.name, network_id: req.body.network_id };
      const chaincode = await svc.create(req.body);
      req.auditInfo.resource = `chaincode:${chaincode.id}`;
      return { chaincode };
    },
  );
  r.get(
    "/sc/fabric/chaincodes/:id",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "getFabricChaincodeDetail",
        tags,
        summary: "Get a chaincode",
        params: chaincodeIdParams,
        response: { 200: chaincodeResponse },
      },
    },
    async (req) => svc.get(req.params.id),
  );
  r.delete(
    "/sc/fabric/chaincodes/:id",
    {
      config: { access: "CHAINCODE_DELETE", audit: "chaincode.delete" },
      schema: {
        operationId: "deleteChaincode",
        tags,
        summary: "Delete a chaincode and its definitions (stops their chaincode servers)",
        params: chaincodeIdParams,
        response: { 200: messageResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `chaincode:${req.params.id}`;
      return svc.remove(req.params.id);
    },
  );

  r.get(
    "/sc/fabric/chaincodes/:chaincodeId/definitions",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "listChaincodeDefinitions",
        tags,
        summary: "List a chaincode's definitions",
        params: chaincodeParams,
        response: { 200: lazySchema(() => z.object({ definitions: z.array(definitionResponse) })) },
      },
    },
    async (req) => svc.listDefinitions(req.params.chaincodeId),
  );
  r.post(
    "/sc/fabric/chaincodes/:chaincodeId/definitions",
    {
      config: { access: "CHAINCODE_CREATE", audit: "chaincode.definition.create" },
      schema: {
        operationId: "createChaincodeDefinition",
        tags,
        summary: "Create a definition: version, next sequence, endorsement policy, collections, source",
        description:
          "source_type executable and source_path define what runs on the host: 403 unless the caller holds " +
          "HOST_COMMAND (admins). A source_path inside (or holding) the data directory, or whose package.json has " +
          "an npm install script (preinstall, install, postinstall, prepare, ...): 400 naming it.",
        params: chaincodeParams,
        body: createDefinitionBody,
        response: { 200: lazySchema(() => z.object({ definition: definitionResponse })) },
      },
    },
    async (req) => {
      req.auditInfo.details = { version: req.body.version, sequence: req.body.sequence };
      await checkDefinitionSource(req, req.body);
      const definition = await svc.createDefinition(req.params.chaincodeId, req.body);
      req.auditInfo.resource = `chaincode_definition:${definition.id}`;
      return { definition };
    },
  );
  r.get(
    "/sc/fabric/chaincodes/:chaincodeId/definitions/:definitionId",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "getChaincodeDefinitionDetail",
        tags,
        summary: "A definition with its timeline",
        params: chaincodeDefinitionParams,
        response: {
          200: lazySchema(() => z.object({ definition: definitionResponse, events: z.array(eventResponse) })),
        },
      },
    },
    async (req) => svc.getDefinition(req.params.chaincodeId, req.params.definitionId),
  );
  r.put(
    "/sc/fabric/definitions/:definitionId",
    {
      config: { access: "CHAINCODE_UPDATE", audit: "chaincode.definition.update" },
      schema: {
        operationId: "updateChaincodeDefinition",
        tags,
        summary: "Change a definition that is not committed yet",
        description: "source_type and source_path are checked as on create (403 for executable and source_path).",
        params: definitionParams,
        body: updateDefinitionBody,
        response: { 200: definitionResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `chaincode_definition:${req.params.definitionId}`;
      await checkDefinitionSource(req, req.body);
      return svc.updateDefinition(req.params.definitionId, req.body);
    },
  );
  r.delete(
    "/sc/fabric/definitions/:definitionId",
    {
      config: { access: "CHAINCODE_DELETE", audit: "chaincode.definition.delete" },
      schema: {
        operationId: "deleteChaincodeDefinition",
        tags,
        summary: "Delete a definition (stops its chaincode server)",
        params: definitionParams,
        response: { 200: messageResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `chaincode_definition:${req.params.definitionId}`;
      return svc.deleteDefinition(req.params.definitionId);
    },
  );

  // Source upload: the archive is the raw body (tar.gz, tar or zip; or the executable itself).
  app.register(async (scope) => {
    scope.addContentTypeParser(
      ["application/octet-stream", "application/gzip", "application/x-gzip", "application/x-tar", "application/zip"],
      { parseAs: "buffer", bodyLimit: MAX_SOURCE_BYTES },
      (_req, body, done) => done(null, body),
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      "/sc/fabric/definitions/:definitionId/source",
      {
        bodyLimit: MAX_SOURCE_BYTES,
        config: { access: "CHAINCODE_CREATE", audit: "chaincode.definition.source" },
        schema: {
          operationId: "uploadChaincodeDefinitionSource",
          tags,
          summary:
            "Upload the chaincode's code: an archive (tar.gz, tar, zip) of a Node.js or Go project, or an executable",
          description:
            "Send the file as the request body (Content-Type application/octet-stream or application/gzip), or JSON " +
            '{"source_path": "/dir"} to copy a directory or executable of this host. ' +
            "type=auto detects package.json (node), go.mod (go) or a single executable. An executable (type=executable, " +
            "or detected) and source_path need HOST_COMMAND (admins): 403 for others. A package.json with an npm " +
            "install script (preinstall, install, postinstall, prepare, ...): 400 naming it.",
          params: definitionParams,
          querystring: sourceQuery,
          response: { 200: definitionResponse },
        },
      },
      async (req) => {
        req.auditInfo.resource = `chaincode_definition:${req.params.definitionId}`;
        if (Buffer.isBuffer(req.body)) checkUpload(req, req.query.type);
        else {
          const path = (req.body as { source_path?: unknown } | null)?.source_path;
          if (typeof path === "string" && path) await checkSourcePath(req, path, "body.source_path");
        }
        return svc.uploadSource(req.params.definitionId, req.body as unknown, req.query.type, user(req), (found) => {
          if (found === "executable")
            assertHostCommandAllowed(req, "body", `${EXECUTABLE} (the upload is a single executable)`);
        });
      },
    );
  });

  const action = (
    name: "install" | "approve" | "commit",
    summary: string,
    body: typeof installBody | typeof peerBody,
    run: (
      req: FastifyRequest<{ Params: { definitionId: number }; Body: Record<string, unknown> }>,
    ) => Promise<Record<string, string>>,
  ) =>
    r.post(
      `/sc/fabric/definitions/:definitionId/${name}`,
      {
        config: { access: "CHAINCODE_UPDATE", audit: `chaincode.definition.${name}` as const },
        schema: {
          operationId: `${name}ChaincodeByDefinition`,
          tags,
          summary,
          params: definitionParams,
          body,
          response: { 200: messageResponse },
        },
      },
      async (req) => {
        req.auditInfo.resource = `chaincode_definition:${req.params.definitionId}`;
        req.auditInfo.details = req.body as Record<string, unknown>;
        return run(req as never);
      },
    );
  action("install", "Install the definition's ccaas package on peers", installBody, (req) =>
    svc.install(req.params.definitionId, req.body.peer_ids as number[], user(req)),
  );
  action("approve", "Approve the definition for the org of a peer (signed by that org's admin)", peerBody, (req) =>
    svc.approve(req.params.definitionId, req.body.peer_id as number, user(req)),
  );
  action("commit", "Commit the definition on the channel once enough orgs approved", peerBody, (req) =>
    svc.commit(req.params.definitionId, req.body.peer_id as number, user(req)),
  );

  r.post(
    "/sc/fabric/definitions/:definitionId/deploy",
    {
      config: { access: "CHAINCODE_EXECUTE", audit: "chaincode.definition.deploy" },
      schema: {
        operationId: "deployChaincodeByDefinition",
        tags,
        summary: "Build the source and run the chaincode server as a supervised process",
        params: definitionParams,
        body: deployBody,
        response: { 200: messageResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `chaincode_definition:${req.params.definitionId}`;
      return svc.deploy(req.params.definitionId, req.body.environment_variables, user(req));
    },
  );
  r.post(
    "/sc/fabric/definitions/:definitionId/undeploy",
    {
      config: { access: "CHAINCODE_EXECUTE", audit: "chaincode.definition.undeploy" },
      schema: {
        operationId: "removeChaincodeDeployment",
        tags,
        summary: "Stop the chaincode server",
        params: definitionParams,
        response: { 200: messageResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `chaincode_definition:${req.params.definitionId}`;
      return svc.undeploy(req.params.definitionId, user(req));
    },
  );
  r.get(
    "/sc/fabric/definitions/:definitionId/docker-info",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "getChaincodeDefinitionDockerInfo",
        tags,
        summary: "The chaincode server process (Docker's container-info shape: id = pid)",
        params: definitionParams,
        response: { 200: dockerInfoResponse },
      },
    },
    async (req) => svc.dockerInfo(req.params.definitionId),
  );
  r.get(
    "/sc/fabric/definitions/:definitionId/timeline",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "getChaincodeDefinitionTimeline",
        tags,
        summary: "Every lifecycle step of a definition: who, when, outcome and error",
        params: definitionParams,
        response: { 200: lazySchema(() => z.array(eventResponse)) },
      },
    },
    async (req) => svc.timeline(req.params.definitionId),
  );
  r.get(
    "/sc/fabric/definitions/:definitionId/status",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "getChaincodeDefinitionStatus",
        tags,
        summary: "Where a definition stands, read from the peers: installed per peer, approved per org, committed",
        params: definitionParams,
        response: { 200: statusResponse },
      },
    },
    async (req) => svc.status(req.params.definitionId),
  );
  r.get(
    "/sc/fabric/definitions/:definitionId/logs",
    {
      compress: false,
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "getChaincodeDefinitionLogs",
        tags,
        summary: "The chaincode server's log: the last `tail` lines, then new lines while `follow` is on (SSE)",
        params: definitionParams,
        querystring: logsQuery,
        response: { 200: lazySchema(() => z.string().describe("Log lines (text/plain)")) },
      },
    },
    async (req, reply) => {
      const file = await svc.logFile(req.params.definitionId);
      const sse = req.query.follow && (req.headers.accept ?? "").includes("text/event-stream");
      return sendLogFile(reply, file, { tail: req.query.tail, follow: req.query.follow, sse });
    },
  );
  r.get(
    "/sc/fabric/peer/:peerId/chaincode/sequence",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "getFabricChaincodeSequence",
        tags: ["SmartContracts"],
        summary: "The committed sequence of a chaincode on a channel, read from a peer",
        params: peerParams,
        querystring: sequenceQuery,
        response: { 200: sequenceResponse },
      },
    },
    async (req) => svc.sequence(req.params.peerId, req.query.chaincodeName, req.query.channelName),
  );

  r.post(
    "/sc/fabric/chaincodes/:chaincodeId/invoke",
    {
      config: { access: "CHAINCODE_EXECUTE", audit: "chaincode.invoke" },
      schema: {
        operationId: "invokeChaincode",
        tags,
        summary: "Submit a transaction through a peer's Gateway and wait until it is committed",
        params: chaincodeParams,
        body: callBody,
        response: { 200: callResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `chaincode:${req.params.chaincodeId}`;
      req.auditInfo.details = { function: req.body.function, key_id: req.body.key_id };
      return calls.invoke(req.params.chaincodeId, req.body);
    },
  );
  r.post(
    "/sc/fabric/chaincodes/:chaincodeId/query",
    {
      config: { access: "CHAINCODE_READ", audit: "chaincode.query" },
      schema: {
        operationId: "queryChaincode",
        tags,
        summary: "Evaluate a transaction on a peer (nothing is ordered)",
        params: chaincodeParams,
        body: callBody,
        response: { 200: callResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `chaincode:${req.params.chaincodeId}`;
      req.auditInfo.details = { function: req.body.function, key_id: req.body.key_id };
      return calls.query(req.params.chaincodeId, req.body);
    },
  );
  r.get(
    "/sc/fabric/chaincodes/:chaincodeId/metadata",
    {
      config: { access: "CHAINCODE_READ" },
      schema: {
        operationId: "getChaincodeMetadata",
        tags,
        summary: "The contract metadata (org.hyperledger.fabric:GetMetadata)",
        params: chaincodeParams,
        response: {
          200: lazySchema(() => z.object({ status: z.string(), message: z.string(), result: z.unknown() })),
        },
      },
    },
    async (req) => calls.metadata(req.params.chaincodeId),
  );
}
