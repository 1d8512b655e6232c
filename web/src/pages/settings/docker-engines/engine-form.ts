import type { CreateDockerEngineBody } from "@/data/docker-engines/types";

/** The Register engine form, as its inputs hold it. The three TLS fields are PEM text, all or none. */
export interface EngineFormValues {
  name: string;
  host: string;
  ca: string;
  cert: string;
  key: string;
}

export const ENGINE_FORM_EMPTY: EngineFormValues = { name: "", host: "", ca: "", cert: "", key: "" };

/** What the server accepts as an engine name; "local" is the console's own engine. */
export const ENGINE_NAME = /^[a-z0-9_-]+$/;

/** `unix:///path` or `tcp://host:port`, as the server accepts them. */
export const ENGINE_HOST = /^(unix:\/\/\/\S+|tcp:\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5})$/;

export function validateEngineName(v: string): true | string {
  const name = v.trim();
  if (!ENGINE_NAME.test(name)) return "Lowercase letters, digits, - and _";
  return name !== "local" || "local is the console's own engine; choose another name";
}

export function validateEngineHost(v: string): true | string {
  return ENGINE_HOST.test(v.trim()) || "unix:///path/to/docker.sock or tcp://host:port";
}

/** The TLS fields go together: a --tlsverify engine needs the CA, the client certificate and its key. */
export function validateTls(v: EngineFormValues): true | string {
  const given = [v.ca, v.cert, v.key].filter((s) => s.trim()).length;
  return given === 0 || given === 3 || "Give the CA, client certificate and client key together, or none";
}

/** POST /docker/engines body; `tls` only when its fields are filled. */
export function toCreateEngineBody(v: EngineFormValues): CreateDockerEngineBody {
  const tls = v.ca.trim() ? { tls: { ca: v.ca.trim(), cert: v.cert.trim(), key: v.key.trim() } } : {};
  return { name: v.name.trim(), host: v.host.trim(), ...tls };
}

/**
 * Where the server reports each field's errors; a message about `tls` as a whole goes on the CA. The
 * first match wins, so `ca` (which takes any `tls.` path) comes after the cert and key.
 */
export const ENGINE_FORM_FIELDS = {
  name: "name",
  host: "host",
  cert: "tls.cert",
  key: "tls.key",
  ca: ["tls.ca", "tls"],
} as const;
