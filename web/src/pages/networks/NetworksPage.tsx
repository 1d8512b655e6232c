import { ArrowRightIcon, NetworkIcon, ServerIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link } from "react-router";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useBesuNetworksQuery } from "@/data/besu-networks/besu-networks-query";
import { useFabricNetworksQuery } from "@/data/fabric-networks/fabric-network-queries";
import { BesuNetworkActions } from "@/pages/networks/BesuNetworksPage";
import { BesuNetworkTable } from "@/pages/networks/BesuNetworkTable";
import { FabricNetworkActions } from "@/pages/networks/FabricNetworksPage";
import { FabricNetworkTable } from "@/pages/networks/FabricNetworkTable";

/** All networks by platform: Fabric channels and Besu QBFT networks. */
export function NetworksPage(): ReactElement {
  const besu = useBesuNetworksQuery(10);
  const fabric = useFabricNetworksQuery(10);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Networks"
        description="Blockchain networks managed by this installation."
        actions={
          <>
            <FabricNetworkActions />
            <BesuNetworkActions />
          </>
        }
      />
      <Card className="gap-0 pb-0">
        <CardHeader className="flex flex-row items-center justify-between gap-3 pb-4">
          <div>
            <CardTitle className="flex items-center gap-2 text-base">
              <ServerIcon className="size-4 text-muted-foreground" /> Besu
            </CardTitle>
            <CardDescription className="mt-1">QBFT networks</CardDescription>
          </div>
          <Button variant="ghost" size="sm" asChild>
            <Link to="/network/besu">
              View all <ArrowRightIcon />
            </Link>
          </Button>
        </CardHeader>
        <div className="border-t">
          <QueryState
            query={besu}
            isEmpty={(d) => d.total === 0}
            empty={
              <EmptyState
                icon={ServerIcon}
                title="No Besu networks yet"
                description="Create a QBFT network from validator keys, or import a genesis file."
              />
            }
          >
            {(d) => <BesuNetworkTable networks={d.networks} />}
          </QueryState>
        </div>
      </Card>
      <Card className="gap-0 pb-0">
        <CardHeader className="flex flex-row items-center justify-between gap-3 pb-4">
          <div>
            <CardTitle className="flex items-center gap-2 text-base">
              <NetworkIcon className="size-4 text-muted-foreground" /> Fabric
            </CardTitle>
            <CardDescription className="mt-1">Channels</CardDescription>
          </div>
          <Button variant="ghost" size="sm" asChild>
            <Link to="/network/fabric">
              View all <ArrowRightIcon />
            </Link>
          </Button>
        </CardHeader>
        <div className="border-t">
          <QueryState
            query={fabric}
            isEmpty={(d) => d.total === 0}
            empty={
              <EmptyState
                icon={NetworkIcon}
                title="No Fabric networks yet"
                description="Create a channel from your organizations' orderers and peers."
              />
            }
          >
            {(d) => <FabricNetworkTable networks={d.networks} />}
          </QueryState>
        </div>
      </Card>
    </div>
  );
}
