import { promisify } from "node:util";
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type ZlibOptions } from "node:zlib";
import compress from "@fastify/compress";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** Responses smaller than this go out as they are: compressing them saves less than the headers cost. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Up to this size a JSON body is compressed on the event loop: ~0.3 ms at most (gzip level 1 runs at
 * ~6 ms/MB, brotli 1 at ~2.5), less than a trip through the thread pool costs. Larger bodies (list pages)
 * are compressed in the pool, in one pass, while the event loop serves other requests.
 */
export const INLINE_COMPRESSION_MAX_BYTES = 64 * 1024;

/**
 * The output buffer for a body compressed in the pool: one buffer for a whole page (JSON compresses to a third
 * or less; a 1,000-row organization page gzips to ~600 KB) instead of zlib's 16 KB steps, each a trip through
 * the pool; at most 1 MiB.
 */
const poolChunkBytes = (size: number): number => Math.min(1024 * 1024, Math.max(16 * 1024, Math.ceil(size / 2)));

const BROTLI_PARAMS = { [constants.BROTLI_PARAM_QUALITY]: 1 };
const GZIP_OPTIONS: ZlibOptions = { level: 1 };
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

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

/** Compresses a whole body: inline when small, in the thread pool in one pass when large. */
export async function compressBody(body: Buffer, encoding: ResponseEncoding): Promise<Buffer> {
  const inline = body.length <= INLINE_COMPRESSION_MAX_BYTES;
  if (encoding === "br") {
    const params = { ...BROTLI_PARAMS, [constants.BROTLI_PARAM_SIZE_HINT]: body.length };
    return inline
      ? brotliCompressSync(body, { params })
      : brotliAsync(body, { params, chunkSize: poolChunkBytes(body.length) });
  }
  return inline
    ? gzipSync(body, GZIP_OPTIONS)
    : gzipAsync(body, { ...GZIP_OPTIONS, chunkSize: poolChunkBytes(body.length) });
}

const isJson = (type: unknown): boolean => typeof type === "string" && /^application\/json(;|$)/i.test(type);

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader("vary");
  if (vary === undefined) reply.header("vary", "accept-encoding");
  else if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(String(vary)))
    reply.header("vary", `${String(vary)}, accept-encoding`);
}

/**
 * JSON bodies (every API answer) compressed in one call, sent with a Content-Length. The
 * @fastify/compress route pipeline built a stream chain per response (~0.3 ms even for one
 * organization) and wrote a 1,000-row page in 16 KB chunked pieces; profiles of the organization
 * create and list showed it as a large share of their CPU. Anything else (streams, files, text) is
 * left to @fastify/compress, which skips a body that already has a Content-Encoding.
 */
async function compressJson(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return payload;
  if (!isJson(reply.getHeader("content-type"))) return payload;
  const current = reply.getHeader("content-encoding");
  if (current !== undefined && current !== "identity") return payload;
  if (req.headers["x-no-compression"] !== undefined) return payload;
  const body = typeof payload === "string" ? Buffer.from(payload) : payload;
  if (body.length < COMPRESSION_THRESHOLD_BYTES) return payload;
  const encoding = negotiateEncoding(req.headers["accept-encoding"]);
  if (!encoding) return payload;
  const compressed = await compressBody(body, encoding);
  addVary(reply);
  reply.header("content-encoding", encoding);
  reply.removeHeader("content-length");
  return compressed;
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
