import { X509Certificate } from "node:crypto";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { InputError } from "../../http/errors.js";
import { MASKED, type ProviderType } from "./providers.schema.js";

/** SMTP settings without the password (stored as JSON, returned as they are). */
export interface SmtpSettings {
  host: string;
  port: number;
  username: string;
  from_email: string;
  from_name: string;
  to_email: string;
  use_tls: boolean;
  skip_tls_verify: boolean;
}

/** Webhook settings without the HMAC key and the header values (those may be credentials). */
export interface WebhookSettings {
  url: string;
  skip_tls_verify: boolean;
  ca_cert: string;
}

/** What goes into the master-key envelope. */
export interface ProviderSecrets {
  password?: string;
  secret?: string;
  headers?: Record<string, string>;
}

export type ProviderSettings =
  { type: "SMTP"; settings: SmtpSettings } | { type: "WEBHOOK"; settings: WebhookSettings };

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
/** Headers the console sets itself: a configured value would break or forge the signature scheme. */
const RESERVED_HEADER = /^(x-chainlaunch-.*|content-type|content-length|host|transfer-encoding|connection)$/i;

const recipients = lazySchema(() =>
  z
    .string()
    .trim()
    .min(1, "at least one address is required")
    .max(4000)
    .refine(
      (v) => v.split(",").every((a) => z.email().safeParse(a.trim()).success),
      "must be an email address or a comma-separated list of them",
    )
    .refine((v) => v.split(",").length <= 50, "at most 50 recipients"),
);

const smtpSchema = lazySchema(() =>
  z.object({
    host: z
      .string()
      .trim()
      .min(1, "is required")
      .max(255)
      .regex(/^[A-Za-z0-9.:[\]-]+$/, "must be a host name or IP address"),
    port: z.coerce.number().int().min(1).max(65535).default(587),
    username: z.string().max(255).default(""),
    password: z.string().max(1024).optional(),
    from_email: z.email("must be a valid email address").max(320),
    from_name: z
      .string()
      .trim()
      .max(255)
      .regex(/^[^\r\n"<>]*$/, "must not contain quotes, angle brackets or line breaks")
      .default("ChainLaunch"),
    to_email: recipients,
    use_tls: z.boolean().default(true),
    skip_tls_verify: z.boolean().default(false),
  }),
);

const webhookSchema = lazySchema(() =>
  z.object({
    url: z
      .string()
      .trim()
      .max(2048)
      .refine((v) => URL.canParse(v), "must be an absolute URL")
      .refine((v) => {
        if (!URL.canParse(v)) return true;
        const u = new URL(v);
        return u.protocol === "https:" || (u.protocol === "http:" && LOOPBACK.has(u.hostname));
      }, "must be https (plain http only to a loopback host)"),
    secret: z.string().max(1024).optional(),
    headers: z
      .record(
        z
          .string()
          .regex(/^[A-Za-z0-9-]{1,64}$/, "header names are letters, digits and dashes")
          .refine((n) => !RESERVED_HEADER.test(n), "this header is set by the console"),
        z
          .string()
          .max(1024)
          .regex(/^[^\r\n]*$/, "header values must not contain line breaks"),
      )
      .refine((h) => Object.keys(h).length <= 20, "at most 20 headers")
      .optional(),
    skip_tls_verify: z.boolean().default(false),
    ca_cert: z
      .string()
      .max(65_536)
      .default("")
      .refine((pem) => {
        if (!pem.trim()) return true;
        try {
          new X509Certificate(pem);
          return true;
        } catch {
          return false;
        }
      }, "must be a PEM certificate"),
  }),
);

function parse<T>(schema: z.ZodType<T>, raw: Record<string, unknown>): T {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = ["config", ...(issue?.path ?? []).map(String)].join(".");
  throw new InputError(`${field}: ${issue?.message ?? "invalid"}`, {
    issues: r.error.issues.map((i) => ({ field: ["config", ...i.path.map(String)].join("."), message: i.message })),
  });
}

/** The provider being updated, as stored: where its secrets went, and the secrets. */
export interface StoredProvider {
  provider: ProviderSettings;
  secrets: ProviderSecrets;
}

/**
 * A secret field's new value: omitted or masked keeps the stored one, unless the update sends the
 * secrets somewhere else (`moved` says how): then a stored secret must be given again, so that whoever
 * may edit a provider can't re-aim its password or Authorization header at a host of their own.
 */
function keep(field: string, value: string | undefined, stored: string | undefined, moved: string | undefined) {
  if (value !== undefined && value !== MASKED) return value;
  if (stored !== undefined && moved) {
    throw new InputError(
      `${field}: must be given again when ${moved} (a stored secret never follows a new destination)`,
    );
  }
  return stored;
}

/** The origin (scheme, host, port) of a URL the schema accepted. */
const originOf = (url: string): string => new URL(url).origin;

/**
 * Validates a provider's `config` and splits it into stored settings and secrets. `current` is the
 * provider being updated (only when its type is unchanged): secrets that are omitted or masked keep
 * their stored values while the destination stays the same (SMTP host and port; the webhook URL's
 * scheme, host and port). When it changes, each stored secret must be sent again, or the update is a
 * 400 naming it. Errors name the field (`config.host`, `config.url`, `config.password`...).
 */
export function parseProviderConfig(
  type: ProviderType,
  raw: Record<string, unknown>,
  current?: StoredProvider,
): { provider: ProviderSettings; secrets: ProviderSecrets } {
  const stored = current?.secrets;
  if (type === "SMTP") {
    const c = parse(smtpSchema, raw);
    const { password, ...settings } = c;
    const was = current?.provider.type === "SMTP" ? current.provider.settings : undefined;
    const moved =
      was && (was.host.toLowerCase() !== settings.host.toLowerCase() || was.port !== settings.port)
        ? "the host or port changes"
        : undefined;
    const pw = keep("config.password", password, stored?.password, moved);
    return { provider: { type, settings }, secrets: pw ? { password: pw } : {} };
  }
  const c = parse(webhookSchema, raw);
  const was = current?.provider.type === "WEBHOOK" ? current.provider.settings : undefined;
  const moved = was && originOf(was.url) !== originOf(c.url) ? "the URL's scheme, host or port changes" : undefined;
  const secret = keep("config.secret", c.secret, stored?.secret, moved);
  if (!secret) throw new InputError("config.secret: is required (the HMAC-SHA256 key, at least 16 characters)");
  if (secret.length < 16) throw new InputError("config.secret: must be at least 16 characters");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(c.headers ?? stored?.headers ?? {})) {
    const before = Object.entries(stored?.headers ?? {}).find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
    // Headers omitted altogether keep the stored ones: each is then checked like a masked value.
    const v = keep(`config.headers.${name}`, c.headers ? value : undefined, before, moved);
    if (v === undefined)
      throw new InputError(`config.headers.${name}: '${MASKED}' names no stored value; send the value`);
    headers[name] = v;
  }
  return {
    provider: { type, settings: { url: c.url, skip_tls_verify: c.skip_tls_verify, ca_cert: c.ca_cert } },
    secrets: { secret, ...(Object.keys(headers).length ? { headers } : {}) },
  };
}

/** The `config` of a response: settings as stored, every secret masked. */
export function maskedConfig(p: ProviderSettings, secrets: ProviderSecrets): Record<string, unknown> {
  if (p.type === "SMTP") return { ...p.settings, password: secrets.password ? MASKED : "" };
  return {
    ...p.settings,
    secret: MASKED,
    headers: Object.fromEntries(Object.keys(secrets.headers ?? {}).map((n) => [n, MASKED])),
  };
}
