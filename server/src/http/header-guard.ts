import { validateHeaderValue } from "node:http";
import type { FastifyInstance } from "fastify";

/** Whether Node would send `value` as a header value (no character above U+00FF, no control character). */
export function sendableHeaderValue(name: string, value: unknown): boolean {
  try {
    for (const v of Array.isArray(value) ? value : [value]) validateHeaderValue(name, v as string);
    return true;
  } catch {
    return false;
  }
}

/**
 * Backstop for response headers: Node throws ERR_INVALID_CHAR while writing a header value it can't
 * send, which happens after the handler ran, so a change that was made would answer 500 (and its
 * retry 409). Any such header is dropped and logged here, before the response is written; the code
 * that set it is the bug to fix (issue 29, item 6: the `Warning` header of an unknown field).
 */
export function registerHeaderGuard(app: FastifyInstance): void {
  // A callback hook: it never waits, and runs on every response (see registerSecurityHeaders).
  app.addHook("onSend", (req, reply, payload, done) => {
    const headers = reply.getHeaders();
    for (const name in headers) {
      const value = headers[name];
      if (value === undefined || sendableHeaderValue(name, value)) continue;
      reply.removeHeader(name);
      req.log.error({ header: name }, "dropped a response header Node can't send");
    }
    done(null, payload);
  });
}
