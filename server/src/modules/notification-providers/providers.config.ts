import { X509Certificate } from "node:crypto";
import { z } from "zod";
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

const recipients = z
  .string()
  .trim()
  .min(1, "at least one address is required")
  .max(4000)
  .refine(
    (v) => v.split(",").every((a) => z.email().safeParse(a.trim()).success),
    "must be an email address or a comma-separated list of them",
  )
  .refine((v) => v.split(",").length <= 50, "at most 50 recipients");

const smtpSchema = z.object({
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
});

const webhookSchema = z.object({
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
});

function parse<T>(schema: z.ZodType<T>, raw: Record<string, unknown>): T {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = ["config", ...(issue?.path ?? []).map(String)].join(".");
  throw new InputError(`${field}: ${issue?.message ?? "invalid"}`, {
    issues: r.error.issues.map((i) => ({ field: ["config", ...i.path.map(String)].join("."), message: i.message })),
  });
}

/** A secret field's new value: omitted or masked keeps the stored one. */
const keep = (value: string | undefined, stored: string | undefined): string | undefined =>
  value === undefined || value === MASKED ? stored : value;

/**
 * Validates a provider's `config` and splits it into stored settings and secrets. `current` holds
 * the stored secrets of the provider being updated (only when its type is unchanged): secrets that
 * are omitted or masked keep those values. Errors name the field (`config.host`, `config.url`...).
 */
export function parseProviderConfig(
  type: ProviderType,
  raw: Record<string, unknown>,
  current?: ProviderSecrets,
): { provider: ProviderSettings; secrets: ProviderSecrets } {
  if (type === "SMTP") {
    const c = parse(smtpSchema, raw);
    const { password, ...settings } = c;
    const pw = keep(password, current?.password);
    return { provider: { type, settings }, secrets: pw ? { password: pw } : {} };
  }
  const c = parse(webhookSchema, raw);
  const secret = keep(c.secret, current?.secret);
  if (!secret) throw new InputError("config.secret: is required (the HMAC-SHA256 key, at least 16 characters)");
  if (secret.length < 16) throw new InputError("config.secret: must be at least 16 characters");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(c.headers ?? current?.headers ?? {})) {
    const stored = Object.entries(current?.headers ?? {}).find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
    const v = keep(value, stored);
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
