import type { Client } from "openapi-fetch";
import { api } from "@/api/client";
import type {
  AvailablePlugins,
  DeploymentStatus,
  Plugin,
  PluginService,
  SourceOptions,
  ValidateResult,
  XSource,
} from "@/data/plugins/types";

type Json<T> = { headers: Record<string, unknown>; content: { "application/json": T } };
type NoParams = { query?: never; header?: never; path?: never; cookie?: never };
type NameParam = { query?: never; header?: never; path: { name: string }; cookie?: never };
type Op<Res, Params = NoParams, Body = never, Status extends number = 200> = {
  parameters: Params;
  responses: { [S in Status]: Json<Res> };
} & ([Body] extends [never] ? { requestBody?: never } : { requestBody: { content: Body } });
/** A plugin document as JSON, or its YAML text sent as `Content-Type: application/yaml`. */
type PluginBody = { "application/json": Plugin; "application/yaml": string };
type Unused = {
  get?: never;
  put?: never;
  post?: never;
  delete?: never;
  options?: never;
  head?: never;
  patch?: never;
  trace?: never;
};
type Path<Ops> = Omit<Unused, keyof Ops> & Ops & { parameters: NoParams };

/**
 * The /plugins endpoints of docs/plugins-design, in openapi-typescript's shape. They stand in for
 * the generated `paths` until the server's OpenAPI carries them (then `pluginApi` becomes `api`).
 */
export interface PluginPaths {
  "/plugins": Path<{
    get: Op<Plugin[]>;
    post: Op<Plugin, NoParams, PluginBody, 201>;
  }>;
  "/plugins/validate": Path<{ post: Op<ValidateResult, NoParams, { "application/json": { yaml: string } }> }>;
  "/plugins/available": Path<{ get: Op<AvailablePlugins> }>;
  "/plugins/available/refresh": Path<{ post: Op<AvailablePlugins> }>;
  "/plugins/sources/{type}": Path<{
    get: Op<SourceOptions, { query?: never; header?: never; path: { type: XSource }; cookie?: never }>;
  }>;
  "/plugins/{name}": Path<{
    get: Op<Plugin, NameParam>;
    put: Op<Plugin, NameParam, PluginBody>;
    delete: Op<void, NameParam, never, 204>;
  }>;
  "/plugins/{name}/deploy": Path<{
    post: Op<DeploymentStatus, NameParam, { "application/json": Record<string, unknown> }>;
  }>;
  "/plugins/{name}/stop": Path<{ post: Op<DeploymentStatus, NameParam> }>;
  "/plugins/{name}/resume": Path<{ post: Op<{ status: string; message?: string }, NameParam> }>;
  "/plugins/{name}/deployment-status": Path<{ get: Op<DeploymentStatus, NameParam> }>;
  "/plugins/{name}/services": Path<{ get: Op<PluginService[], NameParam> }>;
  "/plugins/{name}/services/{service}/logs": Path<{
    get: Op<
      string,
      { query?: { tail?: number }; header?: never; path: { name: string; service: string }; cookie?: never }
    >;
  }>;
}

/** The one typed client (same instance, middleware and session) seen through the plugin paths. */
export const pluginApi = api as unknown as Client<PluginPaths>;

/** Request options that send a plugin's YAML text as is, as `application/yaml` (line numbers survive). */
export function yamlBody(text: string): {
  body: string;
  bodySerializer: (b: unknown) => string;
  headers: { "Content-Type": string };
} {
  return { body: text, bodySerializer: (b) => String(b), headers: { "Content-Type": "application/yaml" } };
}

/** Statuses during which a deployment changes by itself, so screens poll. */
export const MOVING_STATES: readonly string[] = ["deploying", "stopping"];
