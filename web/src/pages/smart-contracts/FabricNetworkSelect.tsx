import type { ReactElement } from "react";
import { useFabricNetworksQuery } from "@/data/fabric-networks/fabric-network-queries";

/** A choice of this console's Fabric networks (channels), by id. */
export function FabricNetworkSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string;
  onChange: (networkId: string) => void;
}): ReactElement {
  const networks = useFabricNetworksQuery(1000);
  return (
    <select
      id={id}
      className="h-9 rounded-md border bg-background px-3 text-sm"
      value={value}
      onChange={(e) => onChange(e.target.value)}
    >
      <option value="">Choose a Fabric network…</option>
      {(networks.data?.networks ?? []).map((n) => (
        <option key={n.id} value={n.id}>
          {n.name}
        </option>
      ))}
    </select>
  );
}
