import type { FastifyRequest } from "fastify";
import { assertHostCommandAllowed } from "../../http/host-command.js";

/**
 * Which extra environment variables a non-admin may give a node process.
 *
 * Fabric and Besu nodes run as the console's OS user, outside any sandbox: they read their own keys
 * from the data dir. An environment variable can make such a process load code (`LD_PRELOAD`,
 * `JAVA_TOOL_OPTIONS`, Fabric's external builders), or read and write files elsewhere on the host
 * (`CORE_PEER_MSPCONFIGPATH` of another organization, a ledger location). Choosing those is
 * choosing a host command, which only an admin may do (docs/permissions.md, "Host commands").
 * Ordinary tuning (`FABRIC_LOGGING_SPEC`, `CORE_PEER_GOSSIP_*`, `BESU_RPC_HTTP_API`…) stays open.
 */
const REFUSED_NAMES: readonly RegExp[] = [
  // The dynamic loader and libc: load a library of the caller's choosing.
  /^LD_/,
  /^(GCONV_PATH|LOCPATH|NLSPATH|HOSTALIASES|RESOLV_HOST_CONF|GLIBC_TUNABLES|MALLOC_.*)$/,
  // What a shell or a launcher script reads.
  /^(PATH|HOME|SHELL|BASH_ENV|ENV|IFS|TMPDIR|CDPATH|PS4)$/,
  // Runtimes that load agents or code from options (the Besu launcher is a JVM script).
  /^(NODE_OPTIONS|NODE_PATH|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|JAVA_OPTS|BESU_OPTS|JAVA_HOME|CLASSPATH)$/,
  /^BESU_.*PLUGIN/,
  // Fabric: external builders and chaincode launchers run programs; config paths point at files.
  /^CORE_(CHAINCODE|VM)_/,
  /^FABRIC_CFG_PATH$/,
];

/** Values that name a place on the host: an absolute path, a home-relative one, or a way up. */
const PATH_LIKE = /(^|[=:,;\s])(\/|~)|(^|[\\/])\.\.([\\/]|$)/;

/** Why a variable is refused, or undefined when a manager may set it. */
export function refusedEnvReason(name: string, value: string): string | undefined {
  if (REFUSED_NAMES.some((re) => re.test(name)))
    return "it can make the node process load code of the caller's choosing";
  if (PATH_LIKE.test(value)) return "its value names a path on the host";
  return undefined;
}

/**
 * Refuses (403 HOST_COMMAND, naming the field, audited) variables only an admin may set. `current`
 * is the node's present env on an update: a client that sends back what it read (an admin's
 * settings) is not refused for the values it did not change.
 * @throws ForbiddenError naming `<field>.<NAME>`
 */
export function assertNodeEnvAllowed(
  req: FastifyRequest,
  field: string,
  env: Record<string, string> | null | undefined,
  current: Record<string, string> = {},
): void {
  if (!env) return;
  for (const [name, value] of Object.entries(env)) {
    if (current[name] === value) continue;
    const why = refusedEnvReason(name, value);
    if (why) assertHostCommandAllowed(req, `${field}.${name}`, why);
  }
}
