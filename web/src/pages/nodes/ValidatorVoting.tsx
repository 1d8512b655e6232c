import { Loader2Icon, TriangleAlertIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link } from "react-router";
import type { NodeInfo } from "@/api/client";
import { RoleGate } from "@/app/RoleGate";
import { Mono } from "@/components/DetailField";
import { EmptyState, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import {
  useBesuPendingVotesQuery,
  useBesuValidatorsQuery,
  useDiscardVoteMutation,
  useProposeVoteMutation,
} from "@/data/nodes/besu-rpc";
import { useNodesQuery } from "@/data/nodes/nodes-query";
import { showMutationError } from "@/data/error-toast";
import { showToast } from "@/lib/toast";
import { ADDRESS_PATTERN } from "@/pages/networks/besu-form";
import { quorumWarning } from "@/pages/nodes/besu-rpc";
import { NodeStatusBadge } from "@/pages/nodes/NodeStatusBadge";

/** The Besu nodes of one network. */
export function NetworkNodes({ networkId }: { networkId: number }): ReactElement {
  const nodes = useNodesQuery({ page: 1, limit: 1000, networkId });
  return (
    <Card className="gap-0 py-0">
      <QueryState
        query={nodes}
        isEmpty={(d) => d.items.length === 0}
        empty={
          <EmptyState
            title="No nodes run this network yet"
            description="Create a Besu node with this network's genesis."
            action={
              <RoleGate denied={["viewer"]}>
                <Button asChild>
                  <Link to={`/nodes/besu/create?networkId=${networkId}`}>Create Besu node</Link>
                </Button>
              </RoleGate>
            }
          />
        }
      >
        {(d) => (
          <Table data-testid="network-nodes">
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Status</TableHead>
                <TableHead className="hidden md:table-cell">RPC</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {d.items.map((n) => (
                <TableRow key={n.id}>
                  <TableCell>
                    <Link to={`/nodes/${n.id}`} className="font-medium hover:underline">
                      {n.name}
                    </Link>
                  </TableCell>
                  <TableCell>
                    <NodeStatusBadge status={n.status} />
                  </TableCell>
                  <TableCell className="hidden md:table-cell">
                    <Mono>{n.besuNode ? `${n.besuNode.rpcHost}:${n.besuNode.rpcPort}` : "—"}</Mono>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </QueryState>
    </Card>
  );
}

function VotePanel({ node }: { node: NodeInfo }): ReactElement {
  const validators = useBesuValidatorsQuery(node.id);
  const votes = useBesuPendingVotesQuery(node.id);
  const propose = useProposeVoteMutation();
  const discard = useDiscardVoteMutation();
  const [address, setAddress] = useState("");
  const [add, setAdd] = useState<"add" | "remove">("add");
  const [warning, setWarning] = useState<string>();
  const [error, setError] = useState<string>();

  const send = (force: boolean): void => {
    setError(undefined);
    if (!ADDRESS_PATTERN.test(address.trim())) return setError("0x and 40 hex digits");
    propose.mutate(
      { nodeId: node.id, validatorAddress: address.trim(), vote: add === "add", ...(force ? { force: true } : {}) },
      {
        onSuccess: () => {
          setWarning(undefined);
          showToast("success", "Vote proposed", {
            description: `${node.name} votes to ${add} ${address.trim()}; it counts once a majority of validators agree.`,
          });
        },
        onError: (e) => {
          const w = quorumWarning(e);
          if (w) setWarning(w);
          else showMutationError(e);
        },
      },
    );
  };

  return (
    <div className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end">
        <div className="grid gap-2">
          <Label htmlFor="vote-address">Validator address</Label>
          <Input
            id="vote-address"
            className="font-mono text-xs"
            placeholder="0x…"
            value={address}
            onChange={(e) => {
              setAddress(e.target.value);
              setWarning(undefined);
            }}
          />
        </div>
        <Select value={add} onValueChange={(v) => setAdd(v as "add" | "remove")}>
          <SelectTrigger aria-label="Vote" className="w-32">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="add">Add</SelectItem>
            <SelectItem value="remove">Remove</SelectItem>
          </SelectContent>
        </Select>
        <Button onClick={() => send(false)} disabled={propose.isPending}>
          {propose.isPending && <Loader2Icon className="animate-spin" />}
          Propose vote
        </Button>
      </div>
      <FieldError message={error} />
      {warning && (
        <div
          role="alert"
          data-testid="quorum-warning"
          className="space-y-2 rounded-lg border border-warning/50 bg-warning/10 px-3 py-2 text-sm text-amber-700 dark:text-warning"
        >
          <p className="flex items-center gap-2 font-medium">
            <TriangleAlertIcon className="size-4" /> This vote weakens the 2/3 quorum
          </p>
          <p>{warning}.</p>
          <div className="flex gap-2">
            <Button size="sm" variant="destructive" onClick={() => send(true)} disabled={propose.isPending}>
              Vote anyway
            </Button>
            <Button size="sm" variant="outline" onClick={() => setWarning(undefined)}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      <div className="grid gap-4 md:grid-cols-2">
        <div>
          <p className="mb-1 text-sm font-medium">Validators at the latest block</p>
          <QueryState query={validators}>
            {(v) => (
              <ul className="space-y-1">
                {v.map((a) => (
                  <li key={a}>
                    <button type="button" className="hover:underline" onClick={() => setAddress(a)}>
                      <Mono>{a}</Mono>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </QueryState>
        </div>
        <div>
          <p className="mb-1 text-sm font-medium">Pending votes of {node.name}</p>
          <QueryState query={votes}>
            {(p) =>
              Object.keys(p).length === 0 ? (
                <p className="text-sm text-muted-foreground">None.</p>
              ) : (
                <ul className="space-y-1 text-sm">
                  {Object.entries(p).map(([a, yes]) => (
                    <li key={a} className="flex flex-wrap items-center gap-2">
                      <span className={yes ? "text-success" : "text-destructive"}>{yes ? "Add" : "Remove"}</span>
                      <Mono>{a}</Mono>
                      <Button
                        size="sm"
                        variant="ghost"
                        disabled={discard.isPending}
                        onClick={() => discard.mutate({ nodeId: node.id, validatorAddress: a })}
                      >
                        Discard
                      </Button>
                    </li>
                  ))}
                </ul>
              )
            }
          </QueryState>
        </div>
      </div>
    </div>
  );
}

/** Propose adding or removing QBFT validators through one of the network's running nodes. */
export function ValidatorVoting({ networkId }: { networkId: number }): ReactElement {
  const nodes = useNodesQuery({ page: 1, limit: 1000, networkId, status: "RUNNING" });
  const [picked, setPicked] = useState("");
  const list = nodes.data?.items ?? [];
  const node = list.find((n) => String(n.id) === picked) ?? list[0];
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Validator voting</CardTitle>
        <CardDescription>
          Votes go through a running node of this network. QBFT needs more than 2/3 of validators online; ChainLaunch
          warns before a vote that weakens that margin.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <QueryState
          query={nodes}
          isEmpty={(d) => d.items.length === 0}
          empty={<p className="text-sm text-muted-foreground">Start a node of this network to vote through it.</p>}
        >
          {() => (
            <>
              <div className="grid max-w-xs gap-2">
                <Label htmlFor="vote-node">Vote through</Label>
                <Select value={node ? String(node.id) : ""} onValueChange={setPicked}>
                  <SelectTrigger id="vote-node" aria-label="Vote through">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {list.map((n) => (
                      <SelectItem key={n.id} value={String(n.id)}>
                        {n.name}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              </div>
              {node && (
                <RoleGate
                  denied={["viewer"]}
                  fallback={<p className="text-sm text-muted-foreground">Viewers can't vote.</p>}
                >
                  <VotePanel key={node.id} node={node} />
                </RoleGate>
              )}
            </>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
