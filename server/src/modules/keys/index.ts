import type { FastifyInstance } from "fastify";
import type { DB } from "../../db/db.js";
import type { KeyProvidersService } from "../key-providers/key-providers.service.js";
import { createKeysRepo } from "./keys.repo.js";
import { registerKeysRoutes } from "./keys.routes.js";
import { createKeysService, type KeysService } from "./keys.service.js";

/** Wires the keys module. */
export function registerKeysModule(
  api: FastifyInstance,
  deps: { db: DB; providers: KeyProvidersService },
): KeysService {
  const keys = createKeysService({ repo: createKeysRepo(deps.db), providers: deps.providers });
  registerKeysRoutes(api, keys);
  return keys;
}
