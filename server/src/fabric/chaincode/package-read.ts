import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { ConfigtxInputError } from "../configtx/errors.js";
import { validateLabel, type CcaasConnection } from "./package.js";

/** What a chaincode install package says about itself. */
export interface PackageInfo {
  /** metadata.json `type`: ccaas, golang, node, java, external, ... */
  type: string;
  label: string;
  /** `label:sha256(package)`, the id the peer gives it. */
  packageId: string;
  /** connection.json of a ccaas package (where the peer dials the chaincode server). */
  connection?: CcaasConnection;
}

const MAX_UNPACKED = 64 * 1024 * 1024;

/** The regular files of a ustar archive by name (GNU long names are not needed for packages). */
function untar(buf: Buffer, field: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let off = 0;
  while (off + 512 <= buf.length) {
    const h = buf.subarray(off, off + 512);
    if (h.every((b) => b === 0)) break;
    const name = h.subarray(0, 100).toString("utf8").replace(/\0.*$/s, "");
    const size = parseInt(h.subarray(124, 136).toString("ascii").replace(/\0.*$/s, "").trim() || "0", 8);
    const type = String.fromCharCode(h[156] ?? 0);
    if (!Number.isFinite(size) || size < 0 || off + 512 + size > buf.length)
      throw new ConfigtxInputError(field, "is not a chaincode package: a tar entry runs past the end");
    if (type === "0" || type === "\0") files.set(name.replace(/^\.\//, ""), buf.subarray(off + 512, off + 512 + size));
    off += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

function gunzip(b: Buffer, field: string, what: string): Buffer {
  try {
    return gunzipSync(b, { maxOutputLength: MAX_UNPACKED });
  } catch {
    throw new ConfigtxInputError(field, `is not a chaincode package: ${what} is not gzip`);
  }
}

/**
 * Reads a chaincode install package (what `peer lifecycle chaincode package` writes): a gzip tar
 * of `metadata.json` and `code.tar.gz`. The package id is computed as the peer computes it.
 * @throws ConfigtxInputError(field) when the bytes are not such a package
 */
export function readChaincodePackage(bytes: Buffer, field = "package_bytes"): PackageInfo {
  const top = untar(gunzip(bytes, field, "the package"), field);
  const meta = top.get("metadata.json");
  if (!meta) throw new ConfigtxInputError(field, "is not a chaincode package: it has no metadata.json");
  let parsed: { type?: unknown; label?: unknown };
  try {
    parsed = JSON.parse(meta.toString("utf8")) as { type?: unknown; label?: unknown };
  } catch {
    throw new ConfigtxInputError(field, "is not a chaincode package: metadata.json is not JSON");
  }
  const type = typeof parsed.type === "string" ? parsed.type.toLowerCase() : "";
  const label = typeof parsed.label === "string" ? parsed.label : "";
  if (!type) throw new ConfigtxInputError(field, "is not a chaincode package: metadata.json has no type");
  try {
    validateLabel(label);
  } catch {
    throw new ConfigtxInputError(field, `is not a chaincode package: metadata.json's label "${label}" is invalid`);
  }
  const info: PackageInfo = {
    type,
    label,
    packageId: `${label}:${createHash("sha256").update(bytes).digest("hex")}`,
  };
  if (type === "ccaas") {
    const code = top.get("code.tar.gz");
    const conn = code ? untar(gunzip(code, field, "code.tar.gz"), field).get("connection.json") : undefined;
    if (!conn) throw new ConfigtxInputError(field, "is a ccaas package without code.tar.gz/connection.json");
    try {
      info.connection = JSON.parse(conn.toString("utf8")) as CcaasConnection;
    } catch {
      throw new ConfigtxInputError(field, "is a ccaas package whose connection.json is not JSON");
    }
    if (typeof info.connection.address !== "string" || !info.connection.address)
      throw new ConfigtxInputError(field, "is a ccaas package whose connection.json has no address");
  }
  return info;
}
