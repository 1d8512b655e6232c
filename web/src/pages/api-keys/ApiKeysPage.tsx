import { KeySquareIcon, PlusIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link, useNavigate } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { KeyStatusBadge } from "@/pages/api-keys/KeyStatusBadge";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useApiKeysQuery } from "@/data/api-keys/api-keys-query";
import { formatDateTime } from "@/lib/utils";

function NewKeyButton(): ReactElement {
  return (
    <RoleGate denied={["viewer"]}>
      <Button asChild>
        <Link to="/settings/api-keys/new">
          <PlusIcon /> New API key
        </Link>
      </Button>
    </RoleGate>
  );
}

/** Your API keys. Each key acts as you, optionally with a narrower role. */
export function ApiKeysPage(): ReactElement {
  const keys = useApiKeysQuery();
  const navigate = useNavigate();
  return (
    <div>
      <PageHeader
        title="API Keys"
        description="Keys let scripts and tools call the ChainLaunch API as you."
        actions={<NewKeyButton />}
      />
      <Card className="py-0">
        <QueryState
          query={keys}
          isEmpty={(d) => d.length === 0}
          empty={
            <EmptyState
              icon={KeySquareIcon}
              title="No API keys yet"
              description="Create a key to call the API from scripts, CI or the MCP integration."
              action={<NewKeyButton />}
            />
          }
        >
          {(list) => (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Name</TableHead>
                  <TableHead>Key</TableHead>
                  <TableHead>Role</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Last used</TableHead>
                  <TableHead>Expires</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.map((k) => (
                  <TableRow
                    key={k.id}
                    className="cursor-pointer"
                    onClick={() => void navigate(`/settings/api-keys/${k.id}`)}
                  >
                    <TableCell>
                      <Link to={`/settings/api-keys/${k.id}`} className="font-medium hover:underline">
                        {k.name}
                      </Link>
                      {k.description && (
                        <p className="max-w-xs truncate text-xs text-muted-foreground">{k.description}</p>
                      )}
                    </TableCell>
                    <TableCell className="font-mono text-xs">{k.key_prefix}…</TableCell>
                    <TableCell>
                      <Badge variant="outline" className="capitalize">
                        {k.role}
                      </Badge>
                    </TableCell>
                    <TableCell>
                      <KeyStatusBadge apiKey={k} />
                    </TableCell>
                    <TableCell className="text-muted-foreground">
                      {k.last_used_at ? formatDateTime(k.last_used_at) : "Never"}
                    </TableCell>
                    <TableCell className="text-muted-foreground">
                      {k.expires_at ? formatDateTime(k.expires_at) : "Never"}
                    </TableCell>
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
