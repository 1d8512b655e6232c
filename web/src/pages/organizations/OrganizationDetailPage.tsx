import { DeleteResourceButton } from "@/components/ConfirmDialog";
import { type ReactElement } from "react";
import { Link, useParams } from "react-router";
import type { Organization } from "@/api/client";
import { RoleGate } from "@/app/RoleGate";
import { CertificateDetails } from "@/components/certificates/CertificateDetails";
import { DetailField } from "@/components/DetailField";
import { PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useOrganizationDeleteMutation } from "@/data/organizations/organization-delete-mutation";
import { useOrganizationQuery } from "@/data/organizations/organization-query";
import { formatDateTime } from "@/lib/utils";
import { IdentitiesCard } from "@/pages/organizations/IdentitiesCard";
import { RevocationCard } from "@/pages/organizations/RevocationCard";

function DeleteOrganization({ org }: { org: Organization }): ReactElement {
  return (
    <DeleteResourceButton
      mutation={useOrganizationDeleteMutation()}
      id={org.id}
      name={org.mspId}
      description="Its CAs and identities are deleted with it. While a node still uses the organization, the console refuses and names the node. This cannot be undone."
      confirmLabel="Delete organization"
      deletedTitle="Organization deleted"
      redirectTo="/fabric/organizations"
    />
  );
}

/** One Fabric organization: overview, its two CA certificates, identities and revocation. */
export function OrganizationDetailPage(): ReactElement {
  const id = Number(useParams().id);
  const org = useOrganizationQuery(id);
  return (
    <QueryState query={org}>
      {(o) => (
        <div className="space-y-6">
          <PageHeader
            title={o.mspId}
            description={o.description || "Fabric organization (MSP)"}
            actions={
              <RoleGate denied={["viewer"]}>
                <DeleteOrganization org={o} />
              </RoleGate>
            }
          />
          <Card>
            <CardContent>
              <dl className="grid grid-cols-2 gap-5 md:grid-cols-4">
                <DetailField label="MSP ID">
                  <span className="font-mono">{o.mspId}</span>
                </DetailField>
                <DetailField label="Key provider">{o.providerName}</DetailField>
                <DetailField label="Admin identity">
                  {o.adminSignKeyId ? (
                    <Link to={`/settings/keys/${o.adminSignKeyId}`} className="hover:underline">
                      Key #{o.adminSignKeyId}
                    </Link>
                  ) : (
                    "—"
                  )}
                </DetailField>
                <DetailField label="Created">{formatDateTime(o.createdAt)}</DetailField>
              </dl>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle className="text-base">Certificate authorities</CardTitle>
              <CardDescription>
                The signing CA issues identities; the TLS CA issues TLS certificates for nodes.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <Tabs defaultValue="sign">
                <TabsList>
                  <TabsTrigger value="sign">
                    Signing CA <Badge variant="outline">ca</Badge>
                  </TabsTrigger>
                  <TabsTrigger value="tls">
                    TLS CA <Badge variant="outline">tlsca</Badge>
                  </TabsTrigger>
                </TabsList>
                <TabsContent value="sign" className="mt-4">
                  <CertificateDetails pem={o.signCertificate} filename={`${o.mspId}-ca.pem`} />
                </TabsContent>
                <TabsContent value="tls" className="mt-4">
                  <CertificateDetails pem={o.tlsCertificate} filename={`${o.mspId}-tlsca.pem`} />
                </TabsContent>
              </Tabs>
            </CardContent>
          </Card>
          <IdentitiesCard organizationId={o.id} mspId={o.mspId} />
          <RevocationCard organizationId={o.id} mspId={o.mspId} />
        </div>
      )}
    </QueryState>
  );
}
