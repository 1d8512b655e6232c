import { Building2Icon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link, useNavigate } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { ExpiryBadge } from "@/components/certificates/ExpiryBadge";
import { Pager } from "@/components/Pager";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Card } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useOrganizationsQuery } from "@/data/organizations/organizations-query";
import { useDecodedCertificate } from "@/lib/certificates/use-decoded-certificate";
import { formatDateTime } from "@/lib/utils";
import { OrganizationCreateDialog } from "@/pages/organizations/OrganizationCreateDialog";

const PAGE_SIZE = 20;

function CaExpiry({ pem }: { pem: string }): ReactElement {
  const cert = useDecodedCertificate(pem);
  if (!cert.data) return <span className="text-muted-foreground">…</span>;
  return <ExpiryBadge notAfter={cert.data.notAfter} notBefore={cert.data.notBefore} />;
}

/** Fabric organizations (MSPs), paged. */
export function OrganizationsPage(): ReactElement {
  const [page, setPage] = useState(1);
  const orgs = useOrganizationsQuery(PAGE_SIZE, (page - 1) * PAGE_SIZE);
  const navigate = useNavigate();
  const create = (
    <RoleGate denied={["viewer"]}>
      <OrganizationCreateDialog />
    </RoleGate>
  );
  return (
    <div>
      <PageHeader
        title="Organizations"
        description="Fabric MSPs: each has a signing CA, a TLS CA and the identities they issue."
        actions={create}
      />
      <Card className="gap-0 py-0">
        <QueryState
          query={orgs}
          isEmpty={(d) => d.items.length === 0 && d.count === 0}
          empty={
            <EmptyState
              icon={Building2Icon}
              title="No organizations yet"
              description="An organization is the identity of a company or team in a Fabric network."
              action={create}
            />
          }
        >
          {(d) => (
            <>
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>MSP ID</TableHead>
                    <TableHead className="hidden md:table-cell">Description</TableHead>
                    <TableHead className="hidden lg:table-cell">Key provider</TableHead>
                    <TableHead>Signing CA</TableHead>
                    <TableHead className="hidden lg:table-cell">Created</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {d.items.map((o) => (
                    <TableRow
                      key={o.id}
                      className="cursor-pointer"
                      onClick={() => void navigate(`/organizations/${o.id}`)}
                    >
                      <TableCell>
                        <Link to={`/organizations/${o.id}`} className="font-medium hover:underline">
                          {o.mspId}
                        </Link>
                      </TableCell>
                      <TableCell className="hidden max-w-xs truncate text-muted-foreground md:table-cell">
                        {o.description || "—"}
                      </TableCell>
                      <TableCell className="hidden text-muted-foreground lg:table-cell">{o.providerName}</TableCell>
                      <TableCell>
                        <CaExpiry pem={o.signCertificate} />
                      </TableCell>
                      <TableCell className="hidden text-muted-foreground lg:table-cell">
                        {formatDateTime(o.createdAt)}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
              <Pager
                total={d.count}
                page={page}
                pageSize={PAGE_SIZE}
                noun={["organization", "organizations"]}
                busy={orgs.isFetching}
                onPage={setPage}
              />
            </>
          )}
        </QueryState>
      </Card>
    </div>
  );
}
