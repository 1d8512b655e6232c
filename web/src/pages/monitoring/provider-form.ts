import type { NotificationProvider, ProviderBody } from "@/data/notification-providers/keys";

/** How a stored secret comes back from the server. */
export const MASKED = "********";

export const FLAGS = [
  ["notifyNodeDowntime", "Node down / recovered"],
  ["notifyBackupSuccess", "Backup completed"],
  ["notifyBackupFailure", "Backup failed"],
  ["notifyS3ConnIssue", "S3 connection issue"],
  ["notifyCertExpiry", "Certificate expiring"],
  ["notifyPeerLag", "Peer lagging / caught up"],
  ["notifyRaftHealth", "Raft health (leader lost, consenter unreachable, recovered)"],
] as const;
export type FlagKey = (typeof FLAGS)[number][0];

export interface ProviderForm {
  name: string;
  type: "SMTP" | "WEBHOOK";
  isDefault: boolean;
  flags: Record<FlagKey, boolean>;
  host: string;
  port: string;
  username: string;
  /** Empty on an existing provider means "keep the stored password". */
  password: string;
  fromEmail: string;
  fromName: string;
  toEmail: string;
  useTls: boolean;
  url: string;
  /** Empty on an existing provider means "keep the stored secret". */
  secret: string;
  /** One "Name: value" per line; a masked value keeps the stored one. */
  headers: string;
  caCert: string;
  skipTlsVerify: boolean;
}

const str = (v: unknown, fallback = ""): string => (typeof v === "string" ? v : fallback);
const bool = (v: unknown, fallback: boolean): boolean => (typeof v === "boolean" ? v : fallback);

/** The form's starting values: a provider's (secrets left empty), or the defaults of a new one. */
export function formFrom(p?: NotificationProvider): ProviderForm {
  const c: Record<string, unknown> = p?.config ?? {};
  const headers = c.headers && typeof c.headers === "object" ? (c.headers as Record<string, unknown>) : {};
  return {
    name: p?.name ?? "",
    type: p?.type ?? "SMTP",
    isDefault: p?.isDefault ?? false,
    flags: Object.fromEntries(FLAGS.map(([k]) => [k, p ? p[k] : k === "notifyNodeDowntime"])) as Record<
      FlagKey,
      boolean
    >,
    host: str(c.host),
    port: typeof c.port === "number" ? String(c.port) : "587",
    username: str(c.username),
    password: "",
    fromEmail: str(c.from_email),
    fromName: str(c.from_name, "ChainLaunch"),
    toEmail: str(c.to_email),
    useTls: bool(c.use_tls, true),
    url: str(c.url),
    secret: "",
    headers: Object.entries(headers)
      .map(([k, v]) => `${k}: ${str(v)}`)
      .join("\n"),
    caCert: str(c.ca_cert),
    skipTlsVerify: bool(c.skip_tls_verify, false),
  };
}

/** "Name: value" lines as a header map (blank lines ignored). */
export function parseHeaders(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const i = line.indexOf(":");
    if (i <= 0) out[line.trim()] = "";
    else out[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return out;
}

/** The request body; empty secret fields are left out so the server keeps the stored values. */
export function bodyFrom(f: ProviderForm): ProviderBody {
  const config: Record<string, unknown> =
    f.type === "SMTP"
      ? {
          host: f.host.trim(),
          port: Number(f.port) || 587,
          username: f.username.trim(),
          from_email: f.fromEmail.trim(),
          from_name: f.fromName.trim() || "ChainLaunch",
          to_email: f.toEmail.trim(),
          use_tls: f.useTls,
          skip_tls_verify: f.skipTlsVerify,
          ...(f.password ? { password: f.password } : {}),
        }
      : {
          url: f.url.trim(),
          headers: parseHeaders(f.headers),
          ca_cert: f.caCert.trim() ? f.caCert : "",
          skip_tls_verify: f.skipTlsVerify,
          ...(f.secret ? { secret: f.secret } : {}),
        };
  return { name: f.name.trim(), type: f.type, config, isDefault: f.isDefault, ...f.flags };
}

/** The form field a server message names ("config.host: is required" -> "host"), to show it there. */
export function fieldOf(message: string): keyof ProviderForm | undefined {
  const head = (message.replace(/^body\./, "").split(":")[0] ?? "").trim();
  const map: Record<string, keyof ProviderForm> = {
    name: "name",
    "config.host": "host",
    "config.port": "port",
    "config.username": "username",
    "config.password": "password",
    "config.from_email": "fromEmail",
    "config.from_name": "fromName",
    "config.to_email": "toEmail",
    "config.url": "url",
    "config.secret": "secret",
    "config.ca_cert": "caCert",
  };
  if (head.startsWith("config.headers")) return "headers";
  return map[head];
}

/** "Node down, Backup failed" or "No events". */
export function flagsSummary(p: Pick<NotificationProvider, FlagKey>): string {
  const on = FLAGS.filter(([k]) => p[k]).map(([, label]) => label.split(" (")[0]);
  return on.length ? on.join(", ") : "No events";
}
