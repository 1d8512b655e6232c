import { KeyRoundIcon, PlusIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link } from "react-router";
import type { KeyProvider } from "@/api/client";
import { RoleGate } from "@/app/RoleGate";
import { OPERATORS } from "@/app/roles";
import { Pager } from "@/components/Pager";
import { EmptyState, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useKeysQuery } from "@/data/keys/keys-query";
import { formatDateTime } from "@/lib/utils";
import { KeyCreateDialog } from "@/pages/keys/KeyCreateDialog";
import { algorithmLabel } from "@/pages/keys/key-form";

const PAGE_SIZE = 10;

/** Where a remote provider's node keys go, said where keys are created (issue 18). */
export const NODE_KEYS_NOTE =
  "Fabric nodes' own signing and TLS keys are always kept in the database provider, because the peer and orderer processes read them from disk. Their certificates are signed by the CA key in this provider.";

/** "Create key" preset to this provider; the new key shows up in the table instead of opening. */
function CreateKeyButton({ provider }: { provider: KeyProvider }): ReactElement {
  return (
    <RoleGate allowed={OPERATORS}>
      <KeyCreateDialog
        preset={{ providerId: String(provider.id) }}
        onCreated={() => undefined}
        trigger={
          <Button size="sm">
            <PlusIcon /> Create key
          </Button>
        }
      />
    </RoleGate>
  );
}

/** The keys a provider holds (GET /keys/filter?provider_id=), each linking to its page. */
export function ProviderKeysCard({ provider }: { provider: KeyProvider }): ReactElement {
  const [page, setPage] = useState(1);
  const keys = useKeysQuery({ page, pageSize: PAGE_SIZE, providerId: provider.id });
  const remote = provider.type === "VAULT" || provider.type === "AWS_KMS";
  return (
    <Card className="gap-0 py-0">
      <CardHeader className="flex-row items-start justify-between gap-3 border-b py-4">
        <div className="grid gap-1.5">
          <CardTitle className="text-base">Keys in this provider</CardTitle>
          {remote ? <CardDescription className="max-w-2xl text-xs">{NODE_KEYS_NOTE}</CardDescription> : null}
        </div>
        <CreateKeyButton provider={provider} />
      </CardHeader>
      <QueryState
        query={keys}
        isEmpty={(d) => d.items.length === 0}
        empty={<EmptyState icon={KeyRoundIcon} title="No keys in this provider" />}
      >
        {(data) => (
          <>
            <Table data-testid="provider-keys">
              <TableHeader>
                <TableRow>
                  <TableHead>Name</TableHead>
                  <TableHead>Type</TableHead>
                  <TableHead>Provider</TableHead>
                  <TableHead>Created</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.items.map((k) => (
                  <TableRow key={k.id}>
                    <TableCell>
                      <Link to={`/settings/keys/${k.id}`} className="font-medium hover:underline">
                        {k.name}
                      </Link>
                    </TableCell>
                    <TableCell>{algorithmLabel(k)}</TableCell>
                    <TableCell>{k.provider.name}</TableCell>
                    <TableCell className="text-muted-foreground">{formatDateTime(k.createdAt)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <Pager
              total={data.totalItems}
              page={page}
              pageSize={PAGE_SIZE}
              noun={["key", "keys"]}
              busy={keys.isFetching}
              onPage={setPage}
            />
          </>
        )}
      </QueryState>
    </Card>
  );
}
