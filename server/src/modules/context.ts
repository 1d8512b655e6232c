import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config/config.js";
import type { DB } from "../db/db.js";
import type { Dialect } from "../db/migrations/helpers.js";
import type { EventBus } from "../events/bus.js";
import type { ApiKeysService } from "./api-keys/api-keys.service.js";
import type { AuditService } from "./audit/audit.service.js";
import type { AuthService } from "./auth/auth.service.js";
import type { UsersRepo } from "./users/users.repo.js";
import type { RouteEntry } from "../http/deferred-routes.js";

/** What every module's `register` receives. Modules take only what they use from it. */
export interface AppContext {
  /** Every API route with its declared access rule, filled in as the modules register them. */
  routes: readonly RouteEntry[];
  /** The OpenAPI document of every route (made on first use). */
  openapi(): Promise<Record<string, unknown>>;
  config: Config;
  db: DB;
  dialect: Dialect;
  /** The SQLite file, when the dialect is SQLite (backups copy it with SQLite's online backup). */
  sqlitePath?: string;
  log: FastifyBaseLogger;
  bus: EventBus;
  audit: AuditService;
  auth: AuthService;
  apiKeys: ApiKeysService;
  usersRepo: UsersRepo;
}
