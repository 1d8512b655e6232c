import { parseCertificate, type ParsedCertificate } from "../../../crypto/certificate-decoder.js";
import type { AlertRule, Condition } from "../alerts.engine.js";
import type { AlertsRepo } from "../alerts.repo.js";

const DAY_MS = 86_400_000;

interface Owner {
  kind: "node" | "ca" | "identity";
  name: string;
  id: number;
  link: string;
}

/** What the rule reads from a certificate; null when it can't be read. */
type Read = { notAfter: Date; subject: string; serial: string } | null;

/**
 * Certificate expiry of every certificate the console holds: they all live on key rows (node sign
 * and TLS keys, organization sign/TLS CAs, admin and client identities, standalone keys), so one
 * pass over the keys finds them. The key of a condition includes the certificate's serial: a
 * renewal replaces it, ending the episode, and a renewed certificate that is again short-lived
 * starts its own.
 *
 * Each cycle reads every certificate again, but parses only those it has not seen on that key before:
 * with thousands of keys, parsing all of them took most of a cycle's CPU (`parse` is replaceable for
 * tests).
 */
export function certificateExpiryRule(
  repo: Pick<AlertsRepo, "certificates" | "organizationKeys" | "organizations" | "fabricNodes">,
  parse: (pem: string) => ParsedCertificate = parseCertificate,
): AlertRule {
  const read = (pem: string): Read => {
    try {
      const parsed = parse(pem);
      return { notAfter: parsed.notAfter, subject: parsed.subject.text, serial: parsed.serialNumber };
    } catch {
      return null;
    }
  };
  // By key id, what the last cycle read: the PEM and what it said. Each cycle keeps only its own keys, so a
  // key whose certificate changed is parsed again and a deleted key is forgotten.
  let seen = new Map<number, { pem: string; read: Read }>();
  return {
    id: "certificate.expiry",
    event: "certificate.expiring",
    forMs: () => 0,
    exhaustive: true,
    async evaluate(ctx): Promise<Condition[]> {
      const [certs, orgKeys, orgs, nodes] = await Promise.all([
        repo.certificates(),
        repo.organizationKeys(),
        repo.organizations(),
        repo.fabricNodes(),
      ]);
      const owners = new Map<number, Owner>();
      const orgName = new Map(orgs.map((o) => [o.id, o.name]));
      for (const k of orgKeys) {
        const name = orgName.get(k.organization_id) ?? `organization ${k.organization_id}`;
        if (k.role === "ca") {
          owners.set(k.key_id, {
            kind: "ca",
            name,
            id: k.organization_id,
            link: `/organizations/${k.organization_id}`,
          });
        }
      }
      // A node's keys are the node's business, whichever organization issued them.
      for (const n of nodes) {
        if (n.key_id !== null) owners.set(n.key_id, { kind: "node", name: n.name, id: n.id, link: `/nodes/${n.id}` });
        if (n.tls_key_id !== null) {
          owners.set(n.tls_key_id, { kind: "node", name: `${n.name} (TLS)`, id: n.id, link: `/nodes/${n.id}` });
        }
      }
      const thresholdMs = ctx.settings.alertCertExpiryDays * DAY_MS;
      const out: Condition[] = [];
      const next = new Map<number, { pem: string; read: Read }>();
      for (const c of certs) {
        const known = seen.get(c.key_id);
        const r = known?.pem === c.certificate ? known.read : read(c.certificate);
        next.set(c.key_id, { pem: c.certificate, read: r });
        // An unreadable certificate is reported by the key screens, not as an expiry.
        if (r === null) continue;
        const { notAfter, subject, serial } = r;
        const owner = owners.get(c.key_id) ?? {
          kind: c.is_ca === 1 ? ("ca" as const) : ("identity" as const),
          name: c.key_name,
          id: c.key_id,
          link: `/settings/keys/${c.key_id}`,
        };
        const leftMs = notAfter.getTime() - ctx.now.getTime();
        out.push({
          key: `key:${c.key_id}:${serial}`,
          subject: `${owner.kind} ${owner.name}`,
          active: leftMs <= thresholdMs,
          data: {
            kind: owner.kind,
            name: owner.name,
            id: owner.id,
            key_id: c.key_id,
            subject,
            not_after: notAfter.toISOString(),
            days_left: Math.floor(leftMs / DAY_MS),
            link: owner.link,
          },
        });
      }
      seen = next;
      return out;
    },
  };
}
