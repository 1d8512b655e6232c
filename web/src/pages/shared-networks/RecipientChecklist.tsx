import type { ReactElement } from "react";
import { Mono } from "@/components/DetailField";
import type { ConnectedPeer } from "@/data/federation/types";
import { ConnectionStatusBadge } from "@/pages/connect/ConnectionStatusBadge";

/** Connected consoles as checkboxes (one row each: node id, endpoint, live status). */
export function RecipientChecklist({
  peers,
  selected,
  onToggle,
}: {
  peers: readonly ConnectedPeer[];
  selected: ReadonlySet<number>;
  onToggle: (id: number, checked: boolean) => void;
}): ReactElement {
  return (
    <fieldset className="grid gap-1">
      <legend className="mb-2 text-sm font-medium">Recipients</legend>
      {peers.map((p) => (
        <label
          key={p.id}
          className="flex cursor-pointer items-center gap-3 rounded-md border px-3 py-2 hover:bg-muted/50"
        >
          <input
            type="checkbox"
            className="size-4 accent-primary"
            aria-label={`Share with ${p.node_id}`}
            checked={selected.has(p.id)}
            onChange={(e) => onToggle(p.id, e.target.checked)}
          />
          <span className="min-w-0 flex-1">
            <Mono className="block font-medium">{p.node_id}</Mono>
            <span className="block truncate text-xs text-muted-foreground">{p.peer_endpoint}</span>
          </span>
          <ConnectionStatusBadge status={p.status} />
        </label>
      ))}
    </fieldset>
  );
}
