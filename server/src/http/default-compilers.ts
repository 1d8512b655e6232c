import type { FastifyServerOptions } from "fastify";
import { createRequire } from "node:module";

type Factories = NonNullable<NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"]>;
type ValidatorFactory = NonNullable<Factories["buildValidator"]>;
type SerializerFactory = NonNullable<Factories["buildSerializer"]>;

const load = createRequire(import.meta.url);
let validator: ValidatorFactory | undefined;
let serializer: SerializerFactory | undefined;

/**
 * Fastify's own schema compilers (Ajv, fast-json-stringify), loaded if a route ever needs them. The console
 * sets its own (zod) compilers for every route, so they never are; but Fastify required both packages, with
 * two more copies of Ajv, as each instance was made: ~8 ms of every start (issue 34). Same factories, same
 * options, when one is asked for.
 */
export const lazyDefaultCompilers: Required<Factories> = {
  buildValidator: ((externalSchemas: unknown, options: unknown) => {
    validator ??= (load("@fastify/ajv-compiler") as () => ValidatorFactory)();
    return (validator as (s: unknown, o: unknown) => unknown)(externalSchemas, options);
  }) as ValidatorFactory,
  buildSerializer: ((externalSchemas: unknown, options: unknown) => {
    serializer ??= (load("@fastify/fast-json-stringify-compiler") as () => SerializerFactory)();
    return (serializer as (s: unknown, o: unknown) => unknown)(externalSchemas, options);
  }) as SerializerFactory,
};
