import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";
import { createProviderDelivery, type ProviderDelivery } from "./delivery.js";
import { createProvidersRepo } from "./providers.repo.js";
import { registerProvidersRoutes } from "./providers.routes.js";
import { createProvidersService, type ProvidersService } from "./providers.service.js";

export interface NotificationProvidersModule {
  service: ProvidersService;
  delivery: ProviderDelivery;
}

/**
 * Notification providers (email over SMTP, signed webhooks) and the delivery of routed bus events
 * to them. Delivery starts at once and stops (aborting webhook retry waits) when the app closes.
 */
export function registerNotificationProvidersModule(
  api: FastifyInstance,
  ctx: Pick<AppContext, "db" | "bus" | "log" | "config">,
  deps: { masterKey: () => { key: Buffer } },
): NotificationProvidersModule {
  const service = createProvidersService({
    repo: createProvidersRepo(ctx.db),
    masterKey: deps.masterKey,
  });
  const delivery = createProviderDelivery({
    bus: ctx.bus,
    providers: service,
    log: ctx.log,
    publicUrl: ctx.config.publicUrl,
  });
  delivery.start();
  registerProvidersRoutes(api, service);
  api.addHook("onClose", async () => delivery.close());
  return { service, delivery };
}
