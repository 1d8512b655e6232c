import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { InputError } from "../../http/errors.js";
import { findExecutable } from "../../runtime/index.js";
import type { PluginDoc } from "./plugin-format.js";
import type { RenderedProcess } from "./plugins.runtime.js";
import type { PluginMetricsTarget } from "./plugins.state.js";
import { renderTemplate } from "./template.js";
import type { PluginFile } from "./x-source.js";

/** Where containers see the files bound for them. */
export const CONTAINER_DIR = "/etc/chainlaunch";

/**
 * The template context of a deploy: bound values, the files they point at (mounted read-only into
 * containers for compose), the console's runtime paths and the plugin's name.
 */
export function templateContext(
  name: string,
  resolved: { values: Record<string, unknown>; files: PluginFile[] },
  secrets: string,
  runtime: { node: string; builtins: string; dir: string; nodeImage?: string },
): Record<string, unknown> {
  return {
    parameters: resolved.values,
    runtime,
    plugin: { name },
    volumeMounts: resolved.files.map((f) => ({
      Source: join(secrets, f.rel),
      Target: `${CONTAINER_DIR}/${f.rel}`,
      ReadOnly: true,
    })),
  };
}

/** The docker-compose.yml a compose plugin deploys with (x-source paths are container paths). */
export function renderCompose(
  doc: PluginDoc,
  name: string,
  resolved: { values: Record<string, unknown>; files: PluginFile[] },
  secrets: string,
  runtime: { node: string; builtins: string; dir: string; nodeImage?: string },
): string {
  return renderTemplate(doc.spec.dockerCompose?.contents ?? "", templateContext(name, resolved, secrets, runtime));
}

/** Line breaks (YAML's, including NEL, LS and PS) and other control characters (tab aside). */
const hasLineBreakOrControl = (text: string): boolean =>
  [...text].some((ch) => {
    const c = ch.codePointAt(0) ?? 0;
    return (c < 0x20 && c !== 0x09) || c === 0x7f || c === 0x85 || c === 0x2028 || c === 0x2029;
  });

/**
 * Refuses a value that could add lines to a compose file: the template pastes values into YAML, so a
 * line break in e.g. a channel name would let whoever deploys add `volumes: ["/:/host"]` to a
 * catalogue plugin. Problems name `parameters.<field>`.
 */
export function checkComposeValues(values: unknown, path = "parameters"): void {
  if (typeof values === "string") {
    if (hasLineBreakOrControl(values))
      throw new InputError(
        `${path}: line breaks and control characters can't be bound into a compose file (the value would add lines to it)`,
        { field: path },
      );
  } else if (Array.isArray(values)) {
    values.forEach((v, i) => checkComposeValues(v, `${path}[${i}]`));
  } else if (values && typeof values === "object") {
    for (const [k, v] of Object.entries(values)) {
      if (hasLineBreakOrControl(k))
        throw new InputError(`${path}: a key with a line break can't be bound into a compose file`, { field: path });
      checkComposeValues(v, `${path}.${k}`);
    }
  }
}

/** Renders the processes of a plugin; problems name the field and the rendered value. */
export function renderProcesses(doc: PluginDoc, ctx: Record<string, unknown>, runDir: string): RenderedProcess[] {
  const r = (s: string | number): string => renderTemplate(String(s), ctx);
  const portOf = (s: string | number, field: string): number => {
    const text = r(s).trim();
    const n = Number(text);
    if (!/^\d+$/.test(text) || n < 1 || n > 65535) throw new InputError(`${field}: '${text}' is not a port`, { field });
    return n;
  };
  return (doc.spec.processes ?? []).map((p, i) => {
    const base = `spec.processes[${i}]`;
    let command = r(p.command).trim();
    if (!isAbsolute(command)) {
      const found = findExecutable(command, { envVar: "PATH", value: undefined }, process.env.PATH);
      if (!("path" in found))
        throw new InputError(`${base}.command: '${command}' is not on this host's PATH`, {
          field: `${base}.command`,
        });
      command = found.path;
    } else if (!existsSync(command)) {
      throw new InputError(`${base}.command: ${command} does not exist on this host`, { field: `${base}.command` });
    }
    const cwd = p.workingDir ? r(p.workingDir) : runDir;
    const h = p.healthCheck;
    return {
      name: p.name,
      command,
      args: (p.args ?? []).map(r),
      env: Object.fromEntries(Object.entries(p.env ?? {}).map(([k, v]) => [k, r(v)])),
      cwd,
      ports: (p.ports ?? []).map((x, j) => ({
        name: x.name,
        port: portOf(x.port, `${base}.ports[${j}].port`),
        protocol: x.protocol ?? "tcp",
      })),
      ...(h
        ? {
            health: {
              type: h.type,
              host: h.host ? r(h.host) : "127.0.0.1",
              port: portOf(h.port, `${base}.healthCheck.port`),
              path: h.path ? r(h.path) : "/",
              timeoutSeconds: h.timeoutSeconds ?? 60,
            },
          }
        : {}),
    };
  });
}

/** The plugin's metrics endpoints with their templates rendered (scraped on loopback). */
export function renderMetrics(doc: PluginDoc, name: string, ctx: Record<string, unknown>): PluginMetricsTarget[] {
  return (doc.spec.metrics?.endpoints ?? []).map((m, i) => {
    const field = `spec.metrics.endpoints[${i}].port`;
    const port = renderTemplate(String(m.port), ctx).trim();
    if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535)
      throw new InputError(`${field}: '${port}' is not a port`, { field });
    const service = m.service ?? doc.spec.processes?.[0]?.name ?? "app";
    return {
      job: m.jobName ?? `plugin-${name}-${service}`,
      service,
      target: `127.0.0.1:${port}`,
      path: m.path ? renderTemplate(m.path, ctx) : "/metrics",
      ...(m.interval ? { interval: m.interval } : {}),
    };
  });
}
