import type { ConnectionTestRequest } from "@/data/troubleshooting/troubleshooting-api";
import { splitHostPort } from "@/pages/troubleshooting/presets";

/** Quotes a value for a POSIX shell (single quotes; an inner ' becomes '\''). */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The request body as sent: empty optional fields left out. */
function cleanBody(req: ConnectionTestRequest): ConnectionTestRequest {
  const body: ConnectionTestRequest = { endpoint: req.endpoint, protocol: req.protocol ?? "tcp" };
  if (req.timeout) body.timeout = req.timeout;
  if (req.server_name) body.server_name = req.server_name;
  if (req.ca_cert) body.ca_cert = req.ca_cert;
  if (req.headers && Object.keys(req.headers).length > 0) body.headers = req.headers;
  return body;
}

/**
 * The same test through this console's API (works for every protocol; add credentials, e.g.
 * `-H 'Authorization: Bearer …'`, when the tools need sign-in).
 */
export function consoleCurl(origin: string, req: ConnectionTestRequest): string {
  return [
    `curl -X POST ${shellQuote(`${origin.replace(/\/$/, "")}/api/v1/troubleshooting/test-connection`)}`,
    `-H 'Content-Type: application/json'`,
    `-d ${shellQuote(JSON.stringify(cleanBody(req)))}`,
  ].join(" \\\n  ");
}

/**
 * The same test run directly from a shell, where a standard tool does it: curl for http(s) (with the
 * headers), openssl s_client for tls, nc for tcp. gRPC has no such one-liner: undefined.
 * A CA PEM is referenced as ca.pem (the user saves it next to the command).
 */
export function directCommand(req: ConnectionTestRequest): string | undefined {
  const protocol = req.protocol ?? "tcp";
  const timeout = req.timeout ?? 10;
  if (protocol === "http" || protocol === "https") {
    const url = /^https?:\/\//i.test(req.endpoint) ? req.endpoint : `${protocol}://${req.endpoint}`;
    const parts = [`curl -sS -i --max-time ${timeout}`];
    for (const [k, v] of Object.entries(req.headers ?? {})) parts.push(`-H ${shellQuote(`${k}: ${v}`)}`);
    if (protocol === "https" && req.ca_cert) parts.push("--cacert ca.pem");
    parts.push(shellQuote(url));
    return parts.join(" ");
  }
  const hp = splitHostPort(req.endpoint);
  if (!hp) return undefined;
  if (protocol === "tls") {
    const name = req.server_name || hp.host.replace(/^\[|\]$/g, "");
    const ca = req.ca_cert ? " -CAfile ca.pem" : "";
    return `openssl s_client -connect ${shellQuote(`${hp.host}:${hp.port}`)} -servername ${shellQuote(name)}${ca} </dev/null`;
  }
  if (protocol === "tcp") return `nc -vz -w ${timeout} ${shellQuote(hp.host.replace(/^\[|\]$/g, ""))} ${hp.port}`;
  return undefined;
}

/**
 * Copies text: the Clipboard API where the page may use it (a secure context), else a hidden
 * textarea and execCommand (plain-http consoles, where navigator.clipboard is absent).
 */
export async function copyText(text: string): Promise<void> {
  if (typeof navigator !== "undefined" && navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const ta = document.createElement("textarea");
  ta.value = text;
  ta.setAttribute("readonly", "");
  ta.style.position = "fixed";
  ta.style.opacity = "0";
  document.body.appendChild(ta);
  ta.select();
  const ok = document.execCommand("copy");
  ta.remove();
  if (!ok) throw new Error("the browser refused to copy");
}
