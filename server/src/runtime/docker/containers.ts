import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { PassThrough, type Readable } from "node:stream";
import type Docker from "dockerode";
import type { ContainerSpec } from "../supervisor.types.js";
import { LABEL } from "./networks.js";

/** The short tag of a console: a hash of its state folder. */
export function consoleTagOf(stateDir: string): string {
  return createHash("sha256").update(stateDir).digest("hex").slice(0, 8);
}

export const containerName = (tag: string, id: string): string => `chainlaunch-${tag}-${id}`;

/** The container's address on `network` (undefined on the host's network). */
export function ipOf(info: Docker.ContainerInspectInfo, network: string | undefined): string | undefined {
  if (!network || network === "host") return undefined;
  return info.NetworkSettings?.Networks?.[network]?.IPAddress || undefined;
}

/** The container of that name or id, or undefined when the engine has none. */
export async function inspectContainer(docker: Docker, name: string): Promise<Docker.ContainerInspectInfo | undefined> {
  try {
    return await docker.getContainer(name).inspect();
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) return undefined;
    throw err;
  }
}

function specHash(c: ContainerSpec): string {
  return createHash("sha256").update(JSON.stringify(c)).digest("hex").slice(0, 16);
}

/**
 * What the engine is asked to create for a spec: the console's labels, its uid unless the spec
 * says otherwise, no capabilities, `no-new-privileges`, no restart policy (the console restarts
 * crashed containers itself, with its backoff and events), the ports published and the aliases on
 * the spec's network ("host": the host's network namespace, nothing to publish).
 */
export function createOptions(
  c: ContainerSpec,
  p: { name: string; consoleTag: string; id: string },
): Docker.ContainerCreateOptions {
  const hostNet = c.network === "host";
  const exposed: Record<string, object> = {};
  const bindings: Record<string, { HostIp: string; HostPort: string }[]> = {};
  for (const port of c.ports) {
    const key = `${port.containerPort}/tcp`;
    exposed[key] = {};
    (bindings[key] ??= []).push({ HostIp: port.hostIp, HostPort: String(port.hostPort) });
  }
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  return {
    name: p.name,
    Image: c.image,
    ...(c.cmd ? { Cmd: c.cmd } : {}),
    ...(c.entrypoint ? { Entrypoint: c.entrypoint } : {}),
    Env: Object.entries(c.env).map(([k, v]) => `${k}=${v}`),
    User: c.user ?? `${uid}:${gid}`,
    ...(c.workingDir ? { WorkingDir: c.workingDir } : {}),
    ...(hostNet ? {} : { ExposedPorts: exposed }),
    Labels: {
      ...c.labels,
      [LABEL.managed]: "true",
      [LABEL.console]: p.consoleTag,
      [LABEL.id]: p.id,
      [LABEL.spec]: specHash(c),
    },
    HostConfig: {
      Binds: c.binds.map((b) => `${b.source}:${b.target}:${b.readOnly ? "ro" : "rw"}`),
      ...(hostNet ? {} : { PortBindings: bindings }),
      NetworkMode: c.network,
      CapDrop: ["ALL"],
      SecurityOpt: ["no-new-privileges"],
      RestartPolicy: { Name: "no" },
      Init: true,
    },
    ...(hostNet ? {} : { NetworkingConfig: { EndpointsConfig: { [c.network]: { Aliases: c.aliases } } } }),
  };
}

/** Appends the container's output from `since` (seconds) to `file` until it stops. */
export async function followLogs(
  docker: Docker,
  containerId: string,
  file: string,
  since: number,
  signal: AbortSignal,
): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const stream = (await docker.getContainer(containerId).logs({
    follow: true,
    stdout: true,
    stderr: true,
    since: since.toFixed(9) as unknown as number,
    abortSignal: signal,
  } as Docker.ContainerLogsOptions & { follow: true })) as unknown as Readable;
  const out = createWriteStream(file, { flags: "a", mode: 0o640 });
  const merged = new PassThrough();
  merged.pipe(out);
  docker.modem.demuxStream(stream, merged, merged);
  const end = (): void => {
    merged.end();
  };
  stream.once("end", end);
  stream.once("close", end);
  stream.once("error", end);
}
