import { Loader2Icon, SearchIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link } from "react-router";
import type { NodeInfo } from "@/api/client";
import { DetailField, Mono } from "@/components/DetailField";
import { QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import {
  fetchBalance,
  useBesuBlockQuery,
  useBesuChainQuery,
  useBesuPendingVotesQuery,
  useBesuValidatorsQuery,
} from "@/data/nodes/besu-rpc";
import { errorMessage, formatDateTime } from "@/lib/utils";
import { formatEther, hexToNumber, latestBlockNumbers, toBigInt } from "@/pages/nodes/besu-rpc";

function BlockRow({ nodeId, networkId, number }: { nodeId: number; networkId: number; number: number }): ReactElement {
  const b = useBesuBlockQuery(nodeId, `0x${number.toString(16)}`);
  const txs = Array.isArray(b.data?.transactions) ? b.data.transactions.length : undefined;
  const ts = hexToNumber(b.data?.timestamp);
  return (
    <TableRow>
      <TableCell>
        <Link to={`/networks/besu/${networkId}/${nodeId}/blocks/${number}`} className="font-mono hover:underline">
          #{number}
        </Link>
      </TableCell>
      <TableCell className="hidden sm:table-cell">
        <Mono className="block max-w-48 truncate">{typeof b.data?.hash === "string" ? b.data.hash : "…"}</Mono>
      </TableCell>
      <TableCell className="tabular-nums">{txs ?? "…"}</TableCell>
      <TableCell className="hidden text-muted-foreground md:table-cell">
        {ts !== undefined ? formatDateTime(new Date(ts * 1000).toISOString()) : "…"}
      </TableCell>
    </TableRow>
  );
}

function Balance({ nodeId }: { nodeId: number }): ReactElement {
  const [address, setAddress] = useState("");
  const [result, setResult] = useState<{ wei?: string; error?: string }>();
  const [busy, setBusy] = useState(false);
  const lookUp = async (): Promise<void> => {
    setBusy(true);
    try {
      setResult({ wei: await fetchBalance(nodeId, address.trim()) });
    } catch (e) {
      setResult({ error: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="grid gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        void lookUp();
      }}
    >
      <div className="flex gap-2">
        <Input
          aria-label="Account address"
          className="font-mono text-xs"
          placeholder="0x…"
          value={address}
          onChange={(e) => setAddress(e.target.value)}
        />
        <Button type="submit" variant="outline" disabled={busy || !address.trim()}>
          {busy ? <Loader2Icon className="animate-spin" /> : <SearchIcon />} Balance
        </Button>
      </div>
      {result?.wei !== undefined && (
        <p className="text-sm">
          <span className="font-medium">{formatEther(toBigInt(result.wei))}</span>{" "}
          <Mono className="text-muted-foreground">({toBigInt(result.wei)?.toString() ?? result.wei} wei)</Mono>
        </p>
      )}
      {result?.error && <p className="text-sm text-destructive">{result.error}</p>}
    </form>
  );
}

/** A Besu node's JSON-RPC console: chain, latest blocks, balances, QBFT validators and pending votes. */
export function BesuConsole({ n }: { n: NodeInfo }): ReactElement {
  const running = n.status === "RUNNING";
  const chain = useBesuChainQuery(n.id, running);
  const latest = hexToNumber(chain.data?.blockNumber);
  const validators = useBesuValidatorsQuery(n.id, "latest", running);
  const votes = useBesuPendingVotesQuery(n.id, running);
  if (!running) {
    return (
      <Card>
        <CardContent className="text-sm text-muted-foreground">
          The RPC console needs the node to be running; it is {n.status.toLowerCase()}.
        </CardContent>
      </Card>
    );
  }
  const networkId = n.besuNode?.networkId ?? 0;
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Chain</CardTitle>
        </CardHeader>
        <CardContent>
          <QueryState query={chain}>
            {(c) => (
              <dl className="grid grid-cols-2 gap-5">
                <DetailField label="Chain ID">
                  <span className="font-mono">{hexToNumber(c.chainId) ?? c.chainId}</span>
                </DetailField>
                <DetailField label="Block number">
                  <span className="font-mono" data-testid="besu-block-number">
                    {latest ?? c.blockNumber}
                  </span>
                </DetailField>
              </dl>
            )}
          </QueryState>
          <div className="mt-5">
            <p className="mb-2 text-sm font-medium">Balance lookup</p>
            <Balance nodeId={n.id} />
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Validators at the latest block</CardTitle>
          <CardDescription>QBFT tolerates floor((n − 1) / 3) faulty validators.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <QueryState query={validators}>
            {(v) => (
              <ul className="space-y-1">
                {v.map((a) => (
                  <li key={a}>
                    <Mono>{a}</Mono>
                  </li>
                ))}
              </ul>
            )}
          </QueryState>
          <div>
            <p className="mb-1 text-sm font-medium">Pending votes</p>
            <QueryState query={votes}>
              {(p) =>
                Object.keys(p).length === 0 ? (
                  <p className="text-sm text-muted-foreground">No pending votes on this node.</p>
                ) : (
                  <ul className="space-y-1 text-sm">
                    {Object.entries(p).map(([a, add]) => (
                      <li key={a}>
                        <span className={add ? "text-success" : "text-destructive"}>{add ? "Add" : "Remove"}</span>{" "}
                        <Mono>{a}</Mono>
                      </li>
                    ))}
                  </ul>
                )
              }
            </QueryState>
          </div>
        </CardContent>
      </Card>
      <Card className="gap-0 pb-0 lg:col-span-2">
        <CardHeader className="pb-4">
          <CardTitle className="text-base">Latest blocks</CardTitle>
        </CardHeader>
        <div className="border-t">
          {latest === undefined ? (
            <p className="px-5 py-4 text-sm text-muted-foreground">Waiting for the block number…</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Block</TableHead>
                  <TableHead className="hidden sm:table-cell">Hash</TableHead>
                  <TableHead>Txs</TableHead>
                  <TableHead className="hidden md:table-cell">Time</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {latestBlockNumbers(latest, 10).map((b) => (
                  <BlockRow key={b} nodeId={n.id} networkId={networkId} number={b} />
                ))}
              </TableBody>
            </Table>
          )}
        </div>
      </Card>
    </div>
  );
}
