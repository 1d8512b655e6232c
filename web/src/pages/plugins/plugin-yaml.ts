import { isApiError } from "@/api/errors";
import type { EditorMarker } from "@/components/code-editor/CodeEditor";
import type { PluginProblem } from "@/data/plugins/types";

/** What "New plugin" starts from: a small process plugin that serves a folder over HTTP. */
export const NEW_PLUGIN_TEMPLATE = `apiVersion: dev.chainlaunch/v1
kind: Plugin
metadata:
  name: my-plugin
  version: "0.1.0"
  description: A static file server on a port of your choice
  tags: [example]
spec:
  parameters:
    $schema: http://json-schema.org/draft-07/schema#
    type: object
    properties:
      port:
        type: integer
        title: Port
        description: Where the server listens (127.0.0.1)
        minimum: 1024
        maximum: 65535
        default: 8800
    required: [port]
  processes:
    - name: web
      command: "{{ .runtime.node }}"
      args:
        - "-e"
        - "require('http').createServer((q, s) => s.end('ok')).listen({{ .parameters.port }}, '127.0.0.1')"
      ports:
        - name: http
          port: "{{ .parameters.port }}"
          protocol: tcp
      healthCheck:
        type: tcp
        port: "{{ .parameters.port }}"
  documentation:
    readme: |
      # My plugin
      Answers "ok" on http://127.0.0.1:<port>/.
`;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}

function asProblem(v: unknown): PluginProblem | undefined {
  if (!isRecord(v) || typeof v.message !== "string") return undefined;
  return {
    path: typeof v.path === "string" ? v.path : "",
    message: v.message,
    ...(typeof v.line === "number" ? { line: v.line } : {}),
    ...(typeof v.column === "number" ? { column: v.column } : {}),
  };
}

/**
 * The problems of a rejected save: the server's `details.errors` when it lists them, else the
 * message read as "path: message (line N, column M)" parts joined by "; ".
 */
export function problemsFromError(error: unknown): PluginProblem[] {
  if (!isApiError(error) || error.status !== 400) return [];
  const body = isRecord(error.body) ? error.body : {};
  const details = isRecord(body.details) ? body.details : {};
  if (Array.isArray(details.errors)) {
    const listed = details.errors.map(asProblem).filter((p): p is PluginProblem => p !== undefined);
    if (listed.length) return listed;
  }
  if (!error.message) return [];
  return error.message.split("; ").map((part) => {
    const at = /\s*\(line (\d+), column (\d+)\)$/.exec(part);
    const rest = at ? part.slice(0, at.index) : part;
    const m = /^([a-z][\w.[\]-]*): (.+)$/s.exec(rest);
    return {
      path: m ? m[1]! : "",
      message: m ? m[2]! : rest,
      ...(at ? { line: Number(at[1]), column: Number(at[2]) } : {}),
    };
  });
}

/** Editor markers of the problems that have a place in the text (others only show in the list). */
export function markersOf(problems: readonly PluginProblem[]): EditorMarker[] {
  return problems
    .filter((p) => typeof p.line === "number" && p.line > 0)
    .map((p) => ({
      line: p.line!,
      column: Math.max(1, p.column ?? 1),
      message: p.path ? `${p.path}: ${p.message}` : p.message,
    }));
}

/** One problem as the list under the editor shows it: "line:column path message". */
export function describeProblem(p: PluginProblem): string {
  const where = p.line ? `${p.line}:${p.column ?? 1}` : "";
  return [where, p.path, p.message].filter(Boolean).join(" ");
}
