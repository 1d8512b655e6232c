import { ShieldCheckIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, Textarea } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { useValidateCertificateMutation } from "@/data/troubleshooting/troubleshooting-queries";
import { describeToolError } from "@/data/troubleshooting/troubleshooting-api";
import { CertificateResult } from "@/pages/troubleshooting/CertificateResult";

/** "a.example.com, 10.0.0.1" → the names, empty entries dropped. */
export function parseDnsNames(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Validate certificate: a PEM, an optional root CA and names it must cover. */
export function CertificateCard(): ReactElement {
  const check = useValidateCertificateMutation();
  const [certificate, setCertificate] = useState("");
  const [rootCa, setRootCa] = useState("");
  const [names, setNames] = useState("");
  const [missing, setMissing] = useState(false);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Validate certificate</CardTitle>
        <CardDescription>
          Chain, validity window, key usage, names and the CA flag of a PEM certificate.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="grid gap-4 md:grid-cols-2"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!certificate.trim()) return setMissing(true);
            setMissing(false);
            const dns = parseDnsNames(names);
            check.mutate({
              certificate: certificate.trim(),
              ...(rootCa.trim() ? { root_ca: rootCa.trim() } : {}),
              ...(dns.length ? { dns_names: dns } : {}),
            });
          }}
        >
          <div className="grid gap-2">
            <Label htmlFor="vc-cert">Certificate (PEM)</Label>
            <Textarea
              id="vc-cert"
              rows={6}
              className="font-mono text-xs"
              placeholder="-----BEGIN CERTIFICATE-----"
              value={certificate}
              aria-invalid={missing ? true : undefined}
              onChange={(e) => setCertificate(e.target.value)}
            />
            <FieldError message={missing ? "Paste a PEM certificate" : undefined} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="vc-root">Root CA (optional PEM)</Label>
            <Textarea
              id="vc-root"
              rows={6}
              className="font-mono text-xs"
              value={rootCa}
              onChange={(e) => setRootCa(e.target.value)}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="vc-names">DNS names (optional, comma-separated)</Label>
            <Input
              id="vc-names"
              placeholder="peer0.example.com, 10.0.0.5"
              value={names}
              onChange={(e) => setNames(e.target.value)}
            />
          </div>
          <div className="flex items-end">
            <Button type="submit" disabled={check.isPending}>
              <ShieldCheckIcon />
              Validate
            </Button>
          </div>
        </form>
        {check.isError && (
          <p role="alert" className="mt-4 text-sm text-destructive">
            {describeToolError(check.error)}
          </p>
        )}
        {check.data && (
          <div className="mt-4">
            <CertificateResult result={check.data} />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
