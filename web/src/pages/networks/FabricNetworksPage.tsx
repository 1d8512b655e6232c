import { NetworkIcon, PlusIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { Button } from "@/components/ui/button";
import { useFabricNetworksQuery } from "@/data/fabric-networks/fabric-network-queries";
import { FabricNetworkTable } from "@/pages/networks/FabricNetworkTable";
import { NetworkListPage } from "@/pages/networks/NetworkListPage";

/** "Create channel" for operators. */
export function FabricNetworkActions(): ReactElement {
  return (
    <RoleGate denied={["viewer"]}>
      <Button asChild>
        <Link to="/networks/fabric/create">
          <PlusIcon /> Create Fabric network
        </Link>
      </Button>
    </RoleGate>
  );
}

/** Fabric networks (channels), paged. */
export function FabricNetworksPage(): ReactElement {
  return (
    <NetworkListPage
      title="Fabric Networks"
      description="Channels: their orderers and peers, join status, config and blocks."
      actions={<FabricNetworkActions />}
      useNetworks={useFabricNetworksQuery}
      empty={{
        icon: NetworkIcon,
        title: "No Fabric networks yet",
        description: "Create a channel from your organizations' orderers and peers, then join them.",
      }}
      table={(networks) => <FabricNetworkTable networks={networks} />}
    />
  );
}
