import { KeyRoundIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link } from "react-router";
import { CopyButton } from "@/components/CopyButton";
import { Mono } from "@/components/DetailField";
import { Pager } from "@/components/Pager";
import { EmptyState, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useSharedKeysQuery } from "@/data/sharing/shared-keys-query";
import { formatDateTime } from "@/lib/utils";
import { isExpired, sharedKeyType } from "@/pages/keys/shared-key-view";

const PAGE_SIZE = 20;

/** Public keys connected consoles shared with this one, with who sent them and until when. */
export function SharedKeysCard(): ReactElement {
  const [page, setPage] = useState(1);
  const [showExpired, setShowExpired] = useState(false);
  const keys = useSharedKeysQuery({
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    ...(showExpired ? {} : { expired: "false" as const }),
  });
  return (
    <Card className="gap-0 py-0">
      <div className="flex flex-wrap items-center gap-3 border-b p-4">
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={showExpired}
            onChange={(e) => {
              setShowExpired(e.target.checked);
              setPage(1);
            }}
          />
          Show expired
        </label>
      </div>
      <QueryState
        query={keys}
        isEmpty={(d) => d.keys.length === 0}
        empty={
          <EmptyState
            icon={KeyRoundIcon}
            title="No keys shared with this console"
            description="A connected console can share a key's public part from that key's page."
          />
        }
      >
        {(d) => (
          <>
            <Table aria-label="Keys shared with me">
              <TableHeader>
                <TableRow>
                  <TableHead>Name</TableHead>
                  <TableHead>Type</TableHead>
                  <TableHead>From</TableHead>
                  <TableHead className="hidden md:table-cell">Shared</TableHead>
                  <TableHead className="hidden md:table-cell">Expires</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead className="text-right">
                    <span className="sr-only">Public key</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {d.keys.map((k) => {
                  const expired = k.status === "expired" || isExpired(k);
                  return (
                    <TableRow key={k.share_id} data-testid={`shared-key-${k.share_id}`}>
                      <TableCell>
                        <span className="font-medium">{k.name}</span>
                        {k.ethereum_address && (
                          <Mono className="block max-w-56 truncate text-muted-foreground">{k.ethereum_address}</Mono>
                        )}
                      </TableCell>
                      <TableCell>
                        <Badge variant="outline">{sharedKeyType(k)}</Badge>
                      </TableCell>
                      <TableCell>
                        <Link to={`/connect/${encodeURIComponent(k.shared_by_node_id)}`} className="hover:underline">
                          <Mono>{k.shared_by_node_id}</Mono>
                        </Link>
                      </TableCell>
                      <TableCell className="hidden text-muted-foreground md:table-cell">
                        {formatDateTime(k.shared_at)}
                      </TableCell>
                      <TableCell className="hidden text-muted-foreground md:table-cell">
                        {k.expires_at ? formatDateTime(k.expires_at) : "Never"}
                      </TableCell>
                      <TableCell>
                        <Badge variant={expired ? "secondary" : "success"} className="capitalize">
                          {expired ? "expired" : k.status}
                        </Badge>
                      </TableCell>
                      <TableCell className="text-right">
                        <CopyButton value={k.public_key} label="Copy public key" />
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
            <Pager
              total={d.total}
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
