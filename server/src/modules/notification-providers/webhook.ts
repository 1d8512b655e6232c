import { createHmac } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { setTimeout as sleep } from "node:timers/promises";
import type { ProviderSecrets, WebhookSettings } from "./providers.config.js";

/** What every provider delivers: the webhook body, and the parts of an email. */
export interface OutgoingNotification {
  /** Unique per delivery and stable across its retries (X-ChainLaunch-Delivery). */
  id: string;
  type: string;
  title: string;
  message: string;
  link: string;
  data: Record<string, unknown>;
  timestamp: string;
}

export interface WebhookOptions {
  /** Attempts in all (the first plus retries). */
  attempts: number;
  /** Delay before the first retry; it doubles for each further one. */
  baseDelayMs: number;
  timeoutMs: number;
  /** Aborts the waits between attempts (the console is closing). */
  signal?: AbortSignal | undefined;
}

/** A failed webhook delivery; `attempts` says how many requests were made. */
export class WebhookError extends Error {
  constructor(
    message: string,
    public readonly attempts: number,
  ) {
    super(message);
  }
}

/** The signature a receiver recomputes: hex HMAC-SHA256 of "<timestamp>.<raw body>" with the shared secret. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

interface Attempt {
  ok: boolean;
  retryable: boolean;
  message: string;
}

/** "the receiver answered HTTP 404 Not Found": the status and its standard reason phrase, nothing the receiver wrote. */
export function answered(status: number): string {
  return `the receiver answered HTTP ${status}${http.STATUS_CODES[status] ? ` ${http.STATUS_CODES[status]}` : ""}`;
}

/** A request that got no answer, in words of our own: the socket error's code, or the timeout. */
function failed(err: Error & { code?: string }, timeoutMs: number): string {
  if (err.message === `no answer within ${timeoutMs} ms`) return err.message;
  return `the request failed: ${err.code ? `${err.code} ` : ""}(${err.message})`;
}

function once(s: WebhookSettings, secrets: ProviderSecrets, n: OutgoingNotification, timeoutMs: number) {
  const body = JSON.stringify({
    id: n.id,
    type: n.type,
    title: n.title,
    message: n.message,
    link: n.link,
    data: n.data,
    timestamp: n.timestamp,
  });
  // A fresh timestamp per attempt lets receivers refuse old (replayed) requests while retries still verify.
  const ts = String(Math.floor(Date.now() / 1000));
  const url = new URL(s.url);
  const headers: Record<string, string> = {
    ...secrets.headers,
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    "user-agent": "ChainLaunch-Webhook/1",
    "x-chainlaunch-event": n.type,
    "x-chainlaunch-delivery": n.id,
    "x-chainlaunch-timestamp": ts,
    "x-chainlaunch-signature": webhookSignature(secrets.secret ?? "", ts, body),
  };
  return new Promise<Attempt>((resolve) => {
    const opts: https.RequestOptions = { method: "POST", headers, timeout: timeoutMs };
    if (url.protocol === "https:") {
      opts.rejectUnauthorized = !s.skip_tls_verify;
      if (s.ca_cert.trim()) opts.ca = s.ca_cert;
    }
    const req = (url.protocol === "https:" ? https : http).request(url, opts, (res) => {
      // The body is never read into a message: a manager chooses the URL, and an answer quoted back
      // would let them read any HTTP service the console reaches (loopback included).
      const status = res.statusCode ?? 0;
      resolve({
        ok: status >= 200 && status < 300,
        retryable: status >= 500 || status === 429,
        message: answered(status),
      });
      res.on("error", () => undefined);
      res.resume();
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", (err) => resolve({ ok: false, retryable: true, message: failed(err, timeoutMs) }));
    req.end(body);
  });
}

/**
 * POSTs a notification to a webhook, signed with the provider's secret. Network errors, 5xx and
 * 429 are retried with exponential backoff under the same delivery id; other answers are final.
 * Resolves with the receiver's status, or throws WebhookError with the last failure (never its body).
 */
export async function postWebhook(
  s: WebhookSettings,
  secrets: ProviderSecrets,
  n: OutgoingNotification,
  o: WebhookOptions,
): Promise<{ attempts: number; message: string }> {
  let last: Attempt = { ok: false, retryable: false, message: "not sent" };
  for (let attempt = 1; attempt <= o.attempts; attempt++) {
    if (attempt > 1) {
      try {
        await sleep(o.baseDelayMs * 2 ** (attempt - 2), undefined, { signal: o.signal });
      } catch {
        throw new WebhookError(`gave up (console closing) after ${attempt - 1} attempts: ${last.message}`, attempt - 1);
      }
    }
    last = await once(s, secrets, n, o.timeoutMs);
    if (last.ok) return { attempts: attempt, message: last.message };
    if (!last.retryable) throw new WebhookError(last.message, attempt);
  }
  throw new WebhookError(o.attempts > 1 ? `${last.message} (after ${o.attempts} attempts)` : last.message, o.attempts);
}
