import { networkInterfaces } from "node:os";
import { isIP } from "node:net";

/** GET /troubleshooting/public-ip: upstream answers a map of strings; `source` says where the address came from. */
export type PublicIpAnswer = Record<string, string>;

/** Non-internal interface addresses, IPv4 first (the ones other parties can usually reach). */
export function interfaceAddresses(): { name: string; address: string; family: string }[] {
  const out: { name: string; address: string; family: string }[] = [];
  for (const [name, list] of Object.entries(networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.internal) continue;
      if (a.family === "IPv6" && a.address.toLowerCase().startsWith("fe80")) continue;
      out.push({ name, address: a.address, family: a.family });
    }
  }
  return out.sort((a, b) => (a.family === b.family ? 0 : a.family === "IPv4" ? -1 : 1));
}

export class LookupError extends Error {}

/**
 * The address other parties should use: the configured external address (settings
 * `defaultNodeExposeIP`), else the configured lookup service (`publicIpLookupUrl`, asked once with
 * a deadline; failing is an error, never a hang), else this host's interfaces. No outside service
 * is assumed.
 */
export async function publicIp(opts: {
  configured: string;
  lookupUrl: string;
  timeoutMs: number;
  fetchImpl?: typeof fetch;
}): Promise<PublicIpAnswer> {
  const interfaces = interfaceAddresses();
  const all = interfaces.map((i) => `${i.name}=${i.address}`).join(", ");
  if (opts.configured) {
    return {
      ip: opts.configured,
      source: "settings",
      note: "the external address set in Settings (defaultNodeExposeIP); nodes advertise it",
      interfaces: all,
    };
  }
  if (opts.lookupUrl) {
    let text: string;
    try {
      const res = await (opts.fetchImpl ?? fetch)(opts.lookupUrl, { signal: AbortSignal.timeout(opts.timeoutMs) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      text = (await res.text()).trim().slice(0, 200);
    } catch (err) {
      const why =
        (err as Error).name === "TimeoutError" ? `no answer within ${opts.timeoutMs} ms` : (err as Error).message;
      throw new LookupError(`the public IP lookup service ${opts.lookupUrl} failed: ${why}`);
    }
    // Accept a bare address or JSON {"ip": "..."} (the common echo services answer one of these).
    let ip = text;
    if (text.startsWith("{")) {
      try {
        ip = String((JSON.parse(text) as { ip?: unknown }).ip ?? "");
      } catch {
        ip = "";
      }
    }
    if (!isIP(ip))
      throw new LookupError(`the public IP lookup service ${opts.lookupUrl} did not answer with an IP address`);
    return { ip, source: "lookup", lookup_url: opts.lookupUrl, interfaces: all };
  }
  const first = interfaces[0];
  return {
    ip: first?.address ?? "127.0.0.1",
    source: "interface",
    interface: first?.name ?? "lo",
    note: first
      ? "the first non-loopback interface; behind NAT other parties may need another address (set defaultNodeExposeIP)"
      : "no non-loopback interface: only this host can reach the console",
    interfaces: all,
  };
}
