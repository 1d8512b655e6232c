import { PlusIcon, ShieldCheckIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link, useNavigate } from "react-router";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useKeyProvidersQuery } from "@/data/key-providers/key-providers-query";
import { formatDateTime } from "@/lib/utils";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { ProviderTypeBadge } from "@/pages/key-providers/ProviderTypeBadge";

function AddButton(): ReactElement {
  return (
    <Button asChild>
      <Link to="/settings/providers/add">
        <PlusIcon /> Add provider
      </Link>
    </Button>
  );
}

/** Key providers: where private keys live. Admins and managers only (the sidebar hides it from viewers). */
function KeyProvidersPageContent(): ReactElement {
  const providers = useKeyProvidersQuery();
  const navigate = useNavigate();
  return (
    <div>
      <PageHeader
        title="Key Providers"
        description="Backends that generate and hold private keys. New keys and organizations use the default."
        actions={<AddButton />}
      />
      <Card className="py-0">
        <QueryState
          query={providers}
          isEmpty={(d) => d.length === 0}
          empty={<EmptyState icon={ShieldCheckIcon} title="No key providers" action={<AddButton />} />}
        >
          {(list) => (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Name</TableHead>
                  <TableHead>Type</TableHead>
                  <TableHead>Default</TableHead>
                  <TableHead>Created</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.map((p) => (
                  <TableRow
                    key={p.id}
                    className="cursor-pointer"
                    onClick={() => void navigate(`/settings/providers/${p.id}`)}
                  >
                    <TableCell>
                      <Link to={`/settings/providers/${p.id}`} className="font-medium hover:underline">
                        {p.name}
                      </Link>
                    </TableCell>
                    <TableCell>
                      <ProviderTypeBadge type={p.type} />
                    </TableCell>
                    <TableCell>{p.isDefault ? <Badge>Default</Badge> : null}</TableCell>
                    <TableCell className="text-muted-foreground">{formatDateTime(p.createdAt)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </QueryState>
      </Card>
    </div>
  );
}

/** Admins and managers only. */
export function KeyProvidersPage(): ReactElement {
  return (
    <OperatorsOnly>
      <KeyProvidersPageContent />
    </OperatorsOnly>
  );
}
