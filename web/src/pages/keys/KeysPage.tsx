import { KeyRoundIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link, useNavigate } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { isRoleAllowed, OPERATORS } from "@/app/roles";
import { Mono } from "@/components/DetailField";
import { Pager } from "@/components/Pager";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { ExpiryBadge } from "@/components/certificates/ExpiryBadge";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useMeQuery } from "@/data/auth/me-query";
import { useKeyProvidersQuery } from "@/data/key-providers/key-providers-query";
import { useKeysQuery } from "@/data/keys/keys-query";
import { formatDateTime } from "@/lib/utils";
import { KeyCreateDialog } from "@/pages/keys/KeyCreateDialog";
import { SharedKeysCard } from "@/pages/keys/SharedKeysCard";
import { algorithmLabel, parseTypeFilter, TYPE_FILTERS } from "@/pages/keys/key-form";

const PAGE_SIZE = 20;

/** Key management: every key with its type, provider, certificate expiry and fingerprint. */
export function KeysPage(): ReactElement {
  const me = useMeQuery();
  const canSeeProviders = isRoleAllowed(me.data?.role, { allowed: OPERATORS });
  const providers = useKeyProvidersQuery(canSeeProviders);
  const [page, setPage] = useState(1);
  const [type, setType] = useState("all");
  const [provider, setProvider] = useState("all");
  const keys = useKeysQuery({
    page,
    pageSize: PAGE_SIZE,
    ...parseTypeFilter(type),
    ...(provider !== "all" ? { providerId: Number(provider) } : {}),
  });
  const navigate = useNavigate();
  const filtered = type !== "all" || provider !== "all";

  return (
    <div>
      <PageHeader
        title="Key Management"
        description="Private keys stay encrypted in their provider; only public material is shown."
        actions={
          <RoleGate denied={["viewer"]}>
            <KeyCreateDialog />
          </RoleGate>
        }
      />
      <Tabs defaultValue="keys">
        <TabsList>
          <TabsTrigger value="keys">Keys</TabsTrigger>
          <TabsTrigger value="shared">Shared with me</TabsTrigger>
        </TabsList>
        <TabsContent value="shared">
          <SharedKeysCard />
        </TabsContent>
        <TabsContent value="keys">
          <Card className="gap-0 py-0">
            <div className="flex flex-wrap gap-3 border-b p-4">
              <Select
                value={type}
                onValueChange={(v) => {
                  setType(v);
                  setPage(1);
                }}
              >
                <SelectTrigger className="w-44" aria-label="Key type">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {TYPE_FILTERS.map((t) => (
                    <SelectItem key={t.value} value={t.value}>
                      {t.label}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              {canSeeProviders && (
                <Select
                  value={provider}
                  onValueChange={(v) => {
                    setProvider(v);
                    setPage(1);
                  }}
                >
                  <SelectTrigger className="w-52" aria-label="Provider">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value="all">All providers</SelectItem>
                    {(providers.data ?? []).map((p) => (
                      <SelectItem key={p.id} value={String(p.id)}>
                        {p.name}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            </div>
            <QueryState
              query={keys}
              isEmpty={(d) => d.items.length === 0}
              empty={
                <EmptyState
                  icon={KeyRoundIcon}
                  title={filtered ? "No keys match" : "No keys yet"}
                  description={
                    filtered
                      ? "Try another type or provider."
                      : "Create a key for a Besu validator or a certificate authority. Organizations create their own keys."
                  }
                />
              }
            >
              {(d) => (
                <>
                  <Table>
                    <TableHeader>
                      <TableRow>
                        <TableHead>Name</TableHead>
                        <TableHead>Type</TableHead>
                        <TableHead className="hidden md:table-cell">Provider</TableHead>
                        <TableHead>Certificate</TableHead>
                        <TableHead className="hidden 2xl:table-cell">Fingerprint (SHA-256)</TableHead>
                        <TableHead className="hidden lg:table-cell">Created</TableHead>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {d.items.map((k) => (
                        <TableRow
                          key={k.id}
                          className="cursor-pointer"
                          onClick={() => void navigate(`/settings/keys/${k.id}`)}
                        >
                          <TableCell>
                            <Link to={`/settings/keys/${k.id}`} className="font-medium hover:underline">
                              {k.name}
                            </Link>
                            {k.ethereumAddress && (
                              <Mono className="block max-w-56 truncate text-muted-foreground">{k.ethereumAddress}</Mono>
                            )}
                          </TableCell>
                          <TableCell>
                            <Badge variant="outline">{algorithmLabel(k)}</Badge>
                          </TableCell>
                          <TableCell className="hidden text-muted-foreground md:table-cell">
                            {k.provider.name}
                          </TableCell>
                          <TableCell>
                            {k.certificate ? (
                              <ExpiryBadge notAfter={k.expiresAt} />
                            ) : (
                              <span className="text-muted-foreground">None</span>
                            )}
                          </TableCell>
                          <TableCell className="hidden 2xl:table-cell">
                            <Mono className="text-muted-foreground">{k.sha256Fingerprint.slice(0, 16)}…</Mono>
                          </TableCell>
                          <TableCell className="hidden text-muted-foreground lg:table-cell">
                            {formatDateTime(k.createdAt)}
                          </TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                  <Pager
                    total={d.totalItems}
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
        </TabsContent>
      </Tabs>
    </div>
  );
}
