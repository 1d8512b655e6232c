import { ChevronLeftIcon, ChevronRightIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link, useParams } from "react-router";
import { CopyButton } from "@/components/CopyButton";
import { DetailField, Mono } from "@/components/DetailField";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useFabricBlockQuery, useFabricChannelInfoQuery } from "@/data/fabric-networks/fabric-network-queries";
import type { FabricTransaction } from "@/data/fabric-networks/types";
import { formatDateTime } from "@/lib/utils";

function Transaction({ tx, index }: { tx: FabricTransaction; index: number }): ReactElement {
  return (
    <Card className="gap-0 pb-0" data-testid={`tx-${index}`}>
      <CardHeader className="pb-4">
        <CardTitle className="flex flex-wrap items-center gap-2 text-base">
          Transaction {index}
          <Badge variant="outline">{tx.type}</Badge>
          {tx.validationCode && (
            <Badge variant={tx.validationCode === "VALID" ? "success" : "destructive"}>{tx.validationCode}</Badge>
          )}
        </CardTitle>
        <CardDescription className="flex items-center gap-2">
          <Mono>{tx.id || "—"}</Mono>
          {tx.id && <CopyButton value={tx.id} label="Copy tx id" />}
        </CardDescription>
      </CardHeader>
      <CardContent className="border-t py-4">
        <dl className="grid grid-cols-2 gap-5 md:grid-cols-4">
          <DetailField label="Creator MSP">{tx.creatorMspId || "—"}</DetailField>
          <DetailField label="Timestamp">{formatDateTime(tx.createdAt)}</DetailField>
          <DetailField label="Chaincode">
            {tx.chaincodeId ? `${tx.chaincodeId}${tx.version ? ` ${tx.version}` : ""}` : "—"}
          </DetailField>
          <DetailField label="Channel">{tx.channelId}</DetailField>
          {tx.request.length > 0 && (
            <DetailField label="Request" className="col-span-2 md:col-span-4">
              <Mono>{tx.request.join(" ")}</Mono>
            </DetailField>
          )}
          {tx.response && (
            <DetailField label="Response" className="col-span-2 md:col-span-4">
              <Mono>{tx.response}</Mono>
            </DetailField>
          )}
          {tx.event && (
            <DetailField label={`Event ${tx.event.name}`} className="col-span-2 md:col-span-4">
              <Mono>{tx.event.value}</Mono>
            </DetailField>
          )}
        </dl>
      </CardContent>
      {(tx.reads.length > 0 || tx.writes.length > 0) && (
        <div className="border-t">
          <Table data-testid="rwset">
            <TableHeader>
              <TableRow>
                <TableHead>Kind</TableHead>
                <TableHead>Namespace</TableHead>
                <TableHead>Key</TableHead>
                <TableHead>Value / version</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {tx.reads.map((r, i) => (
                <TableRow key={`r${i}`}>
                  <TableCell>
                    <Badge variant="secondary">Read</Badge>
                  </TableCell>
                  <TableCell>{r.chaincodeId}</TableCell>
                  <TableCell>
                    <Mono>{r.key}</Mono>
                  </TableCell>
                  <TableCell className="text-muted-foreground">
                    block {r.blockNumVersion}, tx {r.txNumVersion}
                  </TableCell>
                </TableRow>
              ))}
              {tx.writes.map((w, i) => (
                <TableRow key={`w${i}`}>
                  <TableCell>
                    <Badge variant={w.deleted ? "destructive" : "outline"}>{w.deleted ? "Delete" : "Write"}</Badge>
                  </TableCell>
                  <TableCell>{w.chaincodeId}</TableCell>
                  <TableCell>
                    <Mono>{w.key}</Mono>
                  </TableCell>
                  <TableCell>
                    <Mono className="line-clamp-3">{w.value}</Mono>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </Card>
  );
}

/** One block of a Fabric channel: header, hashes and decoded transactions with their read/write sets. */
export function FabricBlockPage(): ReactElement {
  const params = useParams();
  const id = Number(params.id);
  const num = Number(params.blockNumber);
  const block = useFabricBlockQuery(id, num);
  const info = useFabricChannelInfoQuery(id);
  const height = info.data?.height;
  return (
    <div className="space-y-6">
      <PageHeader
        title={`Block ${Number.isFinite(num) ? num : "?"}`}
        description={
          block.data?.transactions[0]?.channelId ? `Channel ${block.data.transactions[0].channelId}` : undefined
        }
        actions={
          <>
            {num > 0 ? (
              <Button variant="outline" size="sm" asChild>
                <Link to={`/networks/${id}/blocks/${num - 1}`}>
                  <ChevronLeftIcon /> Previous
                </Link>
              </Button>
            ) : (
              <Button variant="outline" size="sm" disabled>
                <ChevronLeftIcon /> Previous
              </Button>
            )}
            {height !== undefined && num + 1 < height ? (
              <Button variant="outline" size="sm" asChild>
                <Link to={`/networks/${id}/blocks/${num + 1}`}>
                  Next <ChevronRightIcon />
                </Link>
              </Button>
            ) : (
              <Button variant="outline" size="sm" disabled>
                Next <ChevronRightIcon />
              </Button>
            )}
            <Button variant="ghost" size="sm" asChild>
              <Link to={`/networks/${id}/blocks`}>All blocks</Link>
            </Button>
          </>
        }
      />
      <QueryState query={block}>
        {(b) => (
          <>
            <Card data-testid="block-header">
              <CardContent>
                <dl className="grid gap-5 md:grid-cols-2">
                  <DetailField label="Number">{b.number}</DetailField>
                  <DetailField label="Time">{formatDateTime(b.createdAt)}</DetailField>
                  <DetailField label="Hash">
                    <Mono>{b.hash}</Mono>
                  </DetailField>
                  <DetailField label="Previous hash">
                    <Mono>{b.previousHash || "—"}</Mono>
                  </DetailField>
                  <DetailField label="Data hash">
                    <Mono>{b.dataHash}</Mono>
                  </DetailField>
                  <DetailField label="Transactions">{b.transactions.length}</DetailField>
                </dl>
              </CardContent>
            </Card>
            {b.transactions.length === 0 ? (
              <Card>
                <EmptyState title="No transactions in this block" />
              </Card>
            ) : (
              b.transactions.map((tx, i) => <Transaction key={`${tx.id}-${i}`} tx={tx} index={i} />)
            )}
          </>
        )}
      </QueryState>
    </div>
  );
}
