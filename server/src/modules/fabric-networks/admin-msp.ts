import { join } from "node:path";
import { LOCAL_MSP_FILES, writeLocalMsp } from "../../fabric/msp/local-msp.js";
import { InputError } from "../../http/errors.js";
import type { KeysService } from "../keys/keys.service.js";
import type { OrgMaterial } from "./fabric-networks.context.js";

/** Where org identities are written for Fabric's own tools: `<dataDir>/exports`. */
export function exportsDir(dataDir: string): string {
  return join(dataDir, "exports");
}

/** An org admin's MSP folder as written on the console host. */
export interface AdminMsp {
  /** The MSP folder (CORE_PEER_MSPCONFIGPATH). */
  dir: string;
  mspId: string;
  signCertPem: string;
  /** `keystore/key.pem` (0600, folder 0700). */
  keyFile: string;
  /** The org's TLS CA, `tlscacerts/tlsca.pem`. */
  tlsRootCertFile: string;
  /** The files written, relative to `dir`. */
  files: string[];
}

/** Writes to one folder one at a time: two requests writing the same folder must not interleave. */
const writing = new Map<string, Promise<unknown>>();

/**
 * Writes the local MSP folder of an org's admin identity (NodeOUs config, CA and TLS CA
 * certificates, signcert, keystore) at `dir`, replacing what an earlier write left there. The
 * private key goes to the keystore with mode 0600 and is never returned.
 */
export async function writeAdminMsp(
  keys: Pick<KeysService, "row" | "exportPrivateKeyPem">,
  org: OrgMaterial,
  dir: string,
): Promise<AdminMsp> {
  const keyId = org.row.admin_sign_key_id;
  if (!keyId) {
    throw new InputError(`identity: organization ${org.mspId} has no admin identity`, { field: "identity" });
  }
  const key = await keys.row(keyId);
  const signCertPem = key.certificate ?? "";
  const previous = writing.get(dir) ?? Promise.resolve();
  const write = previous
    .catch(() => undefined)
    .then(async () =>
      writeLocalMsp(dir, {
        caCertPem: org.signCaCert,
        signCertPem,
        privateKeyPem: await keys.exportPrivateKeyPem(keyId),
        tlsCaCertPem: org.tlsCaCert,
      }),
    );
  writing.set(dir, write);
  try {
    const files = await write;
    return {
      dir,
      mspId: org.mspId,
      signCertPem,
      keyFile: join(dir, LOCAL_MSP_FILES.key),
      tlsRootCertFile: join(dir, LOCAL_MSP_FILES.tlsCaCert),
      files,
    };
  } finally {
    if (writing.get(dir) === write) writing.delete(dir);
  }
}
