import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { ConfigtxInputError } from "../configtx/errors.js";

/**
 * `connection.json` of a chaincode-as-a-service package: where the peer dials the chaincode server
 * (field names as the peer's external builder reads them).
 */
export interface CcaasConnection {
  address: string;
  dial_timeout?: string;
  tls_required: boolean;
  client_auth_required?: boolean;
  client_key?: string;
  client_cert?: string;
  root_cert?: string;
}

/** Package labels as the peer accepts them. @throws ConfigtxInputError("label") */
export function validateLabel(label: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.+-]*$/.test(label)) throw new ConfigtxInputError("label", `invalid label "${label}"`);
}

/**
 * A ustar archive of regular files only (the peer rejects directory entries at the top level),
 * with fixed mode 0644, owner 0 and mtime 0 so the same input always gives the same bytes.
 */
export function ustar(files: [string, Buffer][]): Buffer {
  const blocks: Buffer[] = [];
  for (const [name, data] of files) {
    const h = Buffer.alloc(512);
    h.write(name, 0, 100, "utf8");
    h.write("0000644\0", 100);
    h.write("0000000\0", 108);
    h.write("0000000\0", 116);
    h.write(`${data.length.toString(8).padStart(11, "0")}\0`, 124);
    h.write("00000000000\0", 136);
    h.write("        ", 148);
    h.write("0", 156);
    h.write("ustar\0", 257);
    h.write("00", 263);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
    blocks.push(h, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/**
 * A ccaas install package: a gzip tar of `metadata.json` ({type: "ccaas", label}) and
 * `code.tar.gz` (connection.json plus optional CouchDB index files). Deterministic, so one
 * definition always installs as the same package id (`label:sha256(package)`).
 */
export function buildCcaasPackage(p: {
  label: string;
  connection: CcaasConnection;
  indexes?: Record<string, string>;
}): {
  bytes: Buffer;
  packageId: string;
  label: string;
} {
  validateLabel(p.label);
  const code = gzipSync(
    ustar([
      ["connection.json", Buffer.from(JSON.stringify(p.connection))],
      ...Object.entries(p.indexes ?? {}).map(
        ([n, v]) => [`META-INF/statedb/couchdb/indexes/${n}.json`, Buffer.from(v)] as [string, Buffer],
      ),
    ]),
  );
  const bytes = gzipSync(
    ustar([
      ["metadata.json", Buffer.from(JSON.stringify({ type: "ccaas", label: p.label, path: "" }))],
      ["code.tar.gz", code],
    ]),
  );
  return { bytes, packageId: `${p.label}:${createHash("sha256").update(bytes).digest("hex")}`, label: p.label };
}
