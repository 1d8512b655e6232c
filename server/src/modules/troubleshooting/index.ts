import type { FastifyInstance } from "fastify";
import type { SettingsService } from "../settings/settings.service.js";
import type { OrganizationsService } from "../organizations/organizations.service.js";
import { registerTroubleshootingRoutes } from "./troubleshooting.routes.js";

/** Public-IP, connection and certificate tools (docs/troubleshooting.md). */
export function registerTroubleshootingModule(
  api: FastifyInstance,
  deps: { settings: SettingsService; orgs: Pick<OrganizationsService, "list"> },
): void {
  registerTroubleshootingRoutes(api, {
    settings: deps.settings,
    // The console's own org TLS CAs: a peer or orderer it runs verifies against one of them.
    knownTlsCas: async () => {
      const { items } = await deps.orgs.list(1000, 0);
      return items.filter((o) => o.tlsCertificate).map((o) => ({ name: o.mspId, pem: o.tlsCertificate }));
    },
  });
}
