import type { FastifyInstance } from "fastify";
import type { DB } from "../../db/db.js";
import type { KeysService } from "../keys/keys.service.js";
import { registerOrganizationIdentityRoutes } from "./organization-identities.js";
import { registerOrganizationImportRoute } from "./organization-import.js";
import { createOrganizationPki } from "./organization-pki.service.js";
import { createOrganizationsRepo } from "./organizations.repo.js";
import { registerOrganizationsRoutes } from "./organizations.routes.js";
import { createOrganizationsService, type OrganizationsService } from "./organizations.service.js";

/** Wires the organizations module; registers its key-usage guard with the keys service. */
export function registerOrganizationsModule(
  api: FastifyInstance,
  deps: { db: DB; keys: KeysService },
): OrganizationsService {
  const repo = createOrganizationsRepo(deps.db);
  const pki = createOrganizationPki({ repo, keys: deps.keys });
  const orgs = createOrganizationsService({ repo, keys: deps.keys, pki });
  // The same function, so deleting an issued identity (orgs.removeKey) can skip this check.
  deps.keys.addUsageChecker(orgs.userOfKey);
  registerOrganizationsRoutes(api, orgs, pki);
  registerOrganizationIdentityRoutes(api, { orgs, pki, repo, keys: deps.keys });
  registerOrganizationImportRoute(api, { orgs, pki, repo, keys: deps.keys });
  return orgs;
}
