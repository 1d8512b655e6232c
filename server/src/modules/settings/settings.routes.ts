import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
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
        body: settingBody,
        response: { 200: settingResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = "settings";
      req.auditInfo.details = { config: req.body.config };
      return settings.update(req.body.config);
    },
  );
}
