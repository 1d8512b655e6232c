import { constants } from "node:zlib";
import compress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

/** Responses smaller than this go out as they are: compressing them saves less than the headers cost. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Compresses responses (JSON, text, the web app's files that were not precompressed) with brotli or
 * gzip, as the client's Accept-Encoding allows. Dynamic responses use the fastest levels (brotli 1, gzip 1);
 * the web app's built files are precompressed at the highest levels instead
 * (web/scripts/precompress.mjs) and served as they are. Streaming routes (log follow) opt out with
 * `compress: false`, since a compressor holds bytes back until it has enough to emit.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: ["br", "gzip"],
    // The fastest levels: JSON compresses almost as well at level 1, and a 2 MB list page costs ~5x less time.
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } },
    zlibOptions: { level: 1 },
  });
}
