import { randomBytes } from "node:crypto";
import { STATUS_CODES } from "node:http";
import { UpstreamError, errorMessage } from "../../http/errors.js";
import { b64url, canonicalString, signEd25519 } from "./federation.crypto.js";
import type { IdentityService } from "./federation.identity.js";
import { HEADERS } from "./federation.wire.js";

/** Largest response accepted from another console. */
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface FederationReply {
  status: number;
  /** The parsed JSON body (undefined when it was not JSON). */
  data: unknown;
  /** The error envelope's message on a refusal, else the status and its standard phrase. */
  message: string;
}

/**
 * Sends signed requests to other consoles: `<endpoint>/api/v1<path>` with the sender, recipient,
 * timestamp, a fresh 128-bit nonce and the Ed25519 signature of the canonical string in headers.
 * Redirects are not followed (a redirect would move the signed path). A network failure or timeout
 * is an UpstreamError (502) naming the endpoint.
 */
export function createFederationClient(deps: {
  identity: Pick<IdentityService, "identity">;
  timeoutMs: number;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  return {
    async send(req: {
      endpoint: string;
      to: string;
      method: "GET" | "POST";
      path: string;
      body?: unknown;
      timeoutMs?: number;
    }): Promise<FederationReply> {
      const me = await deps.identity.identity();
      const body = req.body === undefined ? "" : JSON.stringify(req.body);
      const timestamp = Math.floor(now() / 1000);
      const nonce = b64url(randomBytes(16));
      const signature = signEd25519(
        me.privateKey,
        canonicalString({ method: req.method, path: req.path, from: me.nodeId, to: req.to, timestamp, nonce, body }),
      );
      const url = `${req.endpoint.replace(/\/+$/, "")}/api/v1${req.path}`;
      let res: Response;
      let raw: Buffer;
      try {
        res = await fetch(url, {
          method: req.method,
          redirect: "error",
          signal: AbortSignal.timeout(req.timeoutMs ?? deps.timeoutMs),
          headers: {
            ...(body ? { "content-type": "application/json" } : {}),
            accept: "application/json",
            [HEADERS.from]: me.nodeId,
            [HEADERS.to]: req.to,
            [HEADERS.timestamp]: String(timestamp),
            [HEADERS.nonce]: nonce,
            [HEADERS.signature]: signature,
          },
          ...(body ? { body } : {}),
        });
        raw = await readCapped(res);
      } catch (err) {
        const cause = (err as { cause?: unknown }).cause;
        throw new UpstreamError(
          `could not reach the console at ${req.endpoint}: ${errorMessage(err)}${cause ? ` (${errorMessage(cause)})` : ""}`,
        );
      }
      let data: unknown;
      try {
        data = raw.length ? JSON.parse(raw.toString("utf8")) : undefined;
      } catch {
        data = undefined;
      }
      return { status: res.status, data, message: refusalText(res.status, data) };
    },
  };
}

/**
 * What a refusal says: the message of a console's error envelope ({error, message, requestId}),
 * else the status with its standard phrase. Anything else the endpoint wrote is not quoted: an
 * invitation names its endpoint, so it could point at any service the console reaches.
 */
function refusalText(status: number, data: unknown): string {
  const e = (data ?? {}) as { error?: unknown; message?: unknown; requestId?: unknown };
  if (typeof e.error === "string" && typeof e.message === "string" && typeof e.requestId === "string") {
    return e.message.slice(0, 2000);
  }
  return `HTTP ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ""}`;
}

async function readCapped(res: Response): Promise<Buffer> {
  if (!res.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > MAX_RESPONSE_BYTES) throw new Error(`response larger than ${MAX_RESPONSE_BYTES} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

export type FederationClient = ReturnType<typeof createFederationClient>;
