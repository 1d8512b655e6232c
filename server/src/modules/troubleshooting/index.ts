import type { FastifyInstance } from "fastify";
import type { SettingsService } from "../settings/settings.service.js";
import type { OrganizationsService } from "../organizations/organizations.service.js";
import { registerTroubleshootingRoutes } from "./troubleshooting.routes.js";
import { createGuard, createRateLimiter } from "./troubleshooting.guard.js";
import { registerProbeRoutes } from "./troubleshooting.probe.routes.js";

/** Public-IP, connection, certificate, ping and port tools (docs/troubleshooting.md). */
export function registerTroubleshootingModule(
  api: FastifyInstance,
  deps: { settings: SettingsService; orgs: Pick<OrganizationsService, "list"> },
): void {
  // One guard (and one rate limit per client IP) for every tool.
  const guard = createGuard({ settings: deps.settings, limiter: createRateLimiter() });
  registerProbeRoutes(api, { guard });
  registerTroubleshootingRoutes(api, {
    guard,
    settings: deps.settings,
    // The console's own org TLS CAs: a peer or orderer it runs verifies against one of them.
    knownTlsCas: async () => {
      const { items } = await deps.orgs.list(1000, 0);
      return items.filter((o) => o.tlsCertificate).map((o) => ({ name: o.mspId, pem: o.tlsCertificate }));
    },
  });
}
