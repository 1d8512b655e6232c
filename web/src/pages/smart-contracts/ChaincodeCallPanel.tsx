import { Loader2Icon, PlayIcon, SearchIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Mono } from "@/components/DetailField";
import { Button } from "@/components/ui/button";
import { Input, Textarea } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { callChaincode } from "@/data/chaincodes/chaincode-mutations";
import { errorMessage } from "@/lib/utils";
import { argsFromLines, type CallRecord } from "@/pages/smart-contracts/contract-metadata";

/** Calls a chaincode and records the call; shared by the chaincode screen and the playground. */
export async function runCall(
  chaincodeId: number,
  kind: "invoke" | "query",
  fn: string,
  args: string[],
  keyId?: string,
): Promise<CallRecord> {
  const started = performance.now();
  const at = new Date().toISOString();
  try {
    const r = await callChaincode(chaincodeId, kind, {
      function: fn,
      args,
      ...(keyId ? { key_id: keyId } : {}),
    });
    return {
      at,
      fn,
      args,
      kind,
      ok: true,
      result: typeof r.result === "string" ? r.result : JSON.stringify(r.result, null, 2),
      txId: r.transaction_id,
      ms: Math.round(performance.now() - started),
    };
  } catch (e) {
    return { at, fn, args, kind, ok: false, result: errorMessage(e), ms: Math.round(performance.now() - started) };
  }
}

/** The outcome of one call. */
export function CallOutcome({ rec }: { rec: CallRecord }): ReactElement {
  return (
    <div className="grid gap-1" data-testid="call-result">
      <p className={rec.ok ? "text-sm text-success" : "text-sm text-destructive"} role={rec.ok ? "status" : "alert"}>
        {rec.ok ? `${rec.kind === "invoke" ? "Committed" : "Evaluated"} in ${rec.ms} ms` : "Failed"}
      </p>
      {rec.txId && (
        <p className="text-xs text-muted-foreground">
          Transaction <Mono>{rec.txId}</Mono>
        </p>
      )}
      <pre className="max-h-64 overflow-auto rounded-md bg-muted/50 p-2 font-mono text-xs whitespace-pre-wrap">
        {rec.result || "(empty)"}
      </pre>
    </div>
  );
}

/** Free-form invoke/query: function, one argument per line, optional signing key. */
export function ChaincodeCallPanel({
  chaincodeId,
  onCall,
  canInvoke,
}: {
  chaincodeId: number;
  onCall?: (rec: CallRecord) => void;
  canInvoke: boolean;
}): ReactElement {
  const [fn, setFn] = useState("");
  const [args, setArgs] = useState("");
  const [keyId, setKeyId] = useState("");
  const [busy, setBusy] = useState<"invoke" | "query">();
  const [last, setLast] = useState<CallRecord>();
  const go = async (kind: "invoke" | "query"): Promise<void> => {
    setBusy(kind);
    const rec = await runCall(chaincodeId, kind, fn.trim(), argsFromLines(args), keyId.trim() || undefined);
    setBusy(undefined);
    setLast(rec);
    onCall?.(rec);
  };
  return (
    <div className="grid gap-3">
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor={`fn-${chaincodeId}`}>Function</Label>
          <Input id={`fn-${chaincodeId}`} value={fn} onChange={(e) => setFn(e.target.value)} placeholder="ReadAsset" />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`key-${chaincodeId}`}>Key id (optional)</Label>
          <Input
            id={`key-${chaincodeId}`}
            value={keyId}
            onChange={(e) => setKeyId(e.target.value)}
            placeholder="the org admin when empty"
          />
        </div>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`args-${chaincodeId}`}>Arguments (one per line)</Label>
        <Textarea id={`args-${chaincodeId}`} rows={3} value={args} onChange={(e) => setArgs(e.target.value)} />
      </div>
      <div className="flex gap-2">
        {canInvoke && (
          <Button type="button" onClick={() => void go("invoke")} disabled={!fn.trim() || busy !== undefined}>
            {busy === "invoke" ? <Loader2Icon className="animate-spin" /> : <PlayIcon />} Invoke
          </Button>
        )}
        <Button
          type="button"
          variant="outline"
          onClick={() => void go("query")}
          disabled={!fn.trim() || busy !== undefined}
        >
          {busy === "query" ? <Loader2Icon className="animate-spin" /> : <SearchIcon />} Query
        </Button>
      </div>
      {last && <CallOutcome rec={last} />}
    </div>
  );
}
