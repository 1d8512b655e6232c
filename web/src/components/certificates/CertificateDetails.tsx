import { ShieldAlertIcon, TriangleAlertIcon } from "lucide-react";
import type { ReactElement } from "react";
import { DetailField, Mono } from "@/components/DetailField";
import { ExpiryBadge } from "@/components/certificates/ExpiryBadge";
import { PemBlock } from "@/components/PemBlock";
import { LoadingRows } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { colonHex } from "@/lib/certificates/decode";
import { classifyExpiry, expiryLabel } from "@/lib/certificates/expiry";
import { useDecodedCertificate } from "@/lib/certificates/use-decoded-certificate";
import { formatDateTime } from "@/lib/utils";

function List({ items, empty = "None" }: { items: string[]; empty?: string }): ReactElement {
  if (items.length === 0) return <span className="text-muted-foreground">{empty}</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {items.map((i) => (
        <Badge key={i} variant="outline" className="font-normal">
          {i}
        </Badge>
      ))}
    </span>
  );
}

/**
 * The certificate decoder: subject, issuer, serial, validity with an expiry warning, SANs, key
 * usages, extended key usages, CA flag and key identifiers, decoded from the PEM in the browser.
 */
export function CertificateDetails({
  pem,
  filename,
  showPem = true,
}: {
  pem: string;
  filename?: string;
  showPem?: boolean;
}): ReactElement {
  const cert = useDecodedCertificate(pem);
  if (cert.isPending) return <LoadingRows rows={3} />;
  if (cert.isError) {
    return (
      <p role="alert" className="flex items-center gap-2 text-sm text-destructive">
        <ShieldAlertIcon className="size-4" /> {cert.error.message}
      </p>
    );
  }
  const c = cert.data;
  const expiry = classifyExpiry(c.notAfter, c.notBefore);
  return (
    <div className="space-y-4" data-testid="certificate-details">
      {(expiry.status === "expired" || expiry.status === "expiring") && (
        <div
          role="alert"
          className={
            expiry.status === "expired"
              ? "flex items-center gap-2 rounded-lg border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive"
              : "flex items-center gap-2 rounded-lg border border-warning/50 bg-warning/10 px-3 py-2 text-sm text-amber-700 dark:text-warning"
          }
        >
          <TriangleAlertIcon className="size-4 shrink-0" />
          {expiry.status === "expired"
            ? `This certificate has expired (${expiryLabel(expiry).toLowerCase()}). Renew it before using it.`
            : `This certificate ${expiryLabel(expiry).toLowerCase()}. Renew it soon.`}
        </div>
      )}
      <dl className="grid gap-4 sm:grid-cols-2">
        <DetailField label="Subject">
          <Mono>{c.subject}</Mono>
        </DetailField>
        <DetailField label="Issuer">
          <Mono>{c.issuer}</Mono>
          {c.selfSigned && (
            <Badge variant="secondary" className="ml-2">
              Self-signed
            </Badge>
          )}
        </DetailField>
        <DetailField label="Serial number">
          <Mono>{c.serialNumber}</Mono>
        </DetailField>
        <DetailField label="Validity">
          <span className="flex flex-wrap items-center gap-2">
            <span>
              {formatDateTime(c.notBefore.toISOString())} → {formatDateTime(c.notAfter.toISOString())}
            </span>
            <ExpiryBadge notAfter={c.notAfter} notBefore={c.notBefore} />
          </span>
        </DetailField>
        <DetailField label="Subject alternative names">
          <List items={c.sans} />
        </DetailField>
        <DetailField label="Certificate authority">
          {c.isCA ? (
            <Badge>CA{c.pathLength !== undefined ? ` · path length ${c.pathLength}` : ""}</Badge>
          ) : (
            <span>No</span>
          )}
        </DetailField>
        <DetailField label="Key usage">
          <List items={c.keyUsages} />
        </DetailField>
        <DetailField label="Extended key usage">
          <List items={c.extendedKeyUsages} />
        </DetailField>
        <DetailField label="Subject key identifier">
          <Mono>{c.subjectKeyId ? colonHex(c.subjectKeyId) : "—"}</Mono>
        </DetailField>
        <DetailField label="Authority key identifier">
          <Mono>{c.authorityKeyId ? colonHex(c.authorityKeyId) : "—"}</Mono>
        </DetailField>
        <DetailField label="Signature algorithm">{c.signatureAlgorithm || "—"}</DetailField>
        <DetailField label="Public key">{c.publicKeyAlgorithm || "—"}</DetailField>
      </dl>
      {showPem && (
        <PemBlock value={pem} label="Certificate (PEM)" {...(filename ? { filename } : {})} maxHeight="max-h-48" />
      )}
    </div>
  );
}
