import { brotliCompressSync, constants, gzipSync, type ZlibOptions } from "node:zlib";
import compress from "@fastify/compress";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** Responses smaller than this go out as they are: compressing them saves less than the headers cost. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Up to this size a JSON body is compressed here, on the event loop, in one call: ~0.3 ms at most (gzip
 * level 1 runs at ~6 ms/MB, brotli 1 at ~2.5), where @fastify/compress's stream chain cost ~0.3 ms even for
 * one organization. Larger bodies (list pages) stay on @fastify/compress's streams, which compress in the
 * thread pool in 16 KB steps: compressing a 190 KB page whole (its copy as one Buffer, its output in one
 * piece) left the console's RSS ~40% above its pre-burst level 45 s after `bench/memory-burst`, where the
 * streams' small buffers came back within 13 s.
 */
export const INLINE_COMPRESSION_MAX_BYTES = 64 * 1024;

const BROTLI_PARAMS = { [constants.BROTLI_PARAM_QUALITY]: 1 };
const GZIP_OPTIONS: ZlibOptions = { level: 1 };

export type ResponseEncoding = "br" | "gzip";

/**
 * The encoding to send for an Accept-Encoding header: brotli or gzip, whichever has the higher
 * q-value, brotli on a tie; `*` and `x-gzip` count as gzip (as @fastify/compress reads them, so
 * both paths answer a client alike); null for no header, `identity`, or only q=0.
 */
export function negotiateEncoding(header: string | string[] | undefined): ResponseEncoding | null {
  if (typeof header !== "string" || header === "") return null;
  const q: Record<ResponseEncoding, number> = { br: -1, gzip: -1 };
  for (const part of header.toLowerCase().split(",")) {
    const [rawToken = "", ...params] = part.split(";");
    let token = rawToken.trim();
    if (token === "*" || token === "x-gzip") token = "gzip";
    if (token !== "br" && token !== "gzip") continue;
    let quality = 1;
    for (const p of params) {
      const [k, v] = p.split("=");
      if (k?.trim() === "q") quality = Number.parseFloat(v ?? "") || 0;
    }
    q[token] = Math.max(q[token], quality);
  }
  if (q.br <= 0 && q.gzip <= 0) return null;
  return q.br >= q.gzip ? "br" : "gzip";
}

/** Compresses a whole (small) body in one call. */
export function compressBody(body: Buffer, encoding: ResponseEncoding): Buffer {
  if (encoding === "gzip") return gzipSync(body, GZIP_OPTIONS);
  return brotliCompressSync(body, { params: { ...BROTLI_PARAMS, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
}

const isJson = (type: unknown): boolean => typeof type === "string" && /^application\/json(;|$)/i.test(type);

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader("vary");
  if (vary === undefined) reply.header("vary", "accept-encoding");
  else if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(String(vary)))
    reply.header("vary", `${String(vary)}, accept-encoding`);
}

/**
 * Small JSON bodies (one organization, a short list) compressed in one call and sent with a
 * Content-Length: the @fastify/compress route pipeline built a stream chain per response, ~0.3 ms of an
 * organization create's ~6 CPU-ms. Anything else (larger JSON, streams, files, text) is left to
 * @fastify/compress, which skips a body that already has a Content-Encoding.
 */
function compressedJson(req: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return payload;
  if (!isJson(reply.getHeader("content-type"))) return payload;
  const current = reply.getHeader("content-encoding");
  if (current !== undefined && current !== "identity") return payload;
  if (req.headers["x-no-compression"] !== undefined) return payload;
  // A string has at least as many bytes as UTF-16 units: a long one is known to be over the limit unmeasured.
  if (payload.length > INLINE_COMPRESSION_MAX_BYTES) return payload;
  const size = typeof payload === "string" ? Buffer.byteLength(payload) : payload.length;
  if (size < COMPRESSION_THRESHOLD_BYTES || size > INLINE_COMPRESSION_MAX_BYTES) return payload;
  const encoding = negotiateEncoding(req.headers["accept-encoding"]);
  if (!encoding) return payload;
  const compressed = compressBody(typeof payload === "string" ? Buffer.from(payload) : payload, encoding);
  addVary(reply);
  reply.header("content-encoding", encoding);
  reply.removeHeader("content-length");
  return compressed;
}

/**
 * The onSend hook around `compressedJson`: a callback, since it never waits and runs on nearly every
 * response (an async hook costs a promise and a microtask turn each time). An error in it fails the
 * response as the async hook's rejection did.
 */
function compressJson(
  req: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: Error | null, value?: unknown) => void,
): void {
  let out: unknown;
  try {
    out = compressedJson(req, reply, payload);
  } catch (err) {
    done(err as Error);
    return;
  }
  done(null, out);
}

/**
 * Compresses responses (JSON, text, the web app's files that were not precompressed) with brotli or
 * gzip, as the client's Accept-Encoding allows. Dynamic responses use the fastest levels (brotli 1, gzip 1);
 * the web app's built files are precompressed at the highest levels instead
 * (web/scripts/precompress.mjs) and served as they are. Streaming routes (log follow) opt out with
 * `compress: false`, since a compressor holds bytes back until it has enough to emit.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  // Added before @fastify/compress's own onRoute hook, so on each route this onSend runs before its one.
  app.addHook("onRoute", (route) => {
    if ((route as { compress?: unknown }).compress === false) return;
    const existing = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [...existing, compressJson];
  });
  await app.register(compress, {
    global: true,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: ["br", "gzip"],
    // The fastest levels: JSON compresses almost as well at level 1, and a 2 MB list page costs ~5x less time.
    brotliOptions: { params: BROTLI_PARAMS },
    zlibOptions: GZIP_OPTIONS,
  });
}
