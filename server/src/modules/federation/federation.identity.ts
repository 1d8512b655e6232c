import type { KeyObject } from "node:crypto";
import { decryptEnvelope, encryptEnvelope } from "../../crypto/envelope.js";
import { nowIso } from "../../db/db.js";
import { InputError } from "../../http/errors.js";
import type { SettingsService } from "../settings/settings.service.js";
import { generateIdentity, privateKeyFromDer } from "./federation.crypto.js";
import type { FederationRepo } from "./federation.repo.js";

const AAD = "federation.identity";

export interface Identity {
  nodeId: string;
  /** Raw Ed25519 public key, base64url. */
  publicKey: string;
  privateKey: KeyObject;
}

/**
 * This console's long-lived Ed25519 identity: created on first use, its private key stored as a
 * master-key envelope (like backup targets' and notification providers' secrets), decrypted once
 * and kept for the life of the process. Two first uses at once both generate; the unique id 1 keeps
 * the first, and the other reads it back.
 */
export function createIdentityService(deps: {
  repo: Pick<FederationRepo, "identity" | "insertIdentity">;
  masterKey: () => { key: Buffer };
  settings: Pick<SettingsService, "get">;
  publicUrl: string | undefined;
}) {
  let cached: Identity | undefined;

  async function identity(): Promise<Identity> {
    if (cached) return cached;
    let row = await deps.repo.identity();
    if (!row) {
      const g = generateIdentity();
      await deps.repo.insertIdentity({
        node_id: g.nodeId,
        public_key: g.publicKey,
        private_key_encrypted: encryptEnvelope(deps.masterKey().key, g.privateKeyDer, AAD),
        created_at: nowIso(),
      });
      row = await deps.repo.identity();
      if (!row) throw new Error("federation identity missing after insert");
    }
    const der = decryptEnvelope(deps.masterKey().key, row.private_key_encrypted, AAD);
    cached = { nodeId: row.node_id, publicKey: row.public_key, privateKey: privateKeyFromDer(der) };
    return cached;
  }

  /** The URL other consoles reach this one at: settings federationEndpoint, else CHAINLAUNCH_PUBLIC_URL. */
  async function endpoint(): Promise<string | null> {
    const configured = (await deps.settings.get()).config.federationEndpoint || deps.publicUrl || "";
    return configured.replace(/\/+$/, "") || null;
  }

  return {
    identity,
    endpoint,
    /** The endpoint, or a 400 saying how to set one (invitations carry it; peers call it). */
    async requireEndpoint(): Promise<string> {
      const e = await endpoint();
      if (!e) {
        throw new InputError(
          "this console has no federation endpoint: set federationEndpoint in the settings (POST /settings) or CHAINLAUNCH_PUBLIC_URL to the URL other consoles reach it at",
        );
      }
      return e;
    },
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
