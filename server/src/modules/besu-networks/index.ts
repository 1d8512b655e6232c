import type { FastifyInstance } from "fastify";
import type { DB } from "../../db/db.js";
import type { KeysService } from "../keys/keys.service.js";
import { createBesuNetworksRepo } from "./besu-networks.repo.js";
import { registerBesuNetworksRoutes } from "./besu-networks.routes.js";
import { createBesuNetworksService, type BesuNetworksService } from "./besu-networks.service.js";

/** Wires the Besu networks module; validator keys in use cannot be deleted. */
export function registerBesuNetworksModule(
  api: FastifyInstance,
  deps: { db: DB; keys: Pick<KeysService, "get" | "addUsageChecker"> },
): BesuNetworksService {
  const svc = createBesuNetworksService({ repo: createBesuNetworksRepo(deps.db), keys: deps.keys });
  deps.keys.addUsageChecker((keyId) => svc.keyUsage(keyId));
  registerBesuNetworksRoutes(api, svc);
  return svc;
}
