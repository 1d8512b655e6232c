import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { ForbiddenError, InputError } from "../../http/errors.js";
import { pingAddress } from "./ping.js";
import { checkTcpPort } from "./port-check.js";
import { checkedPublicAddress, NotPublicError } from "./public-address.js";
import type { Caller, Guard } from "./troubleshooting.guard.js";
import { ANON_TIMEOUT_S, pingBody, pingResponse, portCheckBody, portCheckResponse } from "./troubleshooting.schema.js";

const tags = ["Troubleshooting"];

/** RFC 1123 host names: letters, digits and inner hyphens per label, at most 253 characters. */
const HOST_NAME =
  /^(?=.{1,253}\.?$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

/** The host as typed, checked strictly: an IP literal (IPv6 may be bracketed, no zone) or a host name. */
export function validHost(raw: string | undefined): string {
  const host = (raw ?? "").trim().replace(/^\[(.*)\]$/, "$1");
  if (host === "") throw new InputError("body.host: required", { field: "body.host" });
  if (isIP(host) && !host.includes("%")) return host;
  if (!HOST_NAME.test(host)) {
    throw new InputError("body.host: must be a host name or an IP address (no scheme, port, path or spaces)", {
      field: "body.host",
    });
  }
  return host;
}

type Target = { address: string; family: 4 | 6 } | { unresolved: true };

/**
 * Resolves the host once. An admin may reach any address; everyone else (anonymous, manager,
 * viewer) only public ones, every address of the name checked (decision 52). The address returned
 * is the one then contacted, so a second lookup can't answer differently.
 */
async function resolveTarget(host: string, caller: Caller): Promise<Target> {
  try {
    if (!caller.admin) return await checkedPublicAddress(host);
    const literal = isIP(host);
    if (literal) return { address: host, family: literal === 6 ? 6 : 4 };
    const first = (await lookup(host, { all: true, verbatim: true }))[0];
    return first ? { address: first.address, family: first.family === 6 ? 6 : 4 } : { unresolved: true };
  } catch (err) {
    if (err instanceof NotPublicError) {
      throw new ForbiddenError(
        `body.host: ${host} is not a public address (or resolves to one that is not); only an admin may reach ` +
          "loopback, link-local, private and unspecified addresses",
        { field: "body.host" },
      );
    }
    return { unresolved: true };
  }
}

/**
 * Ping and check-port (upstream's POST /troubleshooting/ping and /check-port). Public like the other
 * tools and behind the same guard; what they reach is narrower than test-connection's for
 * signed-in non-admins (public addresses only), because they exist to probe hosts, not services.
 */
export function registerProbeRoutes(app: FastifyInstance, deps: { guard: Guard }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const audit = (req: FastifyRequest, host: string, caller: Caller): void => {
    req.auditInfo.resource = `host:${host.slice(0, 200)}`;
    req.auditInfo.details = { anonymous: !caller.signedIn };
  };

  r.post(
    "/troubleshooting/ping",
    {
      config: { access: "public", audit: "troubleshooting.ping" },
      schema: {
        operationId: "pingHost",
        tags,
        summary: "ICMP echo requests to a host: replies, loss and round-trip times",
        description:
          "Runs the system ping (iputils) on the address the host resolves to, once. Anonymous callers, managers " +
          "and viewers may only ping public addresses (403 naming body.host); admins any.",
        body: pingBody,
        response: { 200: pingResponse },
      },
    },
    async (req) => {
      const caller = await deps.guard(req);
      const host = validHost(req.body.host);
      audit(req, host, caller);
      const target = await resolveTarget(host, caller);
      const none = { packets_sent: 0, packets_recv: 0, packet_loss: 100, min_rtt_ms: 0, avg_rtt_ms: 0, max_rtt_ms: 0 };
      if ("unresolved" in target) {
        return { host, resolved_ip: "", ...none, reachable: false, error: `${host} did not resolve to an address` };
      }
      const outcome = await pingAddress({
        ...target,
        count: req.body.count || 4,
        timeoutS: req.body.timeout || 5,
      });
      return { host, resolved_ip: target.address, ...outcome };
    },
  );

  r.post(
    "/troubleshooting/check-port",
    {
      config: { access: "public", audit: "troubleshooting.check_port" },
      schema: {
        operationId: "checkPort",
        tags,
        summary: "Whether a TCP port of a host accepts connections",
        description:
          "Connects once to the address the host resolves to and closes at once (nothing is sent or read). " +
          "Anonymous callers, managers and viewers may only check public addresses (403 naming body.host); admins any.",
        body: portCheckBody,
        response: { 200: portCheckResponse },
      },
    },
    async (req) => {
      const caller = await deps.guard(req);
      const host = validHost(req.body.host);
      const port = req.body.port ?? 0;
      if (port < 1) throw new InputError("body.port: required, 1-65535", { field: "body.port" });
      audit(req, host, caller);
      req.auditInfo.details = { ...(req.auditInfo.details as object), port };
      const target = await resolveTarget(host, caller);
      if ("unresolved" in target) {
        return { host, port, open: false, reachable: false, error: `${host} did not resolve to an address` };
      }
      const timeoutS = Math.min(req.body.timeout || 5, caller.signedIn ? Number.POSITIVE_INFINITY : ANON_TIMEOUT_S);
      return { host, port, ...(await checkTcpPort({ address: target.address, port, timeoutS })) };
    },
  );
}
