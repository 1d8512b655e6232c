import { Loader2Icon, PlayIcon, SearchIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link, useParams } from "react-router";
import { ErrorState, LoadingRows, PageHeader } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, Textarea } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useMeQuery } from "@/data/auth/me-query";
import { useChaincodeMetadataQuery, useChaincodeQuery } from "@/data/chaincodes/chaincode-queries";
import { errorMessage, formatDateTime } from "@/lib/utils";
import { CallOutcome, ChaincodeCallPanel, runCall } from "@/pages/smart-contracts/ChaincodeCallPanel";
import {
  addToHistory,
  argsFromLines,
  contractFunctions,
  type CallRecord,
  type ContractFunction,
} from "@/pages/smart-contracts/contract-metadata";

const historyKey = (id: number): string => `chainlaunch.playground.${id}`;
function loadHistory(id: number): CallRecord[] {
  try {
    return JSON.parse(sessionStorage.getItem(historyKey(id)) ?? "[]") as CallRecord[];
  } catch {
    return [];
  }
}

/** One transaction's argument form and its Submit/Evaluate buttons (chosen by the metadata's tag). */
export function FunctionForm({
  chaincodeId,
  fn,
  canInvoke,
  onCall,
}: {
  chaincodeId: number;
  fn: ContractFunction;
  canInvoke: boolean;
  onCall: (r: CallRecord) => void;
}): ReactElement {
  const [values, setValues] = useState<string[]>(fn.params.map(() => ""));
  const [freeArgs, setFreeArgs] = useState("");
  const [keyId, setKeyId] = useState("");
  const [busy, setBusy] = useState<"invoke" | "query">();
  const [last, setLast] = useState<CallRecord>();
  const go = async (kind: "invoke" | "query"): Promise<void> => {
    setBusy(kind);
    const args = fn.paramsDeclared ? values : argsFromLines(freeArgs);
    const rec = await runCall(chaincodeId, kind, fn.call, args, keyId.trim() || undefined);
    setBusy(undefined);
    setLast(rec);
    onCall(rec);
  };
  const submit = fn.kind !== "evaluate" && canInvoke;
  const evaluate = fn.kind !== "submit";
  return (
    <div className="grid grid-cols-1 gap-3" data-testid={`fn-${fn.call}`}>
      <div className="grid gap-3 sm:grid-cols-2">
        {fn.params.map((p, i) => (
          <div key={p.name} className="grid gap-1">
            <Label htmlFor={`${fn.call}-${p.name}`}>
              {p.name} <span className="text-xs text-muted-foreground">({p.type})</span>
            </Label>
            <Input
              id={`${fn.call}-${p.name}`}
              value={values[i] ?? ""}
              onChange={(e) => setValues(values.map((v, j) => (j === i ? e.target.value : v)))}
            />
          </div>
        ))}
        {!fn.paramsDeclared && (
          <div className="grid gap-1 sm:col-span-2">
            <Label htmlFor={`${fn.call}-args`}>Arguments (one per line)</Label>
            <Textarea id={`${fn.call}-args`} rows={3} value={freeArgs} onChange={(e) => setFreeArgs(e.target.value)} />
            <p className="text-xs text-muted-foreground">
              The contract's metadata does not declare this function's parameters.
            </p>
          </div>
        )}
        <div className="grid gap-1">
          <Label htmlFor={`${fn.call}-key`}>Key id (optional)</Label>
          <Input id={`${fn.call}-key`} value={keyId} onChange={(e) => setKeyId(e.target.value)} />
        </div>
      </div>
      <div className="flex gap-2">
        {submit && (
          <Button type="button" onClick={() => void go("invoke")} disabled={busy !== undefined}>
            {busy === "invoke" ? <Loader2Icon className="animate-spin" /> : <PlayIcon />} Submit
          </Button>
        )}
        {evaluate && (
          <Button type="button" variant="outline" onClick={() => void go("query")} disabled={busy !== undefined}>
            {busy === "query" ? <Loader2Icon className="animate-spin" /> : <SearchIcon />} Evaluate
          </Button>
        )}
      </div>
      {last && <CallOutcome rec={last} />}
    </div>
  );
}

/** smart-contracts/fabric/{id}/playground: functions from the metadata, forms, and a history of calls. */
export function ChaincodePlaygroundPage(): ReactElement {
  const id = Number(useParams().id);
  const cc = useChaincodeQuery(id);
  const meta = useChaincodeMetadataQuery(id);
  const me = useMeQuery();
  const [history, setHistory] = useState<CallRecord[]>(() => loadHistory(id));
  const [chosen, setChosen] = useState<string>();
  const canInvoke = me.data?.role === "admin" || me.data?.role === "manager";
  const record = (r: CallRecord): void =>
    setHistory((h) => {
      const next = addToHistory(h, r);
      sessionStorage.setItem(historyKey(id), JSON.stringify(next));
      return next;
    });
  if (cc.isPending) return <LoadingRows />;
  if (cc.isError) return <ErrorState error={cc.error} what="Chaincode" />;
  const fns = contractFunctions(meta.data);
  const fn = fns.find((f) => f.call === chosen) ?? fns[0];
  return (
    <div className="grid grid-cols-1 gap-4">
      <PageHeader
        title={`${cc.data.name} playground`}
        description={
          <>
            Call the functions of{" "}
            <Link className="underline" to={`/sc/fabric/chaincodes/${id}`}>
              {cc.data.name}
            </Link>{" "}
            on channel {cc.data.network_name}.
          </>
        }
      />
      <div className="grid gap-4 lg:grid-cols-[16rem_minmax(0,1fr)]">
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Functions</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-1">
            {meta.isPending && <Loader2Icon className="animate-spin" aria-label="Loading metadata" />}
            {meta.isError && (
              <p className="text-sm text-muted-foreground">
                No contract metadata ({errorMessage(meta.error)}). Call functions by name instead.
              </p>
            )}
            {fns.map((f) => (
              <button
                key={f.call}
                type="button"
                onClick={() => setChosen(f.call)}
                className={`rounded px-2 py-1 text-left text-sm ${fn?.call === f.call ? "bg-primary/10 font-medium" : "hover:bg-muted/50"}`}
              >
                {f.call} <span className="text-xs text-muted-foreground">{f.kind === "unknown" ? "" : f.kind}</span>
              </button>
            ))}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-base">{fn ? fn.call : "Call a function"}</CardTitle>
          </CardHeader>
          <CardContent>
            {fn ? (
              <FunctionForm key={fn.call} chaincodeId={id} fn={fn} canInvoke={canInvoke} onCall={record} />
            ) : (
              <ChaincodeCallPanel chaincodeId={id} canInvoke={canInvoke} onCall={record} />
            )}
          </CardContent>
        </Card>
      </div>
      <Card>
        <CardHeader className="flex flex-row items-center justify-between">
          <CardTitle className="text-base">History</CardTitle>
          {history.length > 0 && (
            <Button
              size="sm"
              variant="outline"
              onClick={() => {
                sessionStorage.removeItem(historyKey(id));
                setHistory([]);
              }}
            >
              Clear
            </Button>
          )}
        </CardHeader>
        <CardContent>
          {history.length === 0 ? (
            <p className="text-sm text-muted-foreground">No calls yet.</p>
          ) : (
            <Table aria-label="Call history">
              <TableHeader>
                <TableRow>
                  <TableHead>When</TableHead>
                  <TableHead>Call</TableHead>
                  <TableHead>Outcome</TableHead>
                  <TableHead>Result</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {history.map((h, i) => (
                  <TableRow key={`${h.at}-${i}`}>
                    <TableCell className="whitespace-nowrap">{formatDateTime(h.at)}</TableCell>
                    <TableCell>
                      {h.kind} {h.fn}({h.args.join(", ")})
                    </TableCell>
                    <TableCell className={h.ok ? "text-success" : "text-destructive"}>
                      {h.ok ? "ok" : "failed"} · {h.ms} ms
                    </TableCell>
                    <TableCell className="max-w-md truncate font-mono text-xs" title={h.result}>
                      {h.result}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
