import { createPublicKey, type JsonWebKey } from "node:crypto";
import { nowIso } from "../../db/db.js";
import { AppError, ConflictError, ForbiddenError, InputError, UpstreamError, errorMessage } from "../../http/errors.js";
import type { PrometheusService } from "../metrics/prometheus.service.js";
import { PromqlScopeError, scopeSelector } from "../metrics/promql-scope.js";
import { fromB64url, nodeIdOf, rawPublicKey } from "./federation.crypto.js";
import type { IdentityService } from "./federation.identity.js";
import type { ConnectionRow, FederationRepo } from "./federation.repo.js";

/** What POST /node/register-peer takes (upstream's communication.RegisterPeerRequest). */
export interface RegisterPeerInput {
  node_id?: string | undefined;
  node_name?: string | undefined;
  node_type?: string | undefined;
  peer_endpoint: string;
  peer_public_key: string;
  analytics_enabled?: boolean | undefined;
}

/**
 * An Ed25519 public key as the raw 32 bytes in base64url, from any of the encodings a Go client may
 * send: raw base64url or base64, a PEM SubjectPublicKeyInfo, or a JWK (OKP/Ed25519) as JSON text.
 * Anything carrying private material is refused.
 */
export function ed25519PublicKey(text: string, field: string): string {
  const t = text.trim();
  if (/PRIVATE KEY/.test(t) || /"d"\s*:/.test(t)) {
    throw new InputError(`${field}: private key material is refused; send the public key`);
  }
  const raw = fromB64url(t.replace(/=+$/, "")) ?? (/^[A-Za-z0-9+/]+=*$/.test(t) ? Buffer.from(t, "base64") : undefined);
  if (raw && raw.length === 32) return raw.toString("base64url");
  try {
    const key = t.startsWith("{")
      ? createPublicKey({ key: JSON.parse(t) as JsonWebKey, format: "jwk" })
      : createPublicKey(t);
    if (key.asymmetricKeyType !== "ed25519") throw new Error(`it is a ${key.asymmetricKeyType ?? "unknown"} key`);
    return rawPublicKey(key).toString("base64url");
  } catch (err) {
    throw new InputError(
      `${field}: must be an Ed25519 public key (raw 32 bytes in base64url, PEM or JWK): ${errorMessage(err)}`,
    );
  }
}

/**
 * Upstream's node routes over this console's federation: the JWK of the identity, registering a
 * peer by its key and address (an admin's decision, decision 52), whether a peer may read metrics,
 * and Prometheus's /federate scoped to this console's node jobs.
 */
export function createUpstreamNodeService(deps: {
  repo: Pick<FederationRepo, "upsertConnection" | "connection">;
  identity: Pick<IdentityService, "identity">;
  metrics: Pick<PrometheusService, "status" | "federatedLabelValues">;
  fetch?: typeof fetch;
}) {
  const doFetch = deps.fetch ?? fetch;

  /** The sender's connection, refused unless it is granted metrics federation. */
  async function granted(sender: string): Promise<ConnectionRow> {
    const row = await deps.repo.connection(sender);
    if (row?.metrics_federation !== 1) {
      throw new ForbiddenError(`this console does not grant metrics federation to ${sender}`, {
        reason: "metrics_federation_not_granted",
      });
    }
    return row;
  }

  /** The running Prometheus's port; 400 (upstream's status) when none runs. */
  async function prometheusPort(): Promise<number> {
    const s = await deps.metrics.status();
    if (s.status !== "running" || typeof s.port !== "number") {
      throw new InputError(
        s.status === "not_deployed"
          ? "no Prometheus instance is deployed on this console (POST /metrics/deploy there)"
          : `this console's Prometheus is ${s.status}, not running (POST /metrics/start there)`,
      );
    }
    return s.port;
  }

  return {
    /** RFC 7517/8037 JWK of this console's Ed25519 public key; `kid` is the node id. */
    async jwk() {
      const me = await deps.identity.identity();
      return {
        kty: "OKP" as const,
        crv: "Ed25519" as const,
        x: me.publicKey,
        kid: me.nodeId,
        use: "sig" as const,
        alg: "EdDSA" as const,
      };
    },

    /**
     * Registers (or re-registers) a console by its public key and endpoint, without an invitation.
     * The node id is derived from the key; a given node_id must match it.
     */
    async registerPeer(body: RegisterPeerInput): Promise<Record<string, string>> {
      const key = ed25519PublicKey(body.peer_public_key, "body.peer_public_key");
      const nodeId = nodeIdOf(Buffer.from(key, "base64url"));
      if (body.node_id && body.node_id !== nodeId) {
        throw new InputError(
          `body.node_id: ${body.node_id.slice(0, 64)} is not the node id of peer_public_key (${nodeId})`,
        );
      }
      let url: URL;
      try {
        url = new URL(body.peer_endpoint);
      } catch {
        throw new InputError("body.peer_endpoint: must be an http(s) URL");
      }
      if (url.protocol !== "http:" && url.protocol !== "https:")
        throw new InputError("body.peer_endpoint: must be an http(s) URL");
      if (url.username || url.password || url.search || url.hash)
        throw new InputError("body.peer_endpoint: must be a base URL without credentials, query or fragment");
      const me = await deps.identity.identity();
      if (nodeId === me.nodeId) throw new ConflictError("body.peer_public_key: is this console's own key");
      const known = await deps.repo.connection(nodeId);
      const row = await deps.repo.upsertConnection({
        node_id: nodeId,
        endpoint: body.peer_endpoint.replace(/\/+$/, ""),
        public_key: key,
        now: nowIso(),
      });
      return {
        message: known ? "peer registered again" : "peer registered",
        node_id: row.node_id,
        peer_id: String(row.id),
        status: row.status,
      };
    },

    /** Whether the sender may read this console's metrics now: granted, and a running Prometheus. */
    async metricsEnabled(sender: string): Promise<{ metrics_enabled: boolean }> {
      const row = await deps.repo.connection(sender);
      if (row?.metrics_federation !== 1) return { metrics_enabled: false };
      const s = await deps.metrics.status();
      return { metrics_enabled: s.status === "running" };
    },

    /**
     * Prometheus's /federate for a granted console: every selector is confined to this console's
     * node jobs (those with series), as the federated PromQL queries are.
     */
    async forwardMetrics(sender: string, match: string[]): Promise<string> {
      await granted(sender);
      if (match.length === 0) throw new InputError("match[]: at least one series selector is required");
      const port = await prometheusPort();
      let jobs: string[];
      try {
        const res = await deps.metrics.federatedLabelValues("job", ['{job=~".+"}']);
        jobs = Array.isArray(res.data) ? res.data.filter((j): j is string => typeof j === "string") : [];
      } catch (err) {
        if (err instanceof AppError && err.status === 404) jobs = [];
        else throw err;
      }
      if (jobs.length === 0) return "";
      const params = new URLSearchParams();
      for (const [i, m] of match.entries()) {
        try {
          params.append("match[]", await scopeSelector(m, "job", jobs));
        } catch (err) {
          if (err instanceof PromqlScopeError) throw new InputError(`match[][${i}]: ${err.message}`);
          throw err;
        }
      }
      let res: Response;
      try {
        res = await doFetch(`http://127.0.0.1:${port}/federate?${params.toString()}`, {
          signal: AbortSignal.timeout(30_000),
        });
      } catch (err) {
        throw new UpstreamError(`Prometheus did not answer: ${errorMessage(err)}`);
      }
      const text = await res.text();
      if (res.status === 400) throw new InputError(`match[]: ${text.trim().slice(0, 500)}`);
      if (!res.ok) throw new UpstreamError(`Prometheus /federate answered HTTP ${res.status}`);
      return text;
    },
  };
}

export type UpstreamNodeService = ReturnType<typeof createUpstreamNodeService>;
