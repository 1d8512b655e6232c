import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { LightMyRequestResponse } from "fastify";
import { loadOrCreateMasterKey } from "../crypto/envelope.js";
import type { TestApp } from "./test-app.js";
import {
  b64url,
  canonicalString,
  generateIdentity,
  privateKeyFromDer,
  signEd25519,
  signJws,
} from "../modules/federation/federation.crypto.js";
import { createIdentityService, type Identity } from "../modules/federation/federation.identity.js";
import { createFederationRepo } from "../modules/federation/federation.repo.js";
import { HEADERS } from "../modules/federation/federation.wire.js";

/** Test-only helpers: a console's identity read from its database, and hand-made signed requests. */

export type Api = (method: "GET" | "POST" | "DELETE", url: string, payload?: object) => Promise<LightMyRequestResponse>;

export const apiOf =
  (t: TestApp, headers: Record<string, string> = t.admin): Api =>
  (method, url, payload) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

/** Listens on a free loopback port and makes that URL the console's federation endpoint (other settings kept). */
export async function listenAndSetEndpoint(t: TestApp): Promise<string> {
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  // Kept: what the test set before (a Fabric test's port range, say).
  const current = ((await apiOf(t)("GET", "/settings")).json() as { config?: object }).config ?? {};
  const res = await apiOf(t)("POST", "/settings", { config: { ...current, federationEndpoint: url } });
  if (res.statusCode !== 200) throw new Error(`settings: ${res.statusCode} ${res.body}`);
  return url;
}

/** The console's identity with its private key, as its own service decrypts it. */
export async function identityOf(t: TestApp): Promise<Identity> {
  const { key } = await loadOrCreateMasterKey({ dataDir: t.config.dataDir, envValue: t.config.masterKey });
  return createIdentityService({
    repo: createFederationRepo(t.database.db),
    masterKey: () => ({ key }),
    settings: { get: () => Promise.reject(new Error("unused")) },
    publicUrl: undefined,
  }).identity();
}

/** An identity no console knows. */
export function strangerIdentity(): Identity {
  const g = generateIdentity();
  return { nodeId: g.nodeId, publicKey: g.publicKey, privateKey: privateKeyFromDer(g.privateKeyDer) };
}

/** Headers of a signed request, with every part overridable to forge one. */
export function signedHeaders(
  signer: Identity,
  o: {
    to: string;
    method: string;
    path: string;
    body?: string;
    from?: string;
    timestamp?: number;
    nonce?: string;
  },
): Record<string, string> {
  const timestamp = o.timestamp ?? Math.floor(Date.now() / 1000);
  const nonce = o.nonce ?? b64url(randomBytes(16));
  const from = o.from ?? signer.nodeId;
  const signature = signEd25519(
    signer.privateKey,
    canonicalString({ method: o.method, path: o.path, from, to: o.to, timestamp, nonce, body: o.body ?? "" }),
  );
  return {
    [HEADERS.from]: from,
    [HEADERS.to]: o.to,
    [HEADERS.timestamp]: String(timestamp),
    [HEADERS.nonce]: nonce,
    [HEADERS.signature]: signature,
    ...(o.body ? { "content-type": "application/json" } : {}),
  };
}

/** An invitation signed by `signer` with the claims given (to forge expired or odd ones). */
export function forgeInvitation(signer: Identity, claims: Record<string, unknown>): string {
  return signJws(
    {
      iss: signer.nodeId,
      pub: signer.publicKey,
      nonce: b64url(randomBytes(16)),
      iat: Math.floor(Date.now() / 1000),
      exp: Math.floor(Date.now() / 1000) + 3600,
      ...claims,
    },
    signer.privateKey,
  );
}

/** Re-encodes one claim of a compact JWS, keeping the original signature. */
export function tamper(jwt: string, change: Record<string, unknown>): string {
  const [h, c, s] = jwt.split(".") as [string, string, string];
  const claims = { ...(JSON.parse(Buffer.from(c, "base64url").toString("utf8")) as object), ...change };
  return `${h}.${b64url(JSON.stringify(claims))}.${s}`;
}
