import type { FastifyInstance } from "fastify";
import { loadOrCreateMasterKey } from "../../crypto/envelope.js";
import type { DB } from "../../db/db.js";
import { createKeyProvidersRepo } from "./key-providers.repo.js";
import { registerKeyProvidersRoutes } from "./key-providers.routes.js";
import { createKeyProvidersService, type KeyProvidersService } from "./key-providers.service.js";
import { createAwsKmsBackend } from "./aws-kms/aws-kms-backend.js";
import { createVaultBackend } from "./vault/vault-backend.js";

/**
 * Wires key providers. On ready it resolves the master key (CHAINLAUNCH_MASTER_KEY, else
 * `<dataDir>/master.key`, created 0600) and makes sure the built-in DATABASE provider exists;
 * a bad master key fails the boot with a message naming the variable.
 */
export function registerKeyProvidersModule(
  api: FastifyInstance,
  deps: { db: DB; dataDir: string; masterKeyEnv: string | undefined },
): KeyProvidersService & { masterKey(): { key: Buffer; fromEnv: boolean } } {
  let masterKey: Buffer | undefined;
  let fromEnv = false;
  const providers = createKeyProvidersService({
    repo: createKeyProvidersRepo(deps.db),
    masterKey: () => {
      if (!masterKey) throw new Error("master key not loaded yet");
      return masterKey;
    },
    dataDir: deps.dataDir,
    log: api.log,
    backends: (ctx) => ({ VAULT: createVaultBackend(ctx), AWS_KMS: createAwsKmsBackend(ctx) }),
  });
  api.addHook("onReady", async () => {
    const loaded = await loadOrCreateMasterKey({ envValue: deps.masterKeyEnv, dataDir: deps.dataDir });
    masterKey = loaded.key;
    fromEnv = loaded.source === "env";
    await providers.ensureBuiltIn();
    await providers.ready();
  });
  api.addHook("onClose", async () => providers.close());
  registerKeyProvidersRoutes(api, providers);
  return Object.assign(providers, {
    /** The master key and where it came from (backups include the key file, not an env key). */
    masterKey: () => {
      if (!masterKey) throw new Error("master key not loaded yet");
      return { key: masterKey, fromEnv };
    },
  });
}
