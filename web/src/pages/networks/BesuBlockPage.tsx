import { ChevronDownIcon, ChevronLeftIcon, ChevronRightIcon, ChevronUpIcon, Loader2Icon } from "lucide-react";
import { Fragment, useState, type ReactElement } from "react";
import { Link, useParams } from "react-router";
import { CopyButton } from "@/components/CopyButton";
import { DetailField, Mono } from "@/components/DetailField";
import { EmptyState, ErrorState, PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useBesuNetworkQuery } from "@/data/besu-networks/besu-network-query";
import { decodeInput, useBesuBlockQuery, useBesuChainQuery, type DecodedInput } from "@/data/nodes/besu-rpc";
import { useNodeQuery } from "@/data/nodes/node-query";
import { errorMessage, formatDateTime } from "@/lib/utils";
import {
  blockHeader,
  formatArg,
  normalizeAbi,
  parseBlockNumber,
  selectorOf,
  txRows,
  type TxRow,
} from "@/pages/networks/block-format";
import { hexToNumber } from "@/pages/nodes/besu-rpc";

/**
 * Calldata decoding: with a pasted ABI the function and its arguments, without one the selector and
 * words. With `abi` given the caller owns the ABI field; otherwise the decoder shows its own.
 */
export function InputDecoder({
  nodeId,
  input,
  abi: outerAbi,
}: {
  nodeId: number;
  input: string;
  abi?: string;
}): ReactElement {
  const [ownAbi, setAbi] = useState("");
  const abi = outerAbi ?? ownAbi;
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ decoded?: DecodedInput; error?: string }>();
  const decode = async (): Promise<void> => {
    let abiText: string | undefined;
    if (abi.trim()) {
      const n = normalizeAbi(abi);
      if ("error" in n) return setResult({ error: n.error });
      abiText = n.abi;
    }
    setBusy(true);
    try {
      setResult({ decoded: await decodeInput(nodeId, input, abiText) });
    } catch (e) {
      setResult({ error: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };
  const d = result?.decoded;
  return (
    <div className="grid gap-3">
      {outerAbi === undefined && (
        <div className="grid gap-1">
          <Label htmlFor={`abi-${input.slice(0, 18)}`} className="text-xs">
            Contract ABI (optional)
          </Label>
          <AbiTextarea id={`abi-${input.slice(0, 18)}`} value={abi} onChange={setAbi} />
        </div>
      )}
      <div>
        <Button type="button" size="sm" variant="outline" onClick={() => void decode()} disabled={busy}>
          {busy && <Loader2Icon className="animate-spin" />}
          {abi.trim() ? "Decode with ABI" : "Decode without ABI"}
        </Button>
      </div>
      {result?.error && (
        <p role="alert" className="text-sm text-destructive">
          {result.error}
        </p>
      )}
      {d && (
        <dl className="grid gap-2 text-sm" data-testid="decoded-input">
          <DetailField label="Selector">
            <Mono>{d.selector}</Mono>
          </DetailField>
          {d.functionName && (
            <DetailField label="Function">
              <Mono>{d.functionName}</Mono>
            </DetailField>
          )}
          {d.args && (
            <DetailField label="Arguments">
              {d.args.length === 0 ? (
                <span className="text-muted-foreground">None</span>
              ) : (
                <ol className="grid gap-0.5">
                  {d.args.map((a, i) => (
                    <li key={i}>
                      <span className="mr-2 text-xs text-muted-foreground">{i}</span>
                      <Mono>{formatArg(a)}</Mono>
                    </li>
                  ))}
                </ol>
              )}
            </DetailField>
          )}
          {d.words && (
            <DetailField label="Argument words (32 bytes each)">
              {d.words.length === 0 ? (
                <span className="text-muted-foreground">None</span>
              ) : (
                <ol className="grid gap-0.5">
                  {d.words.map((w, i) => (
                    <li key={i}>
                      <Mono>{w}</Mono>
                    </li>
                  ))}
                </ol>
              )}
            </DetailField>
          )}
        </dl>
      )}
    </div>
  );
}

/** The ABI paste box (JSON array or build artifact). */
export function AbiTextarea({
  id,
  value,
  onChange,
  rows = 3,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  rows?: number;
}): ReactElement {
  return (
    <textarea
      id={id}
      rows={rows}
      placeholder='[{"type":"function","name":"transfer",…}] or a build artifact with "abi"'
      className="min-h-16 w-full rounded-md border bg-transparent px-3 py-2 font-mono text-xs shadow-xs outline-none focus-visible:ring-2 focus-visible:ring-ring/50"
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

function short(v: string | undefined): string {
  if (!v) return "—";
  return v.length > 16 ? `${v.slice(0, 10)}…${v.slice(-6)}` : v;
}

function TxDetail({ nodeId, tx }: { nodeId: number; tx: TxRow }): ReactElement {
  const selector = selectorOf(tx.input);
  return (
    <div className="grid gap-4 p-2 md:grid-cols-2">
      <dl className="grid content-start gap-3">
        <DetailField label="Hash">
          <Mono>{tx.hash}</Mono>
        </DetailField>
        <DetailField label="From">
          <Mono>{tx.from ?? "—"}</Mono>
        </DetailField>
        <DetailField label="To">
          {tx.creation ? <Badge variant="secondary">Contract creation</Badge> : <Mono>{tx.to}</Mono>}
        </DetailField>
        <div className="grid grid-cols-2 gap-3">
          <DetailField label="Nonce">{tx.nonce ?? "—"}</DetailField>
          <DetailField label="Gas price">{tx.gasPrice ?? "—"}</DetailField>
        </div>
        <DetailField label={`Input data (${(tx.input.length - 2) / 2} bytes)`}>
          <div className="flex items-start gap-1">
            <pre className="max-h-40 flex-1 overflow-auto rounded-md bg-muted/50 p-2 font-mono text-xs break-all whitespace-pre-wrap">
              {tx.input}
            </pre>
            <CopyButton value={tx.input} label="Copy input data" />
          </div>
        </DetailField>
      </dl>
      <div>
        {tx.creation ? (
          <p className="text-sm text-muted-foreground">
            A contract creation: the input is the contract's bytecode with its constructor arguments.
          </p>
        ) : selector ? (
          <InputDecoder nodeId={nodeId} input={tx.input} />
        ) : (
          <p className="text-sm text-muted-foreground">No calldata: a plain value transfer.</p>
        )}
      </div>
    </div>
  );
}

function Transactions({ nodeId, txs }: { nodeId: number; txs: TxRow[] }): ReactElement {
  const [open, setOpen] = useState<string>();
  if (txs.length === 0) return <EmptyState title="No transactions" description="This block is empty." />;
  return (
    <Table data-testid="block-transactions">
      <TableHeader>
        <TableRow>
          <TableHead>Hash</TableHead>
          <TableHead className="hidden md:table-cell">From</TableHead>
          <TableHead className="hidden md:table-cell">To</TableHead>
          <TableHead className="text-right">Value</TableHead>
          <TableHead className="hidden text-right sm:table-cell">Gas</TableHead>
          <TableHead className="w-10">
            <span className="sr-only">Details</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {txs.map((t) => {
          const expanded = open === t.hash;
          return (
            <Fragment key={t.hash}>
              <TableRow data-testid={`tx-${t.hash}`}>
                <TableCell>
                  <Mono>{short(t.hash)}</Mono>
                </TableCell>
                <TableCell className="hidden md:table-cell">
                  <Mono>{short(t.from)}</Mono>
                </TableCell>
                <TableCell className="hidden md:table-cell">
                  {t.creation ? <Badge variant="secondary">Create</Badge> : <Mono>{short(t.to)}</Mono>}
                </TableCell>
                <TableCell className="text-right tabular-nums">{t.value}</TableCell>
                <TableCell className="hidden text-right tabular-nums sm:table-cell">
                  {t.gas?.toLocaleString("en-US") ?? "—"}
                </TableCell>
                <TableCell>
                  <Button
                    size="icon-sm"
                    variant="ghost"
                    aria-expanded={expanded}
                    aria-label={`${expanded ? "Hide" : "Show"} details of ${t.hash}`}
                    onClick={() => setOpen(expanded ? undefined : t.hash)}
                  >
                    {expanded ? <ChevronUpIcon /> : <ChevronDownIcon />}
                  </Button>
                </TableCell>
              </TableRow>
              {expanded && (
                <TableRow className="hover:bg-transparent">
                  <TableCell colSpan={6} className="whitespace-normal">
                    <TxDetail nodeId={nodeId} tx={t} />
                  </TableCell>
                </TableRow>
              )}
            </Fragment>
          );
        })}
      </TableBody>
    </Table>
  );
}

/** One block read through a Besu node's RPC: header, neighbours and transactions with decoded input. */
export function BesuBlockPage(): ReactElement {
  const params = useParams();
  const networkId = Number(params.networkId);
  const nodeId = Number(params.nodeId);
  const number = parseBlockNumber(params.blockNumber);
  const valid = number !== undefined && Number.isInteger(nodeId) && nodeId > 0;
  const node = useNodeQuery(nodeId);
  const network = useBesuNetworkQuery(networkId);
  const block = useBesuBlockQuery(nodeId, String(number ?? 0), true, valid);
  const chain = useBesuChainQuery(nodeId, valid);
  const latest = hexToNumber(chain.data?.blockNumber);
  const base = `/networks/besu/${networkId}/${nodeId}/blocks`;

  if (!valid) {
    return <ErrorState error={new Error(`"${params.blockNumber ?? ""}" is not a block number`)} />;
  }
  const hasNext = latest === undefined || number < latest;
  return (
    <div className="space-y-6">
      <PageHeader
        title={`Block #${number}`}
        description={
          <>
            Read through{" "}
            <Link to={`/nodes/${nodeId}`} className="hover:underline">
              {node.data?.name ?? `node ${nodeId}`}
            </Link>{" "}
            of{" "}
            <Link to={`/networks/${networkId}/besu`} className="hover:underline">
              {network.data?.name ?? `network ${networkId}`}
            </Link>
            {latest !== undefined && <> · latest block {latest}</>}
          </>
        }
        actions={
          <>
            <Button asChild variant="outline" size="sm">
              {number === 0 ? (
                <span aria-disabled="true" className="pointer-events-none opacity-50">
                  <ChevronLeftIcon /> Previous
                </span>
              ) : (
                <Link to={`${base}/${number - 1}`}>
                  <ChevronLeftIcon /> Previous
                </Link>
              )}
            </Button>
            <Button asChild variant="outline" size="sm">
              {hasNext ? (
                <Link to={`${base}/${number + 1}`}>
                  Next <ChevronRightIcon />
                </Link>
              ) : (
                <span aria-disabled="true" className="pointer-events-none opacity-50">
                  Next <ChevronRightIcon />
                </span>
              )}
            </Button>
          </>
        }
      />
      <QueryState query={block}>
        {(b) => {
          if (!b) {
            return (
              <Card>
                <EmptyState
                  title="No such block"
                  description={`The node has no block ${number}${latest !== undefined ? `; its latest is ${latest}` : ""}.`}
                />
              </Card>
            );
          }
          const h = blockHeader(b);
          const txs = txRows(b);
          return (
            <>
              <Card>
                <CardContent>
                  <dl className="grid gap-5 sm:grid-cols-2" data-testid="block-header">
                    <DetailField label="Number">
                      <span className="font-mono">{h.number ?? number}</span>
                    </DetailField>
                    <DetailField label="Timestamp">{h.time ? formatDateTime(h.time) : "—"}</DetailField>
                    <DetailField label="Hash" className="sm:col-span-2">
                      <Mono>{h.hash ?? "—"}</Mono>
                    </DetailField>
                    <DetailField label="Parent hash" className="sm:col-span-2">
                      {h.parentHash && number > 0 ? (
                        <Link to={`${base}/${number - 1}`} className="hover:underline">
                          <Mono>{h.parentHash}</Mono>
                        </Link>
                      ) : (
                        <Mono>{h.parentHash ?? "—"}</Mono>
                      )}
                    </DetailField>
                    <DetailField label="Miner / coinbase">
                      <Mono>{h.miner ?? "—"}</Mono>
                    </DetailField>
                    <DetailField label="Gas used / limit">
                      <span className="tabular-nums">{h.gas}</span>
                    </DetailField>
                    <DetailField label="Extra data" className="sm:col-span-2">
                      <Mono className="block max-h-24 overflow-auto">{h.extraData ?? "—"}</Mono>
                      {h.extraText && <span className="mt-1 block text-xs text-muted-foreground">“{h.extraText}”</span>}
                    </DetailField>
                  </dl>
                </CardContent>
              </Card>
              <Card className="gap-0 pb-0">
                <CardHeader className="pb-4">
                  <CardTitle className="text-base">Transactions</CardTitle>
                  <CardDescription>
                    {h.txCount} transaction{h.txCount === 1 ? "" : "s"}; open one for its input data and decoding.
                  </CardDescription>
                </CardHeader>
                <div className="border-t">
                  <Transactions nodeId={nodeId} txs={txs} />
                </div>
              </Card>
            </>
          );
        }}
      </QueryState>
    </div>
  );
}
