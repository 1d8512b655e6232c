import { parseCertificate } from "../../../crypto/certificate-decoder.js";
import type { AlertRule, Condition } from "../alerts.engine.js";
import type { AlertsRepo } from "../alerts.repo.js";

const DAY_MS = 86_400_000;

interface Owner {
  kind: "node" | "ca" | "identity";
  name: string;
  id: number;
  link: string;
}

/**
 * Certificate expiry of every certificate the console holds: they all live on key rows (node sign
 * and TLS keys, organization sign/TLS CAs, admin and client identities, standalone keys), so one
 * pass over the keys finds them. The key of a condition includes the certificate's serial: a
 * renewal replaces it, ending the episode, and a renewed certificate that is again short-lived
 * starts its own.
 */
export function certificateExpiryRule(
  repo: Pick<AlertsRepo, "certificates" | "organizationKeys" | "organizations" | "fabricNodes">,
): AlertRule {
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
      for (const c of certs) {
        let notAfter: Date;
        let subject: string;
        let serial: string;
        try {
          const parsed = parseCertificate(c.certificate);
          notAfter = parsed.notAfter;
          subject = parsed.subject.text;
          serial = parsed.serialNumber;
        } catch {
          // An unreadable certificate is reported by the key screens, not as an expiry.
          continue;
        }
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
      return out;
    },
  };
}
