import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type * as McpTypes from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { VERSION } from "../../app.js";
import { isAllowed, presentedApiKey } from "../../http/auth-hooks.js";
import { ForbiddenError } from "../../http/errors.js";
import type { Principal } from "../../http/principal.js";
import type { RouteAccess } from "../../http/permissions.js";
import { buildTools, requestOf, type ToolDef } from "./mcp.tools.js";

const NAME = "chainlaunch";
/** The only method the endpoint serves (the `Allow` header of its 405s). */
const ALLOW = "POST";
const OPENAPI_URI = "chainlaunch://openapi.json";
/** A tool's answer is cut here so one call can't flood the assistant's context. */
const MAX_TOOL_TEXT = 200_000;

/**
 * The MCP SDK, loaded with the first MCP request: its protocol types are ~500 zod schemas that every start
 * built before (issue 34). A failed load is tried again by the next request.
 */
let sdkLoad:
  | Promise<{
      Server: typeof Server;
      Transport: typeof WebStandardStreamableHTTPServerTransport;
      types: typeof McpTypes;
    }>
  | undefined;
const sdk = () =>
  (sdkLoad ??= Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]).then(
    ([server, transport, types]) => ({
      Server: server.Server,
      Transport: transport.WebStandardStreamableHTTPServerTransport,
      types,
    }),
    (err: unknown) => {
      sdkLoad = undefined;
      throw err;
    },
  ));

/**
 * GET (the client's standalone SSE stream for server-initiated messages) and DELETE (end of a
 * session) of a stateless server: the Streamable HTTP spec lets a server without that stream answer
 * GET with 405, and one without sessions answer DELETE with 405. Both official SDKs and the Inspector
 * open the GET once per session and carry on without it. Served by the SDK's transport, the GET was an
 * endless stream that this route waited on, and never answered (issue 29, item 10). Not audited:
 * it is the protocol saying "no stream here", not a refused action, and comes once per session.
 */
function notOffered(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  req.auditDone = true;
  return reply
    .code(405)
    .header("allow", ALLOW)
    .send({
      error: "METHOD_NOT_ALLOWED",
      message: `${req.method} /mcp: this MCP server is stateless and offers no event stream or session; send JSON-RPC messages with POST`,
      requestId: String(req.id),
    });
}

/**
 * The console as a Model Context Protocol server over Streamable HTTP (docs/mcp.md). Stateless:
 * each POST gets its own server and transport, closed when its answer is ready; GET and DELETE get a 405. Authentication is by API key only, and every tool
 * call is the REST call it names, made with the caller's key, so the key's user and role, the
 * permission table, validation and the audit log apply exactly as they do to the REST API.
 */
export function registerMcpRoutes(
  app: FastifyInstance,
  deps: {
    routes: () => readonly { method: string; url: string; access: RouteAccess }[];
    openapi: () => Promise<Record<string, unknown>>;
  },
): void {
  let tools: ToolDef[] | undefined;
  const toolDefs = async (): Promise<ToolDef[]> => {
    tools ??= buildTools((await deps.openapi()) as unknown as Parameters<typeof buildTools>[0], deps.routes());
    return tools;
  };

  async function mcpServer(
    req: FastifyRequest,
    principal: Principal,
    calls: { tool: string; status: number }[],
  ): Promise<{ server: Server; transport: WebStandardStreamableHTTPServerTransport }> {
    const { Server, Transport, types } = await sdk();
    const { CallToolRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema } =
      types;
    const server = new Server(
      { name: NAME, version: VERSION },
      {
        capabilities: { tools: {}, resources: {} },
        instructions:
          "ChainLaunch operates Hyperledger Fabric and Besu nodes and networks. Tools run as the API key's user and role.",
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: (await toolDefs())
        .filter((t) => isAllowed(t.access, principal, t.method))
        .map((t) => ({
          name: t.name,
          description: t.description,
          inputSchema: t.inputSchema,
          annotations: { readOnlyHint: t.readOnly, destructiveHint: !t.readOnly && t.method === "DELETE" },
        })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const tool = (await toolDefs()).find((t) => t.name === request.params.name);
      if (!tool) {
        calls.push({ tool: request.params.name, status: 404 });
        return { isError: true, content: [{ type: "text" as const, text: `unknown tool ${request.params.name}` }] };
      }
      let call: ReturnType<typeof requestOf>;
      try {
        call = requestOf(tool, (request.params.arguments ?? {}) as Record<string, unknown>);
      } catch (err) {
        calls.push({ tool: tool.name, status: 400 });
        return { isError: true, content: [{ type: "text" as const, text: (err as Error).message }] };
      }
      // The REST route decides: a role that may not call it gets its 403 (and the denial is audited there).
      const res = await app.inject({
        method: call.method as "GET",
        url: call.url,
        headers: {
          "x-api-key": presentedApiKey(req) ?? "",
          ...(call.body !== undefined ? { "content-type": "application/json" } : {}),
        },
        remoteAddress: req.ip,
        ...(call.body !== undefined ? { payload: JSON.stringify(call.body) } : {}),
      });
      calls.push({ tool: tool.name, status: res.statusCode });
      const text = res.body.length > MAX_TOOL_TEXT ? `${res.body.slice(0, MAX_TOOL_TEXT)}\n…(truncated)` : res.body;
      return {
        isError: res.statusCode >= 400,
        content: [{ type: "text" as const, text: res.statusCode >= 400 ? `HTTP ${res.statusCode}: ${text}` : text }],
      };
    });
    server.setRequestHandler(ListResourcesRequestSchema, async () => ({
      resources: [
        {
          uri: OPENAPI_URI,
          name: "openapi",
          title: "ChainLaunch REST API (OpenAPI 3)",
          mimeType: "application/json",
        },
      ],
    }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      if (request.params.uri !== OPENAPI_URI) throw new Error(`unknown resource ${request.params.uri}`);
      return {
        contents: [{ uri: OPENAPI_URI, mimeType: "application/json", text: JSON.stringify(await deps.openapi()) }],
      };
    });
    const transport = new Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    return { server, transport };
  }

  app.route({
    method: ["POST", "GET", "DELETE"],
    url: "/mcp",
    config: { access: "self", audit: "mcp.request" },
    schema: { hide: true },
    handler: async (req, reply) => {
      const principal = req.principal;
      if (!principal || principal.via !== "api_key") {
        throw new ForbiddenError(
          "the MCP endpoint takes an API key only (X-API-Key or Authorization: Bearer); create one under Settings → MCP",
        );
      }
      if (req.method !== "POST") return notOffered(req, reply);
      const calls: { tool: string; status: number }[] = [];
      const { server, transport } = await mcpServer(req, principal, calls);
      await server.connect(transport);
      // The per-request server lives no longer than its request: with JSON answers (no stream) the
      // transport resolves once every response is ready, and both are closed below.
      try {
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) {
          if (typeof v === "string") headers.set(k, v);
          else if (Array.isArray(v)) headers.set(k, v.join(", "));
        }
        const url = `http://${req.host}${req.url}`;
        const request = new Request(url, {
          method: req.method,
          headers,
          body: JSON.stringify(req.body ?? null),
        });
        const res = await transport.handleRequest(request, { parsedBody: req.body });
        const body = await res.text();
        const messages = [req.body].flat() as { method?: string }[];
        req.auditInfo.resource = "mcp";
        req.auditInfo.details = {
          methods: messages.map((m) => m?.method ?? "").filter(Boolean),
          ...(calls.length ? { tools: calls } : {}),
          api_key_id: principal.apiKeyId,
        };
        reply.code(res.status);
        res.headers.forEach((v, k) => {
          if (k !== "content-length") reply.header(k, v);
        });
        return reply.send(body);
      } finally {
        await transport.close();
        await server.close();
      }
    },
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/mcp/info",
    {
      config: { access: "public" },
      schema: {
        operationId: "getMCPInfo",
        tags: ["MCP"],
        summary: "What the MCP server offers: name, version, transport, endpoint and tools (no credentials needed)",
        response: {
          200: lazySchema(() =>
            z
              .object({
                name: z.string().describe("Server name"),
                version: z.string().describe("Console version"),
                transport: z.string().describe("streamable-http"),
                endpoint: z.string().describe("URL MCP clients connect to"),
                authentication: z.string().describe("How clients authenticate"),
                tools: z
                  .array(
                    z.object({
                      name: z.string().describe("Tool name"),
                      description: z.string().describe("What it does (from the OpenAPI operation)"),
                      read_only: z.boolean().describe("Only reads"),
                    }),
                  )
                  .describe("Every tool; a key sees those its role may call"),
              })
              .catchall(z.unknown()),
          ),
        },
      },
    },
    async (req) => ({
      name: NAME,
      version: VERSION,
      transport: "streamable-http",
      endpoint: `${req.protocol}://${req.host}/api/v1/mcp`,
      authentication: "API key: X-API-Key header or Authorization: Bearer <key>",
      tools: (await toolDefs()).map((t) => ({ name: t.name, description: t.description, read_only: t.readOnly })),
    }),
  );
}
