import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { assertHostCommandAllowed } from "../../http/host-command.js";
import {
  availableResponse,
  deployBody,
  deploymentStatus,
  logsQuery,
  nameParams,
  pluginInput,
  pluginResponse,
  resumeResponse,
  serviceParams,
  serviceStatus,
  sourceOptionsResponse,
  sourceParams,
  validateBody,
  validateResponse,
} from "./plugins.schema.js";
import type { HostCommandGuard, PluginInput, PluginsService } from "./plugins.service.js";

const tags = ["Plugins"];
const YAML_TYPES = ["application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml"];
const MAX_PLUGIN_BYTES = 512 * 1024;

/** /plugins: definitions, the catalogue, deployments and their services, wire-compatible with upstream. */
export function registerPluginsRoutes(app: FastifyInstance, svc: PluginsService): void {
  /** YAML bodies are kept as text (for line and column in errors); the route sees an empty object. */
  const yamlBodies = new WeakMap<FastifyRequest, string>();
  const inputOf = (req: FastifyRequest): PluginInput => {
    const text = yamlBodies.get(req);
    return text !== undefined ? { yaml: text } : { json: req.body };
  };
  /** Processes or a compose file nobody reviewed run commands on the host: admins only (HOST_COMMAND). */
  const hostCommands =
    (req: FastifyRequest): HostCommandGuard =>
    (field, plugin) => {
      req.auditInfo.resource = `plugin:${plugin}`;
      assertHostCommandAllowed(
        req,
        field,
        "defining plugin processes or a compose file (this plugin is not a built-in catalogue entry as published)",
      );
    };

  app.register(async (scope) => {
    scope.addContentTypeParser(YAML_TYPES, { parseAs: "string", bodyLimit: MAX_PLUGIN_BYTES }, (req, body, done) => {
      yamlBodies.set(req, body as string);
      done(null, {});
    });
    const r = scope.withTypeProvider<ZodTypeProvider>();
    r.get(
      "/plugins",
      {
        config: { access: "PLUGIN_READ" },
        schema: {
          operationId: "listPlugins",
          tags,
          summary: "List plugins with their deployment status",
          response: { 200: lazySchema(() => z.array(pluginResponse)) },
        },
      },
      async () => svc.list(),
    );
    r.post(
      "/plugins",
      {
        bodyLimit: MAX_PLUGIN_BYTES,
        config: { access: "PLUGIN_MANAGE", audit: "plugin.create" },
        schema: {
          operationId: "createPlugin",
          tags,
          summary: "Install a plugin (JSON, or its YAML with Content-Type application/yaml)",
          description:
            "Bad YAML and fields that break the plugin format are a 400 naming the field, with line and column " +
            "for YAML (details.errors: [{path, message, line, column}]). 409 when the name exists. A plugin whose " +
            "spec is not a built-in catalogue entry's as published (its own processes or compose file) runs " +
            "commands on the host: 403 unless the caller holds HOST_COMMAND (admins).",
          body: pluginInput,
          response: { 201: pluginResponse },
        },
      },
      async (req, reply) => {
        const p = await svc.create(inputOf(req), hostCommands(req));
        req.auditInfo.resource = `plugin:${p.metadata.name}`;
        req.auditInfo.details = { name: p.metadata.name, version: p.metadata.version ?? null };
        return reply.code(201).send(p);
      },
    );
    r.put(
      "/plugins/:name",
      {
        bodyLimit: MAX_PLUGIN_BYTES,
        config: { access: "PLUGIN_MANAGE", audit: "plugin.update" },
        schema: {
          operationId: "updatePlugin",
          tags,
          summary:
            "Change a plugin's definition (JSON or YAML); a running deployment keeps its own until deployed again",
          description:
            "Changing what the plugin runs (its processes or compose file) to something that is not a built-in " +
            "catalogue entry's as published: 403 unless the caller holds HOST_COMMAND (admins).",
          params: nameParams,
          body: pluginInput,
          response: { 200: pluginResponse },
        },
      },
      async (req) => {
        req.auditInfo.resource = `plugin:${req.params.name}`;
        return svc.update(req.params.name, inputOf(req), hostCommands(req));
      },
    );
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    "/plugins/validate",
    {
      config: { access: "PLUGIN_MANAGE", audit: "plugin.validate" },
      schema: {
        operationId: "validatePlugin",
        tags,
        summary: "Check a plugin's YAML without saving it (the editor's inline errors)",
        body: validateBody,
        response: { 200: validateResponse },
      },
    },
    async (req) => svc.validate(req.body.yaml),
  );
  r.get(
    "/plugins/available",
    {
      config: { access: "PLUGIN_READ" },
      schema: {
        operationId: "listAvailablePlugins",
        tags,
        summary: "Plugins that can be installed: the built-in catalogue and the registries set in settings",
        response: { 200: availableResponse },
      },
    },
    async () => svc.available(),
  );
  r.post(
    "/plugins/available/refresh",
    {
      config: { access: "PLUGIN_MANAGE", audit: "plugin.catalogue_refresh" },
      schema: {
        operationId: "refreshAvailablePlugins",
        tags,
        summary: "Read the registries again",
        response: { 200: availableResponse },
      },
    },
    async () => svc.available({ refresh: true }),
  );
  r.get(
    "/plugins/sources/:type",
    {
      config: { access: "PLUGIN_READ" },
      schema: {
        operationId: "listPluginSourceOptions",
        tags,
        summary:
          "What an x-source parameter can name: the console's peers, keys, organizations, networks or Besu nodes",
        params: sourceParams,
        response: { 200: sourceOptionsResponse },
      },
    },
    async (req) => ({ type: req.params.type, options: await svc.sourceOptions(req.params.type) }),
  );
  r.get(
    "/plugins/:name",
    {
      config: { access: "PLUGIN_READ" },
      schema: {
        operationId: "getPlugin",
        tags,
        summary: "A plugin, its deployment status and its YAML",
        params: nameParams,
        response: { 200: pluginResponse },
      },
    },
    async (req) => svc.get(req.params.name),
  );
  r.delete(
    "/plugins/:name",
    {
      config: { access: "PLUGIN_MANAGE", audit: "plugin.delete" },
      schema: {
        operationId: "deletePlugin",
        tags,
        summary: "Delete a plugin (stops it first and removes its files)",
        params: nameParams,
        response: { 204: lazySchema(() => z.null()) },
      },
    },
    async (req, reply) => {
      req.auditInfo.resource = `plugin:${req.params.name}`;
      await svc.remove(req.params.name);
      return reply.code(204).send(null);
    },
  );
  r.post(
    "/plugins/:name/deploy",
    {
      config: { access: "PLUGIN_MANAGE", audit: "plugin.deploy" },
      schema: {
        operationId: "deployPlugin",
        tags,
        summary: "Deploy a plugin with parameter values",
        description:
          "Values are checked against spec.parameters first (400 naming parameters.<field>); x-source values are " +
          "bound to the console's resources; a compose plugin refuses values with line breaks (they would add lines " +
          "to its compose file). A process that does not start ends the deploy: 400 with its log in " +
          "details.log, the plugin in error, nothing left running. A compose plugin without a Docker engine: 400 " +
          "DOCKER_UNAVAILABLE. 409 while it runs.",
        params: nameParams,
        body: deployBody,
        response: { 200: deploymentStatus },
      },
    },
    async (req) => {
      req.auditInfo.resource = `plugin:${req.params.name}`;
      req.auditInfo.details = { parameters: Object.keys(req.body ?? {}) };
      return svc.deploy(req.params.name, req.body ?? {});
    },
  );
  r.post(
    "/plugins/:name/stop",
    {
      config: { access: "PLUGIN_MANAGE", audit: "plugin.stop" },
      schema: {
        operationId: "stopPlugin",
        tags,
        summary: "Stop a plugin's deployment (its bound key files are removed)",
        params: nameParams,
        response: { 200: deploymentStatus },
      },
    },
    async (req) => {
      req.auditInfo.resource = `plugin:${req.params.name}`;
      return svc.stop(req.params.name);
    },
  );
  r.post(
    "/plugins/:name/resume",
    {
      config: { access: "PLUGIN_MANAGE", audit: "plugin.resume" },
      schema: {
        operationId: "resumePlugin",
        tags,
        summary: "Deploy a stopped plugin again with the values of its last deploy",
        params: nameParams,
        response: { 200: resumeResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `plugin:${req.params.name}`;
      return svc.resume(req.params.name);
    },
  );
  r.get(
    "/plugins/:name/deployment-status",
    {
      config: { access: "PLUGIN_READ" },
      schema: {
        operationId: "getPluginDeploymentStatus",
        tags,
        summary: "Deployment status: status, parameters, services, started and stopped times, error",
        params: nameParams,
        response: { 200: deploymentStatus },
      },
    },
    async (req) => svc.deploymentStatus(req.params.name),
  );
  r.get(
    "/plugins/:name/status",
    {
      config: { access: "PLUGIN_READ" },
      schema: {
        operationId: "getPluginStatus",
        tags,
        summary: "Deployment status (upstream's older path; the same as deployment-status)",
        params: nameParams,
        response: { 200: deploymentStatus },
      },
    },
    async (req) => svc.deploymentStatus(req.params.name),
  );
  r.get(
    "/plugins/:name/services",
    {
      config: { access: "PLUGIN_READ" },
      schema: {
        operationId: "getPluginServices",
        tags,
        summary: "Each service's state, health, ports and last error",
        params: nameParams,
        response: { 200: lazySchema(() => z.array(serviceStatus)) },
      },
    },
    async (req) => svc.services(req.params.name),
  );
  r.get(
    "/plugins/:name/services/:service/logs",
    {
      config: { access: "PLUGIN_READ" },
      schema: {
        operationId: "getPluginServiceLogs",
        tags,
        summary: "The last lines of a service's log (text/plain)",
        params: serviceParams,
        querystring: logsQuery,
        response: { 200: lazySchema(() => z.string().describe("Log lines (text/plain)")) },
      },
    },
    async (req, reply) => {
      const text = await svc.logs(req.params.name, req.params.service, req.query.tail);
      return reply.type("text/plain; charset=utf-8").send(text);
    },
  );
}
