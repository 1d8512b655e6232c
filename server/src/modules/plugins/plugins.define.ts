import { nowIso } from "../../db/db.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { ConflictError, InputError } from "../../http/errors.js";
import {
  parsePluginJson,
  parsePluginYaml,
  pluginToYaml,
  PluginFormatError,
  type PluginDoc,
  type PluginProblem,
} from "./plugin-format.js";
import type { PluginResponse } from "./plugins.schema.js";
import { formatError, type PluginsDeps, type PluginState } from "./plugins.state.js";

export type PluginInput = { yaml: string } | { json: unknown };

/**
 * Called before a definition is stored when it defines host commands nobody reviewed: its processes
 * or compose file are neither a built-in catalogue entry's as published nor the ones the plugin
 * already has. `field` is where they are (`spec.processes` or `spec.dockerCompose`), `plugin` its name. The route
 * throws when the caller may not define host commands (HOST_COMMAND, admin only).
 */
export type HostCommandGuard = (field: string, plugin: string) => void;

/** The spec without its documentation, keys sorted: what decides what a plugin runs. */
function runnableSpec(doc: PluginDoc): string {
  const { documentation: _docs, ...spec } = doc.spec;
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v && typeof v === "object"
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(sorted(spec));
}

/** Plugin definitions: checking, installing and editing them. */
export function createPluginDefinitions(deps: Pick<PluginsDeps, "repo" | "catalogue">, state: PluginState) {
  const { repo } = deps;

  function parse(input: PluginInput): { doc: PluginDoc; source: string } {
    try {
      if ("yaml" in input) return { doc: parsePluginYaml(input.yaml), source: input.yaml };
      const doc = parsePluginJson(input.json);
      return { doc, source: pluginToYaml(doc) };
    } catch (err) {
      if (err instanceof PluginFormatError) throw formatError(err);
      throw err;
    }
  }

  /**
   * Whether `doc` runs only what was already reviewed: a built-in catalogue entry's spec as
   * published (metadata and documentation may differ), or the spec `current` already has.
   */
  async function reviewed(doc: PluginDoc, current?: PluginDoc): Promise<boolean> {
    const spec = runnableSpec(doc);
    if (current && runnableSpec(current) === spec) return true;
    for (const entry of await deps.catalogue.published()) {
      if (runnableSpec(parsePluginYaml(entry.raw_yaml)) === spec) return true;
    }
    return false;
  }

  async function guardHostCommands(doc: PluginDoc, guard: HostCommandGuard, current?: PluginDoc): Promise<void> {
    if (await reviewed(doc, current)) return;
    guard(doc.spec.dockerCompose ? "spec.dockerCompose" : "spec.processes", doc.metadata.name);
  }

  return {
    validate(yaml: string): { valid: boolean; errors: PluginProblem[]; plugin?: PluginResponse } {
      try {
        const doc = parsePluginYaml(yaml);
        return {
          valid: true,
          errors: [],
          plugin: {
            ...(doc as unknown as PluginResponse),
            deploymentStatus: { status: "not-deployed", projectName: doc.metadata.name, services: [] },
          },
        };
      } catch (err) {
        if (err instanceof PluginFormatError) return { valid: false, errors: err.problems };
        throw err;
      }
    },
    /** Installs a plugin; `guard` decides about processes or compose files that were not reviewed. */
    async create(input: PluginInput, guard: HostCommandGuard): Promise<PluginResponse> {
      const { doc, source } = parse(input);
      await guardHostCommands(doc, guard);
      const now = nowIso();
      try {
        await repo.insert({
          name: doc.metadata.name,
          source,
          definition: JSON.stringify(doc),
          status: "not-deployed",
          parameters: null,
          error: null,
          started_at: null,
          stopped_at: null,
          created_at: now,
          updated_at: now,
        });
      } catch (err) {
        if (isUniqueViolation(err))
          throw new ConflictError(`metadata.name: a plugin named '${doc.metadata.name}' already exists`, {
            field: "metadata.name",
          });
        throw err;
      }
      return state.toResponse(await state.must(doc.metadata.name));
    },
    /** Changes the definition; a running deployment keeps what it was started with until it is deployed again. */
    async update(name: string, input: PluginInput, guard: HostCommandGuard): Promise<PluginResponse> {
      const { doc, source } = parse(input);
      if (doc.metadata.name !== name)
        throw new InputError(
          `metadata.name: '${doc.metadata.name}' differs from the plugin being updated ('${name}'); names can't change`,
          {
            field: "metadata.name",
          },
        );
      return state.serial(name, async () => {
        const row = await state.must(name);
        await guardHostCommands(doc, guard, state.docOf(row));
        await repo.update(name, { source, definition: JSON.stringify(doc), updated_at: nowIso() });
        return state.toResponse(await state.must(name));
      });
    },
  };
}
