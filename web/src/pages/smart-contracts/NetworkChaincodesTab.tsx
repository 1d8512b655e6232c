import { PlusIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { OPERATORS } from "@/app/roles";
import { EmptyState, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useChaincodesQuery, useCommittedChaincodesQuery } from "@/data/chaincodes/chaincode-queries";
import type { Chaincode, CommittedChaincode } from "@/data/chaincodes/types";
import { errorMessage } from "@/lib/utils";
import { ChaincodeStatusBadge, OutsideBadge } from "@/pages/smart-contracts/ChaincodeStatusBadge";
import { CreateChaincodeDialog } from "@/pages/smart-contracts/FabricChaincodesPage";

/** What the channel has committed under a name: version and sequence, and whether this console did it. */
function OnChannel({ c, known }: { c: CommittedChaincode | undefined; known: boolean }): ReactElement {
  if (!c) return <span className="text-muted-foreground">{known ? "Not committed" : "—"}</span>;
  return (
    <span className="flex flex-wrap items-center gap-2">
      v{c.version} · sequence {c.sequence}
      {c.origin === "adopted" && <OutsideBadge />}
    </span>
  );
}

/**
 * The console's chaincodes on one channel beside what the channel has committed (read from a
 * peer): chaincodes committed outside this console are adopted by the server and show here with
 * their version and sequence; one that could not be recorded shows with the reason.
 */
export function NetworkChaincodeTable({
  chaincodes,
  committed,
}: {
  chaincodes: Chaincode[];
  /** undefined while the channel has not answered. */
  committed: CommittedChaincode[] | undefined;
}): ReactElement {
  const byName = new Map((committed ?? []).map((c) => [c.name, c]));
  const names = new Set(chaincodes.map((c) => c.name));
  const unrecorded = (committed ?? []).filter((c) => !names.has(c.name));
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>On the channel</TableHead>
          <TableHead>Latest definition here</TableHead>
          <TableHead>Server</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {chaincodes.map((c) => (
          <TableRow key={c.id}>
            <TableCell className="font-medium">
              <Link className="hover:underline" to={`/networks/fabric/chaincodes/${c.id}`}>
                {c.name}
              </Link>
            </TableCell>
            <TableCell>
              <OnChannel c={byName.get(c.name)} known={committed !== undefined} />
            </TableCell>
            <TableCell>
              {c.latest_definition
                ? `v${c.latest_definition.version} · sequence ${c.latest_definition.sequence}`
                : "No definition yet"}
            </TableCell>
            <TableCell>
              <ChaincodeStatusBadge status={c.latest_definition?.deploy_status ?? "none"} />
            </TableCell>
          </TableRow>
        ))}
        {unrecorded.map((c) => (
          <TableRow key={`committed-${c.name}`}>
            <TableCell className="font-medium">{c.name}</TableCell>
            <TableCell>
              <OnChannel c={c} known />
            </TableCell>
            <TableCell className="text-destructive">
              {c.error ? `Not recorded: ${c.error}` : "Not recorded yet"}
            </TableCell>
            <TableCell>—</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The Chaincodes tab of a Fabric network: the chaincodes on this channel, including those committed elsewhere. */
export function NetworkChaincodesTab({ networkId }: { networkId: number }): ReactElement {
  const list = useChaincodesQuery();
  const committed = useCommittedChaincodesQuery(networkId);
  const [creating, setCreating] = useState(false);
  const onChannel = committed.data?.chaincodes;
  return (
    <div className="grid gap-3">
      <div className="flex items-start justify-between gap-3">
        <p className="min-w-0 flex-1 text-sm text-muted-foreground" role={committed.isError ? "alert" : undefined}>
          {committed.isPending
            ? "Reading what the channel has committed…"
            : committed.isError
              ? `Could not read what the channel has committed: ${errorMessage(committed.error)}`
              : `Committed chaincodes read from peer ${committed.data.peer.name} (${committed.data.peer.msp_id}); those committed outside this console are added here.`}
        </p>
        <RoleGate allowed={OPERATORS}>
          <Button size="sm" onClick={() => setCreating(true)}>
            <PlusIcon /> Create chaincode
          </Button>
        </RoleGate>
      </div>
      <QueryState
        query={list}
        isEmpty={(d) => !d.some((c) => c.network_id === networkId) && !onChannel?.length}
        empty={<EmptyState title="No chaincodes on this channel" />}
      >
        {(d) => (
          <NetworkChaincodeTable chaincodes={d.filter((c) => c.network_id === networkId)} committed={onChannel} />
        )}
      </QueryState>
      {creating && <CreateChaincodeDialog networkId={networkId} onClose={() => setCreating(false)} />}
    </div>
  );
}
