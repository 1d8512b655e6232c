import type { FastifyServerOptions } from "fastify";
import { createRequire } from "node:module";

type Factories = NonNullable<NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"]>;
type Build = (externalSchemas: unknown, options: unknown) => unknown;

const load = createRequire(import.meta.url);

/** The compiler factory package `pkg` exports (called once, as Fastify does), loaded at the first call. */
function loadedOnUse(pkg: string): Build {
  let factory: Build | undefined;
  return (externalSchemas, options) => (factory ??= (load(pkg) as () => Build)())(externalSchemas, options);
}

/**
 * Fastify's own schema compilers (Ajv, fast-json-stringify), loaded if a route ever needs them. The console
 * sets its own (zod) compilers for every route, so they never are; but Fastify required both packages, with
 * two more copies of Ajv, as each instance was made: ~8 ms of every start (issue 34). Same factories, same
 * options, when one is asked for.
 */
export const lazyDefaultCompilers: Required<Factories> = {
  buildValidator: loadedOnUse("@fastify/ajv-compiler") as NonNullable<Factories["buildValidator"]>,
  buildSerializer: loadedOnUse("@fastify/fast-json-stringify-compiler") as NonNullable<Factories["buildSerializer"]>,
};
