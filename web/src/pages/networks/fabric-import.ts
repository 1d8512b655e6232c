/** Form rules and conversions for importing and joining existing Fabric channels. */

export const ORDERER_URL_RULE = "host:port or grpcs://host:port";

/** Mirrors the server: TLS only, a host and a port 1-65535. */
export function ordererUrlError(value: string): string | undefined {
  const m = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\[[0-9a-f:.]+\]|[^\s:/[\]]+):(\d{1,5})\/?$/i.exec(value.trim());
  if (!m) return `Expected ${ORDERER_URL_RULE}`;
  const scheme = m[1]?.toLowerCase();
  if (scheme && scheme !== "grpcs" && scheme !== "https") return `${scheme}:// is not supported; orderers use TLS`;
  const port = Number(m[3]);
  if (port < 1 || port > 65535) return "The port must be 1-65535";
  return undefined;
}

export function pemCertificateError(value: string): string | undefined {
  if (!value.trim()) return "Paste or choose the orderer's TLS CA certificate";
  if (!/-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/.test(value)) {
    return "Expected a PEM certificate (-----BEGIN CERTIFICATE-----)";
  }
  return undefined;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** What the import sends for a block: base64 text files as they are, binary blocks encoded. */
export function blockFileToBase64(bytes: Uint8Array): string {
  const text = new TextDecoder("latin1").decode(bytes).replace(/\s+/g, "");
  if (text.length > 0 && text.length % 4 === 0 && BASE64.test(text)) return text;
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

export function base64BlockError(value: string): string | undefined {
  const text = value.replace(/\s+/g, "");
  if (!text) return "Choose the block file, or paste its base64";
  if (!BASE64.test(text) || text.length % 4 !== 0) return "This is not base64 (choose the .block file instead)";
  return undefined;
}

/** Whether a failed join only says the node is already in the channel. */
export function isAlreadyJoined(message: string): boolean {
  return /already joined/i.test(message);
}
