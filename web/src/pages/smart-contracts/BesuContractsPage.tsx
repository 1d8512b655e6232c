import { InfoIcon, Loader2Icon, SearchIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link, useSearchParams } from "react-router";
import { CopyButton } from "@/components/CopyButton";
import { DetailField, Mono } from "@/components/DetailField";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { fetchBalance, fetchCode, fetchStorage } from "@/data/nodes/besu-rpc";
import { useNodesQuery } from "@/data/nodes/nodes-query";
import {
  abiFunctions,
  codeSize,
  normalizeAbi,
  selectorOf,
  slotPosition,
  storageViews,
} from "@/pages/networks/block-format";
import { AbiTextarea, InputDecoder } from "@/pages/networks/BesuBlockPage";
import { ADDRESS_PATTERN } from "@/pages/networks/besu-form";
import { formatEther, toBigInt } from "@/pages/nodes/besu-rpc";
import { NodeStatusBadge } from "@/pages/nodes/NodeStatusBadge";
import { DeployContract, InteractContract } from "@/pages/smart-contracts/ContractActions";
import { errorMessage } from "@/lib/utils";

/** Code and balance at an address (eth_getCode, eth_getBalance). */
function CodeAt({ nodeId, address }: { nodeId: number; address: string }): ReactElement {
  const [busy, setBusy] = useState(false);
  const [res, setRes] = useState<{ code?: string; balance?: string; error?: string }>();
  const inspect = async (): Promise<void> => {
    setBusy(true);
    try {
      const [code, balance] = await Promise.all([fetchCode(nodeId, address), fetchBalance(nodeId, address)]);
      setRes({ code, balance });
    } catch (e) {
      setRes({ error: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };
  const size = res?.code !== undefined ? codeSize(res.code) : undefined;
  return (
    <div className="grid gap-3">
      <div>
        <Button type="button" variant="outline" onClick={() => void inspect()} disabled={busy}>
          {busy ? <Loader2Icon className="animate-spin" /> : <SearchIcon />} Read code and balance
        </Button>
      </div>
      {res?.error && (
        <p role="alert" className="text-sm text-destructive">
          {res.error}
        </p>
      )}
      {res?.code !== undefined && (
        <dl className="grid gap-3 sm:grid-cols-2" data-testid="contract-code">
          <DetailField label="Account">
            {size ? (
              <Badge variant="success">
                Contract, {size} byte{size === 1 ? "" : "s"} of code
              </Badge>
            ) : (
              <Badge variant="secondary">No code (externally owned account)</Badge>
            )}
          </DetailField>
          <DetailField label="Balance">{formatEther(toBigInt(res.balance))}</DetailField>
          {size ? (
            <DetailField label="Runtime bytecode" className="sm:col-span-2">
              <div className="flex items-start gap-1">
                <pre className="max-h-40 flex-1 overflow-auto rounded-md bg-muted/50 p-2 font-mono text-xs break-all whitespace-pre-wrap">
                  {res.code}
                </pre>
                <CopyButton value={res.code} label="Copy bytecode" />
              </div>
            </DetailField>
          ) : null}
        </dl>
      )}
    </div>
  );
}

/** One storage slot (eth_getStorageAt) shown as hex, decimal and address. */
function StorageReader({ nodeId, address }: { nodeId: number; address: string }): ReactElement {
  const [slot, setSlot] = useState("0");
  const [busy, setBusy] = useState(false);
  const [res, setRes] = useState<{ word?: string; slot?: string; error?: string }>();
  const position = slotPosition(slot);
  const read = async (): Promise<void> => {
    if (!position) return;
    setBusy(true);
    try {
      setRes({ word: await fetchStorage(nodeId, address, position), slot: position });
    } catch (e) {
      setRes({ error: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };
  const views = res?.word !== undefined ? storageViews(res.word) : undefined;
  return (
    <form
      className="grid gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        void read();
      }}
    >
      <div className="grid content-start gap-2 sm:max-w-sm">
        <Label htmlFor="storage-slot">Slot</Label>
        <div className="flex gap-2">
          <Input
            id="storage-slot"
            className="font-mono"
            value={slot}
            aria-invalid={!position}
            onChange={(e) => setSlot(e.target.value)}
          />
          <Button type="submit" variant="outline" disabled={busy || !position}>
            {busy && <Loader2Icon className="animate-spin" />} Read slot
          </Button>
        </div>
        <FieldError message={position ? undefined : "A slot number: decimal or 0x-hex, up to 32 bytes"} />
      </div>
      {res?.error && (
        <p role="alert" className="text-sm text-destructive">
          {res.error}
        </p>
      )}
      {views && (
        <dl className="grid gap-3" data-testid="storage-value">
          <DetailField label={`Slot ${res?.slot}`}>
            <Mono>{views.hex}</Mono>
          </DetailField>
          <DetailField label="As unsigned integer">
            <Mono>{views.decimal}</Mono>
          </DetailField>
          {views.address && (
            <DetailField label="As address">
              <Mono>{views.address}</Mono>
            </DetailField>
          )}
        </dl>
      )}
    </form>
  );
}

/** Functions of a pasted ABI, and calldata decoded with it through the node (GET /rpc/decode-input). */
function AbiTools({ nodeId }: { nodeId: number }): ReactElement {
  const [abiText, setAbiText] = useState("");
  const [calldata, setCalldata] = useState("");
  const parsed = abiText.trim() ? normalizeAbi(abiText) : undefined;
  const abi = parsed && "abi" in parsed ? parsed.abi : undefined;
  const fns = abi ? abiFunctions(abi) : [];
  const input = calldata.trim();
  const validInput = selectorOf(input) !== undefined && /^0x[0-9a-fA-F]*$/.test(input) && input.length % 2 === 0;
  return (
    <div className="grid gap-5 lg:grid-cols-2">
      <div className="grid content-start gap-2">
        <Label htmlFor="inspector-abi">Contract ABI</Label>
        <AbiTextarea id="inspector-abi" rows={8} value={abiText} onChange={setAbiText} />
        <FieldError message={parsed && "error" in parsed ? parsed.error : undefined} />
        {abi && (
          <div>
            <p className="mb-1 text-sm font-medium">Functions</p>
            {fns.length === 0 ? (
              <p className="text-sm text-muted-foreground">The ABI has no functions.</p>
            ) : (
              <ul className="grid gap-1" data-testid="abi-functions">
                {fns.map((f) => (
                  <li key={f.signature} className="flex flex-wrap items-center gap-2">
                    <Mono>{f.signature}</Mono>
                    <Badge variant={f.readOnly ? "secondary" : "outline"}>{f.readOnly ? "read-only" : "writes"}</Badge>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
      <div className="grid content-start gap-2">
        <Label htmlFor="inspector-calldata">Calldata</Label>
        <Input
          id="inspector-calldata"
          className="font-mono text-xs"
          placeholder="0x… (a transaction's input data)"
          value={calldata}
          aria-invalid={Boolean(input) && !validInput}
          onChange={(e) => setCalldata(e.target.value)}
        />
        <FieldError
          message={input && !validInput ? "0x-hex with at least a 4-byte selector, whole bytes" : undefined}
        />
        {validInput && <InputDecoder key={input} nodeId={nodeId} input={input} abi={abi ?? ""} />}
      </div>
    </div>
  );
}

/**
 * Smart contracts on Besu through a node (the browser reaches the node only through the server):
 * deploy, call and send signed with managed keys, and inspect code, balance, storage and calldata.
 */
export function BesuContractsPage(): ReactElement {
  const [params, setParams] = useSearchParams();
  const nodes = useNodesQuery({ page: 1, limit: 100, platform: "BESU" });
  const [address, setAddress] = useState(params.get("address") ?? "");
  const list = nodes.data?.items ?? [];
  const chosen =
    list.find((n) => String(n.id) === params.get("node")) ?? list.find((n) => n.status === "RUNNING") ?? list[0];
  const addr = address.trim();
  const validAddress = ADDRESS_PATTERN.test(addr);
  return (
    <div className="max-w-5xl space-y-6">
      <PageHeader
        title="Besu Smart Contracts"
        description="Deploy a contract from its ABI and bytecode, call and send to it, and inspect its code, balance and storage through one of your Besu nodes."
      />
      <Card>
        <CardContent className="flex gap-3 text-sm">
          <InfoIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
          <p className="text-muted-foreground">
            Transactions are signed inside ChainLaunch with one of your secp256k1 keys and sent through the chosen node;
            the key&apos;s address pays the gas. Private keys never leave the server.
          </p>
        </CardContent>
      </Card>
      <QueryState
        query={nodes}
        isEmpty={(d) => d.items.length === 0}
        empty={
          <Card>
            <EmptyState
              title="No Besu nodes"
              description="The inspector reads through a Besu node's RPC. Create a network with its nodes first."
              action={
                <Button asChild>
                  <Link to="/networks/besu/bulk-create">Create Besu network</Link>
                </Button>
              }
            />
          </Card>
        }
      >
        {() => (
          <>
            <Card>
              <CardHeader>
                <CardTitle className="text-base">Node and contract</CardTitle>
                <CardDescription>The node answers the RPC calls; it has to be running (or reachable).</CardDescription>
              </CardHeader>
              <CardContent className="grid gap-4 sm:grid-cols-2">
                <div className="grid content-start gap-2">
                  <Label htmlFor="inspector-node">Node</Label>
                  <Select
                    value={chosen ? String(chosen.id) : ""}
                    onValueChange={(v) =>
                      setParams(
                        (p) => {
                          p.set("node", v);
                          return p;
                        },
                        { replace: true },
                      )
                    }
                  >
                    <SelectTrigger id="inspector-node" aria-label="Node">
                      <SelectValue placeholder="Choose a node" />
                    </SelectTrigger>
                    <SelectContent>
                      {list.map((n) => (
                        <SelectItem key={n.id} value={String(n.id)}>
                          {n.name} · {n.status.toLowerCase()}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  {chosen && (
                    <p className="flex items-center gap-2 text-xs text-muted-foreground">
                      <NodeStatusBadge status={chosen.status} />
                      <Link to={`/nodes/${chosen.id}`} className="hover:underline">
                        Open node
                      </Link>
                    </p>
                  )}
                </div>
                <div className="grid content-start gap-2">
                  <Label htmlFor="inspector-address">Contract address</Label>
                  <Input
                    id="inspector-address"
                    className="font-mono text-xs"
                    placeholder="0x…"
                    value={address}
                    aria-invalid={Boolean(addr) && !validAddress}
                    onChange={(e) => setAddress(e.target.value)}
                  />
                  <FieldError message={addr && !validAddress ? "0x and 40 hex digits" : undefined} />
                </div>
              </CardContent>
            </Card>
            {chosen && (
              <Card>
                <CardHeader>
                  <CardTitle className="text-base">Deploy</CardTitle>
                  <CardDescription>Creation bytecode, with constructor arguments encoded by the ABI.</CardDescription>
                </CardHeader>
                <CardContent>
                  <DeployContract key={chosen.id} nodeId={chosen.id} onDeployed={setAddress} />
                </CardContent>
              </Card>
            )}
            {chosen && validAddress && (
              <Card>
                <CardHeader>
                  <CardTitle className="text-base">Interact</CardTitle>
                  <CardDescription>
                    Read-only functions run as eth_call; the others are sent as transactions and wait for their receipt.
                  </CardDescription>
                </CardHeader>
                <CardContent>
                  <InteractContract key={`${chosen.id}-${addr}`} nodeId={chosen.id} address={addr} />
                </CardContent>
              </Card>
            )}
            {chosen && validAddress && (
              <div className="grid gap-6 lg:grid-cols-2">
                <Card>
                  <CardHeader>
                    <CardTitle className="text-base">Code</CardTitle>
                    <CardDescription>eth_getCode and eth_getBalance at the latest block.</CardDescription>
                  </CardHeader>
                  <CardContent>
                    <CodeAt key={`${chosen.id}-${addr}`} nodeId={chosen.id} address={addr} />
                  </CardContent>
                </Card>
                <Card>
                  <CardHeader>
                    <CardTitle className="text-base">Storage</CardTitle>
                    <CardDescription>One 32-byte slot (eth_getStorageAt) at the latest block.</CardDescription>
                  </CardHeader>
                  <CardContent>
                    <StorageReader key={`${chosen.id}-${addr}`} nodeId={chosen.id} address={addr} />
                  </CardContent>
                </Card>
              </div>
            )}
            {chosen && (
              <Card>
                <CardHeader>
                  <CardTitle className="text-base">ABI and calldata</CardTitle>
                  <CardDescription>
                    Paste the ABI to list its functions; paste a transaction&apos;s input to decode it (without an ABI
                    you get the selector and raw words).
                  </CardDescription>
                </CardHeader>
                <CardContent>
                  <AbiTools nodeId={chosen.id} />
                </CardContent>
              </Card>
            )}
          </>
        )}
      </QueryState>
    </div>
  );
}
