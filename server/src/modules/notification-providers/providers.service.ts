import { randomUUID } from "node:crypto";
import { decryptEnvelopeToString, encryptEnvelope } from "../../crypto/envelope.js";
import { nowIso } from "../../db/db.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { ConflictError, InputError, NotFoundError, errorMessage } from "../../http/errors.js";
import { sendEmail } from "./email.js";
import {
  maskedConfig,
  parseProviderConfig,
  type ProviderSecrets,
  type ProviderSettings,
  type SmtpSettings,
  type WebhookSettings,
} from "./providers.config.js";
import type { FlagColumn, ProviderRow, ProvidersRepo } from "./providers.repo.js";
import type { ProviderBody, ProviderResponse, TestProviderResponse } from "./providers.schema.js";
import { postWebhook, type OutgoingNotification, type WebhookOptions } from "./webhook.js";

const AAD = "notification-provider.secrets";

/** camelCase flag of the API -> its column and its Terraform (snake_case) alias, when upstream has one. */
export const FLAGS = [
  ["notifyNodeDowntime", "notify_node_downtime", "notify_node_downtime"],
  ["notifyBackupSuccess", "notify_backup_success", "notify_backup_success"],
  ["notifyBackupFailure", "notify_backup_failure", "notify_backup_failure"],
  ["notifyS3ConnIssue", "notify_s3_conn_issue", "notify_s3_conn_issue"],
  ["notifyCertExpiry", "notify_cert_expiry", undefined],
  ["notifyPeerLag", "notify_peer_lag", undefined],
  ["notifyRaftHealth", "notify_raft_health", undefined],
] as const satisfies readonly (readonly [keyof ProviderResponse, FlagColumn, keyof ProviderBody | undefined])[];

export interface ProvidersDeps {
  repo: ProvidersRepo;
  masterKey: () => { key: Buffer };
  /** How long an SMTP dialogue step or a webhook request may take. */
  timeoutMs?: number;
  /** Webhook retries; the base delay doubles per retry (tests shorten it). */
  webhook?: Partial<Pick<WebhookOptions, "attempts" | "baseDelayMs">>;
}

/** A provider as the sender needs it: settings and decrypted secrets. */
export interface ResolvedProvider {
  id: number;
  name: string;
  provider: ProviderSettings;
  secrets: ProviderSecrets;
}

/**
 * Notification providers: email over SMTP and signed webhooks. The secrets (SMTP password, webhook
 * HMAC key and header values) are one master-key envelope per provider, never returned.
 */
export function createProvidersService(deps: ProvidersDeps) {
  const { repo } = deps;
  const timeoutMs = deps.timeoutMs ?? 15_000;
  const webhookAttempts = deps.webhook?.attempts ?? 4;
  const webhookBaseMs = deps.webhook?.baseDelayMs ?? 1000;

  const seal = (s: ProviderSecrets): string => encryptEnvelope(deps.masterKey().key, JSON.stringify(s), AAD);
  const open = (row: ProviderRow): ProviderSecrets =>
    row.secret_enc
      ? (JSON.parse(decryptEnvelopeToString(deps.masterKey().key, row.secret_enc, AAD)) as ProviderSecrets)
      : {};

  function resolve(row: ProviderRow): ResolvedProvider {
    const settings: unknown = JSON.parse(row.config);
    const provider =
      row.type === "WEBHOOK"
        ? { type: "WEBHOOK" as const, settings: settings as WebhookSettings }
        : { type: "SMTP" as const, settings: settings as SmtpSettings };
    return { id: row.id, name: row.name, provider, secrets: open(row) };
  }

  function toResponse(row: ProviderRow): ProviderResponse {
    const r = resolve(row);
    const flags = Object.fromEntries(FLAGS.map(([api, col]) => [api, row[col] === 1])) as Pick<
      ProviderResponse,
      (typeof FLAGS)[number][0]
    >;
    return {
      id: row.id,
      name: row.name,
      type: r.provider.type,
      config: maskedConfig(r.provider, r.secrets),
      isDefault: row.is_default === 1,
      ...flags,
      lastTestAt: row.last_test_at,
      lastTestStatus:
        row.last_test_status === "success" || row.last_test_status === "failure" ? row.last_test_status : null,
      lastTestMessage: row.last_test_message,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  async function must(id: number): Promise<ProviderRow> {
    const row = await repo.byId(id);
    if (!row) throw new NotFoundError(`notification provider ${id} not found`);
    return row;
  }

  /** The columns a body sets; flags and the default omitted keep `current`'s values. */
  function columns(body: ProviderBody, current?: ProviderRow) {
    const stored = current && current.type === body.type ? resolve(current) : undefined;
    const { provider, secrets } = parseProviderConfig(body.type, body.config, stored);
    const pick = (camel: boolean | undefined, snake: boolean | undefined, was: number | undefined): number =>
      (camel ?? snake ?? was === 1) ? 1 : 0;
    const flags = Object.fromEntries(
      FLAGS.map(([api, col, alias]) => [col, pick(body[api], alias ? body[alias] : undefined, current?.[col])]),
    ) as Record<FlagColumn, number>;
    return {
      name: body.name,
      type: body.type,
      config: JSON.stringify(provider.settings),
      secret_enc: Object.keys(secrets).length ? seal(secrets) : null,
      is_default: pick(body.isDefault, body.is_default, current?.is_default),
      ...flags,
    };
  }

  const taken = (name: string) => new ConflictError(`name: a notification provider named '${name}' already exists`);

  /** Sends one notification through one provider; webhooks retry unless `once`. */
  async function send(
    p: ResolvedProvider,
    n: OutgoingNotification,
    o: { once?: boolean; to?: string; signal?: AbortSignal },
  ) {
    if (p.provider.type === "SMTP") return sendEmail(p.provider.settings, p.secrets, n, { to: o.to, timeoutMs });
    const r = await postWebhook(p.provider.settings, p.secrets, n, {
      attempts: o.once ? 1 : webhookAttempts,
      baseDelayMs: webhookBaseMs,
      timeoutMs,
      signal: o.signal,
    });
    return r.message;
  }

  return {
    async list(): Promise<ProviderResponse[]> {
      return (await repo.list()).map(toResponse);
    },
    async get(id: number): Promise<ProviderResponse> {
      return toResponse(await must(id));
    },
    async create(body: ProviderBody): Promise<ProviderResponse> {
      if (await repo.byName(body.name)) throw taken(body.name);
      const cols = columns(body);
      const at = nowIso();
      try {
        const id = await repo.transaction(async (trx) => {
          const id = await repo.insert({ ...cols, created_at: at, updated_at: at }, trx);
          if (cols.is_default) await repo.clearDefault(id, trx);
          return id;
        });
        return toResponse(await must(id));
      } catch (err) {
        if (isUniqueViolation(err)) throw taken(body.name);
        throw err;
      }
    },
    async update(id: number, body: ProviderBody): Promise<ProviderResponse> {
      const current = await must(id);
      const other = await repo.byName(body.name);
      if (other && other.id !== id) throw taken(body.name);
      const cols = columns(body, current);
      try {
        await repo.transaction(async (trx) => {
          await repo.update(id, { ...cols, updated_at: nowIso() }, trx);
          if (cols.is_default) await repo.clearDefault(id, trx);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw taken(body.name);
        throw err;
      }
      return toResponse(await must(id));
    },
    async remove(id: number): Promise<ProviderRow> {
      const row = await must(id);
      await repo.delete(id);
      return row;
    },
    /**
     * Sends a test notification (one attempt, no retries) and records the outcome on the provider.
     * A failure is an answer (status "failure" naming the status or the failure), not an error. No
     * message quotes what the remote server sent (webhook.ts `answered`, email.ts SmtpError).
     */
    async test(id: number, testEmail: string | undefined): Promise<TestProviderResponse & { name: string }> {
      const row = await must(id);
      if (row.type === "SMTP" && !testEmail) throw new InputError("testEmail: is required for an SMTP provider");
      const testedAt = nowIso();
      const n: OutgoingNotification = {
        id: randomUUID(),
        type: "provider.test",
        title: "Test Notification",
        message: `This is a test notification from ChainLaunch provider '${row.name}'.`,
        link: "",
        data: { provider_id: row.id, provider_name: row.name },
        timestamp: testedAt,
      };
      let status: "success" | "failure" = "success";
      let message: string;
      try {
        const answer = await send(resolve(row), n, { once: true, ...(testEmail ? { to: testEmail } : {}) });
        message = row.type === "SMTP" ? `test email sent to ${testEmail}: ${answer}` : answer;
      } catch (err) {
        status = "failure";
        message = errorMessage(err).slice(0, 1000);
      }
      await repo.update(id, { last_test_at: testedAt, last_test_status: status, last_test_message: message });
      return { status, message, testedAt, name: row.name };
    },
    /** The providers an event with this flag column goes to, with their secrets, for the delivery queue. */
    async routed(column: FlagColumn): Promise<ResolvedProvider[]> {
      return (await repo.withFlag(column)).map(resolve);
    },
    send,
  };
}

export type ProvidersService = ReturnType<typeof createProvidersService>;
