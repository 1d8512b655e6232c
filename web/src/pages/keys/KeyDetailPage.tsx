import { FileBadgeIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link, useParams } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { CertificateDetails } from "@/components/certificates/CertificateDetails";
import { CopyButton } from "@/components/CopyButton";
import { DeleteResourceButton } from "@/components/ConfirmDialog";
import { DetailField, Mono } from "@/components/DetailField";
import { PemBlock } from "@/components/PemBlock";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useKeyDeleteMutation } from "@/data/keys/key-delete-mutation";
import { useKeyQuery } from "@/data/keys/key-query";
import { colonHex } from "@/lib/certificates/decode";
import { formatDateTime } from "@/lib/utils";
import { algorithmLabel } from "@/pages/keys/key-form";
import { ShareKeyButton } from "@/pages/keys/ShareKeyDialog";

/** One key: type, fingerprints, Ethereum address, provider, public key and its decoded certificate. */
export function KeyDetailPage(): ReactElement {
  const id = Number(useParams().id);
  const key = useKeyQuery(id);
  // A key still in use stays; the server's 409 message in the dialog says by whom.
  const del = useKeyDeleteMutation();

  return (
    <QueryState query={key}>
      {(k) => (
        <div className="space-y-6">
          <PageHeader
            title={k.name}
            description={k.description || `${algorithmLabel(k)} key in ${k.provider.name}`}
            actions={
              <RoleGate denied={["viewer"]}>
                <ShareKeyButton keyId={k.id} keyName={k.name} />
                <DeleteResourceButton
                  mutation={del}
                  id={k.id}
                  name={k.name}
                  description="The private key is destroyed. Anything signed with it can no longer be re-signed. This cannot be undone."
                  confirmLabel="Delete key"
                  deletedTitle="Key deleted"
                  errorInDialog="The key could not be deleted."
                  redirectTo="/settings/keys"
                />
              </RoleGate>
            }
          />
          <Card>
            <CardContent>
              <dl className="grid grid-cols-2 gap-5 md:grid-cols-4">
                <DetailField label="Algorithm">
                  <Badge variant="outline">{k.algorithm}</Badge>
                </DetailField>
                <DetailField label={k.algorithm === "RSA" ? "Key size" : "Curve"}>
                  {k.algorithm === "RSA" ? `${k.keySize ?? "—"} bits` : (k.curve ?? "—")}
                </DetailField>
                <DetailField label="Provider">
                  <RoleGate allowed={["admin", "manager"]} fallback={k.provider.name}>
                    <Link to={`/settings/providers/${k.provider.id}`} className="hover:underline">
                      {k.provider.name}
                    </Link>
                  </RoleGate>
                  <span className="ml-1 text-xs text-muted-foreground">({k.provider.type})</span>
                </DetailField>
                <DetailField label="Status">
                  <Badge variant={k.status === "active" ? "success" : "secondary"} className="capitalize">
                    {k.status}
                  </Badge>
                </DetailField>
                <DetailField label="Created">{formatDateTime(k.createdAt)}</DetailField>
                <DetailField label="Last renewed">{formatDateTime(k.lastRotatedAt)}</DetailField>
                <DetailField label="Usable by nodes">{k.canUseInNodes ? "Yes" : "No"}</DetailField>
                <DetailField label="Signed by">
                  {k.signingKeyID ? (
                    <Link to={`/settings/keys/${k.signingKeyID}`} className="hover:underline">
                      Key #{k.signingKeyID}
                    </Link>
                  ) : k.certificate ? (
                    "Self-signed"
                  ) : (
                    "—"
                  )}
                </DetailField>
              </dl>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle className="text-base">Fingerprints</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-4">
              <FingerprintRow label="SHA-256 (public key)" value={k.sha256Fingerprint} />
              <FingerprintRow label="Subject Key Identifier (SKI)" value={k.sha1Fingerprint} />
              {k.ethereumAddress && <FingerprintRow label="Ethereum address" value={k.ethereumAddress} raw />}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle className="text-base">Public key</CardTitle>
            </CardHeader>
            <CardContent>
              <PemBlock value={k.publicKey} label="SubjectPublicKeyInfo (PEM)" filename={`${k.name}.pub.pem`} />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle className="text-base">Certificate</CardTitle>
              <CardDescription>Decoded in your browser from the PEM the server holds.</CardDescription>
            </CardHeader>
            <CardContent>
              {k.certificate ? (
                <CertificateDetails pem={k.certificate} filename={`${k.name}.cert.pem`} />
              ) : (
                <EmptyState
                  icon={FileBadgeIcon}
                  title="No certificate"
                  description="This key has no certificate. Besu validator keys don't need one."
                />
              )}
            </CardContent>
          </Card>
        </div>
      )}
    </QueryState>
  );
}

function FingerprintRow({ label, value, raw }: { label: string; value: string; raw?: boolean }): ReactElement {
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
      <DetailField label={label}>
        <Mono>{raw ? value : colonHex(value)}</Mono>
      </DetailField>
      <CopyButton value={value} />
    </div>
  );
}
