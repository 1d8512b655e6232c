import { DownloadIcon, PlusIcon, ServerIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { Button } from "@/components/ui/button";
import { useBesuNetworksQuery } from "@/data/besu-networks/besu-networks-query";
import { BesuNetworkTable } from "@/pages/networks/BesuNetworkTable";
import { NetworkListPage } from "@/pages/networks/NetworkListPage";

/** "Create network" and "Import" for operators. */
export function BesuNetworkActions(): ReactElement {
  return (
    <RoleGate denied={["viewer"]}>
      <Button variant="outline" asChild>
        <Link to="/networks/import">
          <DownloadIcon /> Import
        </Link>
      </Button>
      <Button asChild>
        <Link to="/networks/besu/create">
          <PlusIcon /> Create Besu network
        </Link>
      </Button>
    </RoleGate>
  );
}

/** Besu (QBFT) networks, paged. */
export function BesuNetworksPage(): ReactElement {
  return (
    <NetworkListPage
      title="Besu Networks"
      description="QBFT networks: chain parameters, validators and the genesis file."
      actions={<BesuNetworkActions />}
      useNetworks={useBesuNetworksQuery}
      empty={{
        icon: ServerIcon,
        title: "No Besu networks yet",
        description: "Create a QBFT network from validator keys, or import an existing genesis file.",
      }}
      table={(networks) => <BesuNetworkTable networks={networks} />}
    />
  );
}
