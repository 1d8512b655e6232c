import type { KeyInfo, NodeInfo, Organization } from "@/api/client";

/** Where a certificate of the inventory belongs: a name and the console page that shows it. */
export interface CertificateOwner {
  label: string;
  href: string;
}

/** One certificate the console holds, before decoding. */
export interface CertificateSource {
  /** Stable React key: where it was found. */
  id: string;
  /** What the certificate is ("Node TLS certificate", "Signing CA", ...). */
  what: string;
  owner: CertificateOwner;
  pem: string;
}

/** What the inventory is collected from: one page of each list. */
export interface InventoryInput {
  nodes: readonly Pick<NodeInfo, "id" | "name" | "fabricPeer" | "fabricOrderer">[];
  organizations: readonly Pick<Organization, "id" | "mspId" | "signCertificate" | "tlsCertificate">[];
  keys: readonly Pick<KeyInfo, "id" | "name" | "certificate" | "signingKeyID">[];
}

/** The PEM without whitespace, so one certificate found in two places compares equal. */
const fingerprint = (pem: string): string => pem.replace(/\s+/g, "");

/**
 * Every distinct certificate of nodes, organizations and keys, each once. The same certificate is
 * stored in several places (a node's sign certificate is also its key's; a node carries its
 * organization's CA certificates), so the first place in this order names it: node certificates,
 * organization CAs, CA copies on nodes (organizations this console doesn't list), then keys. A key
 * signed by an organization's CA is shown as that organization's identity.
 */
export function collectCertificates(input: InventoryInput): CertificateSource[] {
  const seen = new Set<string>();
  const out: CertificateSource[] = [];
  const add = (s: CertificateSource): void => {
    const fp = fingerprint(s.pem);
    if (!s.pem.includes("BEGIN CERTIFICATE") || seen.has(fp)) return;
    seen.add(fp);
    out.push(s);
  };
  const nodeOwner = (n: InventoryInput["nodes"][number]): CertificateOwner => ({
    label: n.name,
    href: `/nodes/${n.id}`,
  });
  const fabric = (n: InventoryInput["nodes"][number]) => n.fabricPeer ?? n.fabricOrderer;

  for (const n of input.nodes) {
    const f = fabric(n);
    if (!f) continue;
    add({ id: `node-${n.id}-sign`, what: "Node signing certificate", owner: nodeOwner(n), pem: f.signCert });
    add({ id: `node-${n.id}-tls`, what: "Node TLS certificate", owner: nodeOwner(n), pem: f.tlsCert });
  }
  // CA certificate fingerprint -> organization, to name the identities it signed.
  const orgByCa = new Map<string, CertificateOwner>();
  for (const o of input.organizations) {
    const owner = { label: o.mspId, href: `/organizations/${o.id}` };
    orgByCa.set(fingerprint(o.signCertificate), owner);
    orgByCa.set(fingerprint(o.tlsCertificate), owner);
    add({ id: `org-${o.id}-sign`, what: "Signing CA", owner, pem: o.signCertificate });
    add({ id: `org-${o.id}-tls`, what: "TLS CA", owner, pem: o.tlsCertificate });
  }
  for (const n of input.nodes) {
    const f = fabric(n);
    if (!f) continue;
    add({ id: `node-${n.id}-signca`, what: `Signing CA of ${f.mspId}`, owner: nodeOwner(n), pem: f.signCaCert });
    add({ id: `node-${n.id}-tlsca`, what: `TLS CA of ${f.mspId}`, owner: nodeOwner(n), pem: f.tlsCaCert });
  }
  const keyCert = new Map(input.keys.map((k) => [k.id, k.certificate ? fingerprint(k.certificate) : ""]));
  for (const k of input.keys) {
    if (!k.certificate) continue;
    const issuerCert = k.signingKeyID === null ? undefined : keyCert.get(k.signingKeyID);
    const org = issuerCert ? orgByCa.get(issuerCert) : undefined;
    add({
      id: `key-${k.id}`,
      what: org ? `Identity ${k.name}` : `Key ${k.name}`,
      owner: org ?? { label: k.name, href: `/settings/keys/${k.id}` },
      pem: k.certificate,
    });
  }
  return out;
}

/** A certificate of the inventory with its validity window decoded. */
export interface InventoryEntry extends CertificateSource {
  subject: string;
  notBefore: Date;
  notAfter: Date;
}

/** Soonest expiry first; ties by what and owner so the order is stable. */
export function sortByExpiry<T extends InventoryEntry>(entries: readonly T[]): T[] {
  return [...entries].sort(
    (a, b) =>
      a.notAfter.getTime() - b.notAfter.getTime() ||
      a.owner.label.localeCompare(b.owner.label) ||
      a.what.localeCompare(b.what),
  );
}

/**
 * Position on the timeline from `now` (0 %) to `end` (100 %); expired certificates sit at 0 and
 * nothing goes past 100.
 */
export function timelinePercent(notAfter: Date, now: Date, end: Date): number {
  const span = end.getTime() - now.getTime();
  if (span <= 0) return 0;
  const p = ((notAfter.getTime() - now.getTime()) / span) * 100;
  return Math.min(100, Math.max(0, p));
}

/**
 * A lane (row) per timeline marker so that markers closer than `gap` percent don't cover each
 * other: each goes into the first lane whose last marker is far enough left, or the last lane when
 * all are taken. `percents` must be ascending (entries sorted by expiry).
 */
export function assignLanes(percents: readonly number[], gap: number, lanes: number): number[] {
  const lastInLane: number[] = [];
  return percents.map((p) => {
    let lane = lastInLane.findIndex((last) => p - last >= gap);
    if (lane === -1) lane = lastInLane.length < lanes ? lastInLane.length : lanes - 1;
    lastInLane[lane] = p;
    return lane;
  });
}
