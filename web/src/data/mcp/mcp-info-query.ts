import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type ResponseOf } from "@/api/client";
import { mcpKeys } from "@/data/mcp/keys";

/** What the console's MCP server offers: endpoint, transport, version and every tool. */
export type McpInfo = ResponseOf<"/mcp/info", "get">;
export type McpTool = McpInfo["tools"][number];

/** Reads `GET /mcp/info` (public; the tool list only changes with the console version). */
export function useMcpInfoQuery(): UseQueryResult<McpInfo> {
  return useQuery({ queryKey: mcpKeys.info(), queryFn: () => unwrap(api.GET("/mcp/info")), staleTime: 5 * 60_000 });
}
