import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { API_BASE, api, unwrap } from "@/api/client";
import { projectKeys } from "@/data/projects/project-data";

/** The terminal's settings for a project, and whether the caller may open a shell there (and why not). */
export interface ShellConfig {
  available: boolean;
  reason?: string;
  sandboxed: boolean;
  sandbox: string;
  idleTimeoutMinutes: number;
  workingDir: string;
}

export const shellKeys = {
  config: (id: number) => [...projectKeys.all, "shell-config", id] as const,
};

/** Only for those who may run the project (viewers get 403, so the query is not even made for them). */
export function useShellConfigQuery(id: number, enabled: boolean): UseQueryResult<ShellConfig> {
  return useQuery({
    queryKey: shellKeys.config(id),
    queryFn: () => unwrap(api.GET("/chaincode-projects/{id}/shell/config", { params: { path: { id } } })),
    enabled: enabled && Number.isFinite(id),
  });
}

/** Ends a shell session (its processes are killed on the server). */
export async function endShellSession(id: number, sessionID: string): Promise<void> {
  await unwrap(
    api.DELETE("/chaincode-projects/{id}/shell/sessions/{sessionID}", { params: { path: { id, sessionID } } }),
  );
}

/** The websocket URL of a project's terminal (same origin: the session cookie goes along). */
export function shellSocketUrl(id: number, q: { cols: number; rows: number; sessionId?: string }): string {
  const proto = window.location.protocol === "https:" ? "wss" : "ws";
  const params = new URLSearchParams({ cols: String(q.cols), rows: String(q.rows) });
  if (q.sessionId) params.set("sessionId", q.sessionId);
  return `${proto}://${window.location.host}${API_BASE}/chaincode-projects/${id}/shell/ws?${params.toString()}`;
}

/** Where the project's zip is downloaded from. */
export const projectDownloadUrl = (id: number): string => `${API_BASE}/chaincode-projects/${id}/download`;
