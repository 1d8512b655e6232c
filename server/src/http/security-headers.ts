import type { FastifyInstance } from "fastify";

/**
 * Headers on every response, API and web app alike: the console can't be framed by another site
 * (clickjacking a "Stop node" button), browsers don't guess content types, and URLs with ids don't
 * leak to other sites through Referer.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": "frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
};

const ENTRIES = Object.entries(SECURITY_HEADERS);

/**
 * A callback hook, not an async one: it runs on every response, and an async hook costs a promise
 * and a microtask turn each time for work that never waits.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook("onSend", (_req, reply, payload, done) => {
    for (const [name, value] of ENTRIES) {
      if (!reply.hasHeader(name)) reply.header(name, value);
    }
    done(null, payload);
  });
}
