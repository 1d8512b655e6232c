import { X509Certificate, createPrivateKey, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";

/** A "host:port" pair; IPv6 hosts are written in brackets ("[::1]:7051") and kept without them. */
export interface HostPort {
  host: string;
  port: number;
}

/** Everything the gateway needs, read and checked before it listens. */
export interface GatewayConfig {
  listen: HostPort;
  peer: HostPort;
  peerTlsCaPem: string;
  peerHostOverride?: string;
  mspId: string;
  certPem: string;
  key: KeyObject;
  channel: string;
}

/** A flag that is missing, malformed or names an unreadable file. The message names the flag. */
export class FlagError extends Error {
  override name = "FlagError";
}

const FLAGS = ["listen", "peer", "peer-tls-ca", "peer-host-override", "msp-id", "cert", "key", "channel"] as const;
type Flag = (typeof FLAGS)[number];
const REQUIRED: readonly Flag[] = ["listen", "peer", "peer-tls-ca", "msp-id", "cert", "key", "channel"];

export const USAGE =
  "usage: fabric-rest-gateway --listen=HOST:PORT --peer=HOST:PORT --peer-tls-ca=PATH [--peer-host-override=NAME] " +
  "--msp-id=ID --cert=PATH --key=PATH --channel=NAME";

/** Splits `--flag=value` and `--flag value` forms into a map; every problem is collected. */
export function splitFlags(argv: readonly string[]): { values: Map<Flag, string>; problems: string[] } {
  const values = new Map<Flag, string>();
  const problems: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const m = /^--([a-z-]+)(?:=([\s\S]*))?$/.exec(arg);
    if (!m) {
      problems.push(`${arg}: unexpected argument`);
      continue;
    }
    const name = m[1] as Flag;
    if (!FLAGS.includes(name)) {
      problems.push(`--${m[1]}: unknown flag`);
      continue;
    }
    let value = m[2];
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith("--")) {
        problems.push(`--${name}: needs a value`);
        continue;
      }
      value = next;
      i++;
    }
    if (values.has(name)) problems.push(`--${name}: given more than once`);
    else values.set(name, value);
  }
  return { values, problems };
}

/** Parses "host:port" or "[v6]:port"; `allowZero` lets --listen ask for any free port. */
export function parseHostPort(text: string, allowZero: boolean): HostPort | string {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]/]+)):(\d{1,5})$/.exec(text);
  if (!m) return "must be HOST:PORT";
  const port = Number(m[3]);
  if (port > 65535 || (port === 0 && !allowZero)) return `port ${m[3]} is out of range`;
  return { host: m[1] ?? m[2] ?? "", port };
}

/** "host:port" as it is dialled or shown, with brackets around IPv6 hosts. */
export function formatHostPort(hp: HostPort): string {
  return hp.host.includes(":") ? `[${hp.host}]:${hp.port}` : `${hp.host}:${hp.port}`;
}

/** Reads a file for a flag; the error names the flag and the path, never the contents. */
function readFlagFile(flag: Flag, path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "unreadable";
    throw new FlagError(`--${flag}: cannot read ${path} (${code})`);
  }
}

function parseCertificate(flag: Flag, path: string): { pem: string; cert: X509Certificate } {
  const pem = readFlagFile(flag, path);
  try {
    return { pem, cert: new X509Certificate(pem) };
  } catch {
    throw new FlagError(`--${flag}: ${path} is not a PEM certificate`);
  }
}

/**
 * Reads and checks the command line: the flags, then the files they name. Throws FlagError with
 * every flag problem on one line; the key's text never appears in a message.
 */
export function loadConfig(argv: readonly string[]): GatewayConfig {
  const { values, problems } = splitFlags(argv);
  for (const f of REQUIRED) {
    if (!values.has(f) && !problems.some((p) => p.startsWith(`--${f}:`))) problems.push(`--${f}: required`);
  }
  const get = (f: Flag): string => values.get(f) ?? "";
  const listen = parseHostPort(get("listen"), true);
  const peer = parseHostPort(get("peer"), false);
  if (values.has("listen") && typeof listen === "string") problems.push(`--listen: ${listen}`);
  if (values.has("peer") && typeof peer === "string") problems.push(`--peer: ${peer}`);
  for (const f of ["msp-id", "channel", "peer-host-override"] as const) {
    if (values.has(f) && !/^[A-Za-z0-9][A-Za-z0-9._-]{0,249}$/.test(get(f))) {
      problems.push(`--${f}: must be letters, digits, '.', '_' or '-'`);
    }
  }
  // A malformed --listen or --peer has already added its problem above.
  if (problems.length || typeof listen === "string" || typeof peer === "string") {
    throw new FlagError(problems.join("; "));
  }

  const tlsCa = parseCertificate("peer-tls-ca", get("peer-tls-ca"));
  const cert = parseCertificate("cert", get("cert"));
  const keyPem = readFlagFile("key", get("key"));
  let key: KeyObject;
  try {
    key = createPrivateKey(keyPem);
  } catch {
    throw new FlagError(`--key: ${get("key")} is not a PEM private key`);
  }
  // The signer hashes with SHA-256, which is what Fabric MSPs expect of P-256 identities.
  if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1") {
    throw new FlagError(`--key: ${get("key")} must be an EC P-256 private key`);
  }
  if (!cert.cert.checkPrivateKey(key)) throw new FlagError(`--key: ${get("key")} does not match --cert`);

  return {
    listen,
    peer,
    peerTlsCaPem: tlsCa.pem,
    ...(values.has("peer-host-override") ? { peerHostOverride: get("peer-host-override") } : {}),
    mspId: get("msp-id"),
    certPem: cert.pem,
    key,
    channel: get("channel"),
  };
}
