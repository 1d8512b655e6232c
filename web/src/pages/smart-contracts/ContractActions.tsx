import { Loader2Icon, RocketIcon, SendIcon, SearchIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { RoleGate } from "@/app/RoleGate";
import { DetailField, Mono } from "@/components/DetailField";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useKeysQuery } from "@/data/keys/keys-query";
import {
  useContractCallMutation,
  useContractDeployMutation,
  useContractSendMutation,
  type ContractTx,
} from "@/data/nodes/contracts";
import { abiFunctions, normalizeAbi } from "@/pages/networks/block-format";
import { AbiTextarea } from "@/pages/networks/BesuBlockPage";
import { parseArgs } from "@/pages/smart-contracts/contract-args";

/** The secp256k1 keys that can sign (their address pays the gas). */
function SignerSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
}): ReactElement {
  const keys = useKeysQuery({ page: 1, pageSize: 100, algorithm: "EC", curve: "secp256k1" });
  const items = keys.data?.items ?? [];
  return (
    <Select value={value} onValueChange={onChange}>
      <SelectTrigger id={id} aria-label="Signing key">
        <SelectValue placeholder={keys.isLoading ? "Loading keys…" : "Choose a secp256k1 key"} />
      </SelectTrigger>
      <SelectContent>
        {items.map((k) => (
          <SelectItem key={k.id} value={String(k.id)}>
            {k.name} · {k.ethereumAddress}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

function TxResult({ tx }: { tx: ContractTx }): ReactElement {
  return (
    <dl className="grid gap-2 sm:grid-cols-2" data-testid="contract-tx">
      <DetailField label="Status">
        <Badge variant={tx.status === "success" ? "success" : "destructive"}>{tx.status}</Badge>
      </DetailField>
      <DetailField label="Block">{tx.blockNumber}</DetailField>
      <DetailField label="Transaction" className="sm:col-span-2">
        <Mono>{tx.transactionHash}</Mono>
      </DetailField>
      {tx.contractAddress && (
        <DetailField label="Contract address" className="sm:col-span-2">
          <Mono>{tx.contractAddress}</Mono>
        </DetailField>
      )}
    </dl>
  );
}

/** Deploys creation bytecode (constructor arguments encoded with the ABI) signed by a managed key. */
export function DeployContract({
  nodeId,
  onDeployed,
}: {
  nodeId: number;
  onDeployed: (address: string) => void;
}): ReactElement {
  const deploy = useContractDeployMutation();
  const [keyId, setKeyId] = useState("");
  const [bytecode, setBytecode] = useState("");
  const [abiText, setAbiText] = useState("");
  const [argsText, setArgsText] = useState("");
  const abi = abiText.trim() ? normalizeAbi(abiText) : undefined;
  const args = parseArgs(argsText);
  const validBytecode = /^0x([0-9a-fA-F]{2})+$/.test(bytecode.trim());
  const ready = keyId && validBytecode && !(abi && "error" in abi) && "args" in args;
  return (
    <RoleGate
      denied={["viewer"]}
      fallback={<p className="text-sm text-muted-foreground">Viewers cannot deploy contracts.</p>}
    >
      <form
        className="grid gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (!ready || !("args" in args)) return;
          deploy.mutate(
            {
              nodeId,
              keyId: Number(keyId),
              bytecode: bytecode.trim(),
              abi: abi && "abi" in abi ? abi.abi : undefined,
              args: args.args,
            },
            { onSuccess: (tx) => tx.contractAddress && onDeployed(tx.contractAddress) },
          );
        }}
      >
        <div className="grid gap-2">
          <Label htmlFor="deploy-key">Signing key</Label>
          <SignerSelect id="deploy-key" value={keyId} onChange={setKeyId} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="deploy-bytecode">Creation bytecode</Label>
          <textarea
            id="deploy-bytecode"
            rows={3}
            className="rounded-md border bg-background p-2 font-mono text-xs"
            placeholder="0x6080…"
            value={bytecode}
            onChange={(e) => setBytecode(e.target.value)}
          />
          <FieldError message={bytecode.trim() && !validBytecode ? "0x-hex, whole bytes" : undefined} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="deploy-abi">ABI (for constructor arguments)</Label>
          <AbiTextarea id="deploy-abi" rows={3} value={abiText} onChange={setAbiText} />
          <FieldError message={abi && "error" in abi ? abi.error : undefined} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="deploy-args">Constructor arguments</Label>
          <Input
            id="deploy-args"
            className="font-mono text-xs"
            placeholder='["42"]'
            value={argsText}
            onChange={(e) => setArgsText(e.target.value)}
          />
          <FieldError message={"error" in args ? args.error : undefined} />
        </div>
        <div>
          <Button type="submit" disabled={!ready || deploy.isPending}>
            {deploy.isPending ? <Loader2Icon className="animate-spin" /> : <RocketIcon />} Deploy
          </Button>
        </div>
        {deploy.data && <TxResult tx={deploy.data} />}
      </form>
    </RoleGate>
  );
}

/** Calls a function: read-only ones with eth_call, others in a transaction signed by a managed key. */
export function InteractContract({ nodeId, address }: { nodeId: number; address: string }): ReactElement {
  const call = useContractCallMutation();
  const send = useContractSendMutation();
  const [abiText, setAbiText] = useState("");
  const [fn, setFn] = useState("");
  const [argsText, setArgsText] = useState("");
  const [keyId, setKeyId] = useState("");
  const abi = abiText.trim() ? normalizeAbi(abiText) : undefined;
  const fns = abi && "abi" in abi ? abiFunctions(abi.abi) : [];
  const chosen = fns.find((f) => f.signature === fn);
  const args = parseArgs(argsText);
  const base =
    chosen && abi && "abi" in abi && "args" in args
      ? { nodeId, address, abi: abi.abi, functionName: chosen.name, args: args.args }
      : undefined;
  return (
    <div className="grid gap-3">
      <div className="grid gap-2">
        <Label htmlFor="interact-abi">Interface ABI</Label>
        <AbiTextarea id="interact-abi" rows={4} value={abiText} onChange={setAbiText} />
        <FieldError message={abi && "error" in abi ? abi.error : undefined} />
      </div>
      {fns.length > 0 && (
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="grid content-start gap-2">
            <Label htmlFor="interact-fn">Function</Label>
            <Select value={fn} onValueChange={setFn}>
              <SelectTrigger id="interact-fn" aria-label="Function">
                <SelectValue placeholder="Choose a function" />
              </SelectTrigger>
              <SelectContent>
                {fns.map((f) => (
                  <SelectItem key={f.signature} value={f.signature}>
                    {f.signature} {f.readOnly ? "· read" : "· write"}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="grid content-start gap-2">
            <Label htmlFor="interact-args">Arguments</Label>
            <Input
              id="interact-args"
              className="font-mono text-xs"
              placeholder='["42"]'
              value={argsText}
              onChange={(e) => setArgsText(e.target.value)}
            />
            <FieldError message={"error" in args ? args.error : undefined} />
          </div>
        </div>
      )}
      {chosen?.readOnly && base && (
        <div className="grid gap-2">
          <div>
            <Button type="button" variant="outline" disabled={call.isPending} onClick={() => call.mutate(base)}>
              {call.isPending ? <Loader2Icon className="animate-spin" /> : <SearchIcon />} Call {chosen.name}
            </Button>
          </div>
          {call.data && (
            <DetailField label="Result">
              <span data-testid="call-result">
                <Mono>{JSON.stringify(call.data.result)}</Mono>
              </span>
            </DetailField>
          )}
        </div>
      )}
      {chosen && !chosen.readOnly && base && (
        <RoleGate
          denied={["viewer"]}
          fallback={<p className="text-sm text-muted-foreground">Viewers cannot send transactions.</p>}
        >
          <div className="grid gap-2 sm:max-w-md">
            <Label htmlFor="interact-key">Signing key</Label>
            <SignerSelect id="interact-key" value={keyId} onChange={setKeyId} />
            <div>
              <Button
                type="button"
                disabled={!keyId || send.isPending}
                onClick={() => send.mutate({ ...base, keyId: Number(keyId) })}
              >
                {send.isPending ? <Loader2Icon className="animate-spin" /> : <SendIcon />} Send {chosen.name}
              </Button>
            </div>
          </div>
          {send.data && <TxResult tx={send.data} />}
        </RoleGate>
      )}
    </div>
  );
}
