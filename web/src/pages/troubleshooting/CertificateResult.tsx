import type { ReactElement, ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import type { CertificateValidation } from "@/data/troubleshooting/troubleshooting-api";

function Field({ label, children }: { label: string; children: ReactNode }): ReactElement {
  return (
    <>
      <dt className="font-medium">{label}</dt>
      <dd className="break-all">{children}</dd>
    </>
  );
}

const none = <span className="text-muted-foreground">none</span>;

/** What the server found in a certificate: the verdict, its errors and warnings, then the fields. */
export function CertificateResult({ result }: { result: CertificateValidation }): ReactElement {
  const sans = [...result.dns_names, ...result.ip_addresses];
  return (
    <section aria-label="Certificate check result" className="grid gap-4 rounded-md border p-4">
      <div className="flex flex-wrap items-center gap-2">
        {result.valid ? <Badge variant="success">Valid</Badge> : <Badge variant="destructive">Invalid</Badge>}
        {result.is_ca && <Badge variant="outline">CA</Badge>}
      </div>
      {result.errors.length > 0 && (
        <ul aria-label="Errors" className="list-disc pl-5 text-sm text-destructive">
          {result.errors.map((e, i) => (
            <li key={i}>{e}</li>
          ))}
        </ul>
      )}
      {result.warnings.length > 0 && (
        <ul aria-label="Warnings" className="list-disc pl-5 text-sm text-amber-700 dark:text-warning">
          {result.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      )}
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        <Field label="Subject">{result.subject}</Field>
        <Field label="Issuer">{result.issuer}</Field>
        <Field label="Valid from">{result.not_before}</Field>
        <Field label="Valid until">{result.not_after}</Field>
        <Field label="Subject alternative names">{sans.length ? sans.join(", ") : none}</Field>
        <Field label="Key usage">{result.key_usage.length ? result.key_usage.join(", ") : none}</Field>
        <Field label="Serial number">
          <span className="font-mono text-xs">{result.serial_number}</span>
        </Field>
        <Field label="SHA-256 fingerprint">
          <span className="font-mono text-xs">{result.fingerprint}</span>
        </Field>
        <Field label="Chain">
          {result.chain.length ? (
            <ol className="list-decimal pl-4">
              {result.chain.map((c, i) => (
                <li key={i}>{c}</li>
              ))}
            </ol>
          ) : (
            none
          )}
        </Field>
      </dl>
    </section>
  );
}
