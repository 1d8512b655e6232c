import type { ReactElement } from "react";
import { Label } from "@/components/ui/label";
import { useExternalOrderersQuery } from "@/data/external-nodes/external-orderers-query";
import { useConnectedPeersQuery } from "@/data/federation/connected-peers-query";
import { sourceNodeId } from "@/pages/connect/federation-view";

/**
 * Where the orderer of a join comes from: typed in (value "") or an external orderer synced from a
 * connected console (its id). Only shown when there is at least one external orderer.
 */
export function ExternalOrdererSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
}): ReactElement | null {
  const orderers = useExternalOrderersQuery();
  const peers = useConnectedPeersQuery();
  const list = orderers.data ?? [];
  if (list.length === 0) return null;
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>Orderer</Label>
      <select
        id={id}
        className="h-9 rounded-md border bg-background px-3 text-sm"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">Enter its URL and TLS CA certificate</option>
        {list.map((o) => {
          const from = sourceNodeId(o.externalNodeId, peers.data);
          return (
            <option key={o.id} value={String(o.id)}>
              {o.name} ({o.mspId}) {o.externalEndpoint}
              {from ? ` from ${from}` : ""}
            </option>
          );
        })}
      </select>
      <p className="text-xs text-muted-foreground">
        An orderer of a connected console (External Nodes): its endpoint and TLS CA come with it.
      </p>
    </div>
  );
}
