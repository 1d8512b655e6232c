import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import { InputError } from "../../http/errors.js";
import { assertNodeEnvAllowed, refusedEnvReason } from "../nodes/node-env-policy.js";
import { assertHostCommandAllowed } from "../../http/host-command.js";
import { createNodeBody } from "../nodes/nodes.schema.js";
import type { TemplateNodeType, TemplatePlatform, TemplateVariable } from "./templates.schema.js";
import { PLACEHOLDER, type Origins, wholePlaceholder } from "./templates.variables.js";

type Section = "fabricPeer" | "fabricOrderer" | "besuNode";

/**
 * The POST /nodes section a template configures, or undefined for templates this console does not
 * turn into a node (network templates, platforms it does not run).
 */
export function nodeSectionOf(platform: TemplatePlatform, nodeType: TemplateNodeType): Section | undefined {
  if (platform === "FABRIC")
    return nodeType === "peer" ? "fabricPeer" : nodeType === "orderer" ? "fabricOrderer" : undefined;
  if (platform === "BESU" && ["fullnode", "validator", "archive", "bootstrap"].includes(nodeType)) return "besuNode";
  return undefined;
}

/**
 * Keys that would name a program, a script or a host path to run from. No configuration this console
 * reads has them, and a template is shared data: they are refused for every role, at any depth.
 */
const HOST_COMMAND_KEY =
  /^(binary|binary_?path|bin|bin_?path|source_?path|command|cmd|commands|exec|executable|entrypoint|entry_?point|script|scripts|shell|run|pre_?start|post_?start|hook|hooks|plugin_?path|external_?builders?)$/i;

const SAMPLE: Record<TemplateVariable["type"], unknown> = {
  string: "x",
  number: 1,
  boolean: true,
  array: [],
  object: {},
};

/**
 * Checks a stored template's configuration. Every template: no key that names a program to run.
 * A node template (FABRIC peer/orderer, BESU node): its configuration is a POST /nodes body for its
 * own section, with nothing POST /nodes would not take (checked with placeholders filled by sample
 * values, so only unknown fields and literal values of the wrong kind count), and its literal
 * environment variables pass the node env policy (admin-only names are a 403 for the others, as on
 * POST /nodes).
 * @throws InputError naming `<at>config.<path>`; ForbiddenError (HOST_COMMAND) for admin-only env
 */
export function checkTemplateConfig(
  req: FastifyRequest,
  t: {
    platform: TemplatePlatform;
    node_type: TemplateNodeType;
    config: Record<string, unknown>;
    variables: readonly TemplateVariable[];
  },
  at = "",
): void {
  const walk = (v: unknown, p: string): void => {
    if (Array.isArray(v)) v.forEach((e, i) => walk(e, `${p}[${i}]`));
    else if (v && typeof v === "object")
      for (const [k, e] of Object.entries(v)) {
        if (HOST_COMMAND_KEY.test(k))
          throw new InputError(
            `${p}.${k}: a template cannot name a program or script to run; nodes run the console's own Fabric and Besu binaries`,
          );
        walk(e, `${p}.${k}`);
      }
  };
  walk(t.config, `${at}config`);
  const section = nodeSectionOf(t.platform, t.node_type);
  if (!section) return;
  for (const other of ["fabricPeer", "fabricOrderer", "besuNode"] as const) {
    if (other !== section && other in t.config)
      throw new InputError(`${at}config.${other}: a ${t.platform} ${t.node_type} template configures ${section}`);
  }
  const bp = t.config.blockchainPlatform;
  if (typeof bp === "string" && !PLACEHOLDER_ONLY(bp) && bp !== t.platform)
    throw new InputError(`${at}config.blockchainPlatform: must be ${t.platform} for a ${t.platform} template`);
  // Placeholders filled with type samples: what is left to refuse is the template's own doing.
  const types = new Map(t.variables.map((v) => [v.name, v.type]));
  const samples = new Set<string>();
  const probe = (v: unknown, p: string): unknown => {
    if (typeof v === "string") {
      const whole = wholePlaceholder(v);
      if (whole !== undefined) {
        samples.add(p);
        return structuredClone(SAMPLE[types.get(whole) ?? "string"]);
      }
      return v.replace(PLACEHOLDER, "x");
    }
    if (Array.isArray(v)) return v.map((e, i) => probe(e, `${p}.${i}`));
    if (v && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, probe(e, p ? `${p}.${k}` : k)]));
    return v;
  };
  const probed = probe(t.config, "") as Record<string, unknown>;
  const parsed = createNodeBody.safeParse({ name: "x", blockchainPlatform: t.platform, [section]: {}, ...probed });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const p = issue.path.map(String).join(".");
      if (issue.code === "unrecognized_keys") {
        const where = p ? `${at}config.${p}` : `${at}config`;
        throw new InputError(
          `${where}.${issue.keys[0]}: unknown field; a ${t.platform} ${t.node_type} template's config is a POST /nodes body`,
        );
      }
      // A literal of the wrong kind (not a sample, not a missing field the applier must give).
      if (issue.code === "invalid_type" && !samples.has(p) && valueAt(probed, issue.path) !== undefined)
        throw new InputError(`${at}config.${p}: ${issue.message}`);
    }
  }
  const env = (t.config[section] as Record<string, unknown> | undefined)?.env;
  if (env && typeof env === "object") {
    for (const [name, value] of Object.entries(env)) {
      const literal = typeof value === "string" ? value.replace(PLACEHOLDER, "x") : "";
      const why = refusedEnvReason(name, literal);
      if (why) assertHostCommandAllowed(req, `${at}config.${section}.env.${name}`, why);
    }
  }
}

const PLACEHOLDER_ONLY = (s: string): boolean => wholePlaceholder(s) !== undefined;

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const k of path) {
    if (!v || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/**
 * Checks an applied node template's result as POST /nodes will: the whole body, and the env policy
 * with the values the variables gave. An error in a field a variable filled names the variable.
 * @throws InputError naming `variables.<name>` or `config.<path>`; ForbiddenError for admin-only env
 */
export function checkAppliedNode(
  req: FastifyRequest,
  platform: TemplatePlatform,
  nodeType: TemplateNodeType,
  config: Record<string, unknown>,
  origins: Origins,
): void {
  const section = nodeSectionOf(platform, nodeType);
  if (!section) return;
  const parsed = createNodeBody.safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as z.core.$ZodIssue;
    const p = issue.path.map(String).join(".");
    const from = origins.get(p);
    const what = issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : issue.message;
    if (from) throw new InputError(`variables.${from}: ${what} (it fills config.${p})`);
    throw new InputError(`config${p ? `.${p}` : ""}: ${what}`);
  }
  const env = parsed.data[section]?.env;
  assertNodeEnvAllowed(req, `config.${section}.env`, env);
}
