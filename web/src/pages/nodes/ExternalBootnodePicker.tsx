import type { ReactElement } from "react";
import { Link } from "react-router";
import { Mono } from "@/components/DetailField";
import { FieldError } from "@/components/ui/label";
import { useExternalBesuNodesQuery } from "@/data/external-nodes/external-besu-nodes-query";
import { useConnectedPeersQuery } from "@/data/federation/connected-peers-query";
import { sourceNodeId } from "@/pages/connect/federation-view";

/** "enode://abcd…@host:port": an enode URL short enough for a list. */
export function shortEnode(enode: string): string {
  const m = /^enode:\/\/([0-9a-f]+)@(.+)$/i.exec(enode);
  return m?.[1] && m[2] ? `enode://${m[1].slice(0, 8)}…@${m[2]}` : enode;
}

/**
 * External Besu nodes (synced from connected consoles) to use as boot nodes, as checkboxes. The
 * server adds their enode URLs to the boot nodes typed above.
 */
export function ExternalBootnodePicker({
  value,
  onChange,
  error,
}: {
  value: number[];
  onChange: (ids: number[]) => void;
  error?: string | undefined;
}): ReactElement {
  const nodes = useExternalBesuNodesQuery();
  const peers = useConnectedPeersQuery();
  const list = nodes.data ?? [];
  return (
    <fieldset className="grid content-start gap-2 sm:col-span-2">
      <legend className="mb-2 text-sm font-medium">Boot nodes from connected consoles</legend>
      {nodes.isPending ? (
        <p className="text-xs text-muted-foreground">Loading external Besu nodes…</p>
      ) : nodes.isError ? (
        <p className="text-xs text-destructive">External Besu nodes could not be loaded: {nodes.error.message}</p>
      ) : list.length === 0 ? (
        <p className="text-xs text-muted-foreground">
          None yet. Sync a connected console on{" "}
          <Link to="/connect" className="text-primary hover:underline">
            Connect
          </Link>{" "}
          to use its Besu nodes as boot nodes.
        </p>
      ) : (
        <div className="grid gap-1.5">
          {list.map((n) => {
            const from = sourceNodeId(n.externalNodeId, peers.data);
            return (
              <label key={n.id} className="flex flex-wrap items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4 accent-primary"
                  aria-label={`Use ${n.name} as a boot node`}
                  checked={value.includes(n.id)}
                  onChange={(e) => onChange(e.target.checked ? [...value, n.id] : value.filter((x) => x !== n.id))}
                />
                <span className="font-medium">{n.name}</span>
                <Mono className="text-muted-foreground">{shortEnode(n.enodeUrl)}</Mono>
                {from && <span className="text-xs text-muted-foreground">from {from}</span>}
              </label>
            );
          })}
        </div>
      )}
      <FieldError message={error} />
    </fieldset>
  );
}
