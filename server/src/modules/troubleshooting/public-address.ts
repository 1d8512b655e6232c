import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";

/**
 * Addresses an anonymous caller may not make the console connect to: this host and the networks
 * behind it. Without this, the public test-connection tool tells anyone which loopback and
 * internal ports are open (a port scanner run from inside).
 */
const NOT_PUBLIC: [string, number, "ipv4" | "ipv6", string][] = [
  ["0.0.0.0", 8, "ipv4", "unspecified"],
  ["127.0.0.0", 8, "ipv4", "loopback"],
  ["10.0.0.0", 8, "ipv4", "private"],
  ["172.16.0.0", 12, "ipv4", "private"],
  ["192.168.0.0", 16, "ipv4", "private"],
  ["100.64.0.0", 10, "ipv4", "private (shared address space)"],
  ["169.254.0.0", 16, "ipv4", "link-local"],
  // ::/96 holds the unspecified address, loopback and the old IPv4-compatible form.
  ["::", 96, "ipv6", "unspecified or loopback"],
  ["fe80::", 10, "ipv6", "link-local"],
  ["fec0::", 10, "ipv6", "site-local"],
  ["fc00::", 7, "ipv6", "private (unique local)"],
];

const lists = NOT_PUBLIC.map(([net, prefix, type, kind]) => {
  const list = new BlockList();
  list.addSubnet(net, prefix, type);
  return { list, type, kind };
});

/**
 * The IPv4 address inside an IPv4-mapped IPv6 one, in either spelling (::ffff:127.0.0.1 or
 * ::ffff:7f00:1, which is how URLs write it): connecting to it reaches that IPv4 address.
 */
function mappedIpv4(address: string): string | undefined {
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const m = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(canonical);
  if (!m) return undefined;
  const [hi, lo] = [parseInt(m[1]!, 16), parseInt(m[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
}

/** The kind of a non-public address ("loopback", "private", ...), or undefined for a public one. */
export function nonPublicKind(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return "not an address";
  const mapped = family === 6 ? mappedIpv4(address) : undefined;
  const [addr, type] = mapped ? [mapped, "ipv4" as const] : [address, family === 4 ? "ipv4" : "ipv6"];
  return lists.find((l) => l.type === type && l.list.check(addr, type))?.kind;
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/** A host that is or resolves to a non-public address (the 403 of an anonymous test). */
export class NotPublicError extends Error {}

/**
 * Resolves `host` once and checks every address it has: one non-public address refuses the host
 * (a name may list a public and a private address). Returns the checked address to connect to, so
 * a second lookup at connect time can't answer differently (DNS rebinding). A host that does not
 * resolve rejects with the lookup's error.
 */
export async function checkedPublicAddress(
  host: string,
  resolve: Resolver = systemResolver,
): Promise<{ address: string; family: 4 | 6 }> {
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal }] : await resolve(host);
  if (addresses.length === 0) throw Object.assign(new Error(`${host} has no address`), { code: "ENOTFOUND" });
  for (const a of addresses) {
    const kind = nonPublicKind(a.address);
    if (kind) {
      throw new NotPublicError(
        `${host} ${literal ? "is" : "resolves to"} a ${kind} address; anonymous callers may only test public ` +
          "addresses (loopback, link-local, private and unspecified ones need a signed-in user)",
      );
    }
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A lookup for net/tls/http connections that always answers the address already checked. */
export function pinnedLookup(pinned: { address: string; family: 4 | 6 }): LookupFunction {
  return (_hostname, options, callback) => {
    // Node asks for every address when it races families (autoSelectFamily); answer in either form.
    if (options.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
}
