import type { RouteAccess } from "../../http/permissions.js";

/**
 * The MCP tools: each is one REST operation, named by its operationId, so its input schema and
 * description come from the OpenAPI document and a call runs through the same route (validation,
 * permission table, audit) as the REST API.
 */
export const TOOL_OPERATIONS: Record<string, string> = {
  list_nodes: "listNodes",
  get_node: "getNode",
  start_node: "startNode",
  stop_node: "stopNode",
  restart_node: "restartNode",
  node_logs: "tailNodesLogs",
  node_health: "getNodeHealthStatus",
  node_events: "getNodeEvents",
  list_fabric_networks: "listFabricNetworks",
  get_fabric_network: "getFabricNetwork",
  fabric_network_nodes: "getFabricNetworkNodes",
  channel_info: "getChainInfo",
  list_blocks: "getFabricBlocks",
  get_block: "getFabricBlock",
  channel_config: "getFabricCurrentChannelConfig",
  list_besu_networks: "listBesuNetworks",
  get_besu_network: "getBesuNetwork",
  list_organizations: "listFabricOrganizations",
  get_organization: "getFabricOrganization",
  list_chaincodes: "listFabricChaincodes",
  get_chaincode: "getFabricChaincodeDetail",
  query_chaincode: "queryChaincode",
  invoke_chaincode: "invokeChaincode",
  list_notifications: "listUserNotifications",
};

type Json = Record<string, unknown>;

export interface ToolDef {
  name: string;
  description: string;
  method: string;
  /** OpenAPI path, e.g. /nodes/{id}/stop. */
  path: string;
  access: RouteAccess;
  readOnly: boolean;
  inputSchema: { type: "object"; properties: Record<string, unknown>; required?: string[] };
  pathParams: string[];
  queryParams: string[];
  hasBody: boolean;
}

/** Replaces every $ref with the schema it names (cycles become {}), so a tool's schema stands alone. */
function inline(schema: unknown, components: Record<string, unknown>, seen: string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inline(s, components, seen));
  if (!schema || typeof schema !== "object") return schema;
  const s = schema as Json;
  if (typeof s.$ref === "string") {
    const name = s.$ref.split("/").pop()!;
    if (seen.includes(name) || seen.length > 12) return {};
    return inline(components[name] ?? {}, components, [...seen, name]);
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) out[k] = inline(v, components, seen);
  return out;
}

/** The route access of `method path` (an OpenAPI path) from the registered routes. */
export function accessOf(
  routes: readonly { method: string; url: string; access: RouteAccess }[],
  method: string,
  path: string,
): RouteAccess | undefined {
  const url = `/api/v1${path.replace(/\{(\w+)\}/g, ":$1")}`;
  return routes.find((r) => r.method === method && r.url === url)?.access;
}

/** Builds the tool definitions from the OpenAPI document and the registered routes. */
export function buildTools(
  doc: { paths?: Record<string, Record<string, Json>>; components?: { schemas?: Record<string, unknown> } },
  routes: readonly { method: string; url: string; access: RouteAccess }[],
): ToolDef[] {
  const components = doc.components?.schemas ?? {};
  const byId = new Map<string, { method: string; path: string; op: Json }>();
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(ops)) {
      if (typeof op.operationId === "string") byId.set(op.operationId, { method: method.toUpperCase(), path, op });
    }
  }
  const tools: ToolDef[] = [];
  for (const [name, operationId] of Object.entries(TOOL_OPERATIONS)) {
    const found = byId.get(operationId);
    if (!found) throw new Error(`MCP tool ${name}: no operation ${operationId} in the OpenAPI document`);
    const { method, path, op } = found;
    const access = accessOf(routes, method, path);
    if (!access) throw new Error(`MCP tool ${name}: ${method} ${path} is not a registered route`);
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    const pathParams: string[] = [];
    const queryParams: string[] = [];
    for (const p of (op.parameters as Json[] | undefined) ?? []) {
      const pname = String(p.name);
      if (pname === "fieldValidation") continue;
      if (p.in === "path") pathParams.push(pname);
      else if (p.in === "query") queryParams.push(pname);
      else continue;
      properties[pname] = { ...(inline(p.schema, components) as Json), description: p.description ?? pname };
      if (p.required) required.push(pname);
    }
    const body = (op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
    const bodySchema = body?.["application/json"]?.schema;
    if (bodySchema) {
      properties.body = { ...(inline(bodySchema, components) as Json), description: "The request body" };
      if ((op.requestBody as Json).required) required.push("body");
    }
    const summary = String(op.summary ?? operationId);
    tools.push({
      name,
      description: op.description ? `${summary}. ${String(op.description)}` : summary,
      method,
      path,
      access,
      readOnly: method === "GET",
      inputSchema: { type: "object", properties, ...(required.length ? { required } : {}) },
      pathParams,
      queryParams,
      hasBody: Boolean(bodySchema),
    });
  }
  return tools;
}

/** The REST call a tool makes for `args`; the message names the argument when one is missing. */
export function requestOf(tool: ToolDef, args: Json): { method: string; url: string; body?: unknown } {
  let path = tool.path;
  for (const p of tool.pathParams) {
    const v = args[p];
    if (v === undefined || v === null || v === "") throw new Error(`${p}: required`);
    path = path.replace(`{${p}}`, encodeURIComponent(String(v)));
  }
  const q = new URLSearchParams();
  for (const p of tool.queryParams) {
    const v = args[p];
    if (v !== undefined && v !== null) q.set(p, String(v));
  }
  const qs = q.toString();
  return {
    method: tool.method,
    url: `/api/v1${path}${qs ? `?${qs}` : ""}`,
    ...(tool.hasBody && args.body !== undefined ? { body: args.body } : {}),
  };
}
