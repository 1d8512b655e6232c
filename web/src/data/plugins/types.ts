import type { ResponseOf } from "@/api/client";

/** A plugin as the server answers: its document, deployment status and (GET one) the YAML as saved. */
export type Plugin = ResponseOf<"/plugins/{name}", "get">;
export type DeploymentStatus = ResponseOf<"/plugins/{name}/deployment-status", "get">;
export type DeploymentState = DeploymentStatus["status"];
/** One process (or compose service) of a deployed plugin. */
export type PluginService = ResponseOf<"/plugins/{name}/services", "get">[number];
export type AvailablePlugins = ResponseOf<"/plugins/available", "get">;
export type AvailablePlugin = AvailablePlugins["plugins"][number];
export type ValidateResult = ResponseOf<"/plugins/validate", "post">;
/** One problem of a plugin document: the field's path and, for YAML, its place. */
export type PluginProblem = ValidateResult["errors"][number];
export type SourceOptions = ResponseOf<"/plugins/sources/{type}", "get">;
export type SourceOption = SourceOptions["options"][number];
/** Where a parameter's value comes from in the console (the `x-source` keyword). */
export type XSource = SourceOptions["type"];
/** The plugin's parameters: a JSON Schema (draft-07) object whose properties may carry `x-source`. */
export type ParameterSchema = Plugin["spec"]["parameters"];
export type ParameterProperty = NonNullable<ParameterSchema["properties"]>[string];
export type PluginDocumentation = NonNullable<Plugin["spec"]["documentation"]>;
export type ResumeResult = ResponseOf<"/plugins/{name}/resume", "post">;
