import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { assertHostCommandAllowed } from "../../http/host-command.js";
import { settingBody, settingResponse } from "./settings.schema.js";
import type { SettingsService } from "./settings.service.js";

const tags = ["Settings"];

export function registerSettingsRoutes(app: FastifyInstance, settings: SettingsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/settings",
    {
      config: { access: "SETTINGS_READ" },
      schema: { operationId: "getSetting", tags, summary: "Get global settings", response: { 200: settingResponse } },
    },
    async () => settings.get(),
  );
  r.post(
    "/settings",
    {
      config: { access: "SYSTEM_CONFIG", audit: "settings.update" },
      schema: {
        operationId: "createOrUpdateSetting",
        tags,
        summary: "Replace global settings",
        description:
          "Adding a URL to config.pluginRegistries needs HOST_COMMAND (admins): a registry supplies plugin definitions, " +
          "whose processes run commands on the host. 403 for other callers; the other settings save as before.",
        body: settingBody,
        response: { 200: settingResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = "settings";
      req.auditInfo.details = { config: req.body.config };
      // Removing a registry takes nothing new onto the host; adding one is an admin's call.
      const current = new Set((await settings.get()).config.pluginRegistries);
      if (req.body.config.pluginRegistries.some((url) => !current.has(url)))
        assertHostCommandAllowed(
          req,
          "config.pluginRegistries",
          "adding a plugin registry (its plugins define processes)",
        );
      return settings.update(req.body.config);
    },
  );
}
