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

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook("onSend", async (_req, reply) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      if (!reply.hasHeader(name)) reply.header(name, value);
    }
  });
}
