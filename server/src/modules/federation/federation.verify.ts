import { ForbiddenError, UnauthorizedError } from "../../http/errors.js";
import {
  NODE_ID_PATTERN,
  canonicalString,
  fromB64url,
  nodeIdOf,
  publicKeyFromB64url,
  verifyEd25519,
} from "./federation.crypto.js";
import type { IdentityService } from "./federation.identity.js";
import type { FederationRepo } from "./federation.repo.js";
import { HEADERS } from "./federation.wire.js";

/** A signed request's timestamp may differ from our clock by this much either way. */
export const REPLAY_WINDOW_MS = 5 * 60_000;

/** An inbound request as the verifier needs it. */
export interface InboundRequest {
  method: string;
  /** The federation route (below /api/v1). */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  /** The handshake only: the public key inside the signed body stands in for a known connection. */
  handshakeKey?: string;
}

/** Verifies inbound console-to-console requests (docs/federation.md, "Transport"). */
export function createInboundVerifier(deps: {
  repo: Pick<FederationRepo, "connection" | "recordNonce">;
  identity: Pick<IdentityService, "identity">;
  now?: () => number;
}) {
  const { repo, identity } = deps;
  const now = deps.now ?? Date.now;
  const iso = (ms = now()): string => new Date(ms).toISOString();
  return {
    /**
     * The checks every inbound message passes before its handler runs, in this order: headers
     * present, addressed to us, timestamp within the window, a known sender (or, for
     * the handshake, the key in the body matching the sender's node id), a valid signature, a sender
     * not revoked, and a nonce not seen from this sender. Refusals are 401 (403 for a revoked sender
     * whose signature is valid) and change nothing; only an accepted message's nonce is stored. No
     * refusal names this console's node id or tells an unknown sender from a known one.
     */
    async verify(r: InboundRequest): Promise<string> {
      const h = (name: string): string => {
        const v = r.headers[name];
        return typeof v === "string" ? v : "";
      };
      const from = h(HEADERS.from);
      const to = h(HEADERS.to);
      const ts = h(HEADERS.timestamp);
      const nonce = h(HEADERS.nonce);
      const signature = h(HEADERS.signature);
      if (!from || !to || !ts || !nonce || !signature) {
        throw new UnauthorizedError(
          `federation request refused: it must carry the ${Object.values(HEADERS).join(", ")} headers`,
        );
      }
      if (!NODE_ID_PATTERN.test(from))
        throw new UnauthorizedError("federation request refused: malformed sender node id");
      if (!/^[A-Za-z0-9_-]{16,64}$/.test(nonce))
        throw new UnauthorizedError("federation request refused: malformed nonce");
      const me = await identity.identity();
      // Names no node id: whoever sends an unsigned guess must not learn this console's id from the answer.
      if (to !== me.nodeId)
        throw new UnauthorizedError("federation request refused: it is not addressed to this console");
      const timestamp = /^\d{1,12}$/.test(ts) ? Number(ts) : NaN;
      if (!Number.isFinite(timestamp) || Math.abs(timestamp * 1000 - now()) > REPLAY_WINDOW_MS) {
        throw new UnauthorizedError(
          `federation request refused: its timestamp is more than ${REPLAY_WINDOW_MS / 60_000} minutes from this console's clock`,
        );
      }
      let publicKey: string | undefined;
      let revoked = false;
      if (r.handshakeKey !== undefined) {
        const raw = fromB64url(r.handshakeKey);
        if (!raw || raw.length !== 32 || nodeIdOf(raw) !== from) {
          throw new UnauthorizedError("federation request refused: the handshake's key is not the sender's");
        }
        // A revoked sender may hand in a new invitation: the inviter's operator issued it.
        publicKey = r.handshakeKey;
      } else {
        const known = await repo.connection(from);
        publicKey = known?.public_key;
        revoked = known?.status === "revoked";
      }
      const key = publicKey === undefined ? undefined : publicKeyFromB64url(publicKey);
      const signed = canonicalString({
        method: r.method,
        path: r.path,
        from,
        to,
        timestamp,
        nonce,
        body: r.rawBody,
      });
      // An unknown sender and a bad signature get the same answer, and only the key's owner learns that
      // its connection is revoked: a forged request can't tell which node ids this console knows.
      if (!key || !verifyEd25519(key, signed, signature)) {
        throw new UnauthorizedError("federation request refused: unknown sender, or the signature is not valid");
      }
      if (revoked) {
        throw new ForbiddenError("federation request refused: the connection with the sender is revoked", {
          reason: "revoked",
        });
      }
      if (!(await repo.recordNonce(from, nonce, iso()))) {
        throw new UnauthorizedError("federation request refused: this nonce was already used (a replayed message)");
      }
      return from;
    },
  };
}

export type InboundVerifier = ReturnType<typeof createInboundVerifier>;
