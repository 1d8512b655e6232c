import { NetworkIcon, PlusIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { Pager } from "@/components/Pager";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { useFabricNetworksQuery } from "@/data/fabric-networks/fabric-network-queries";
import { FabricNetworkTable } from "@/pages/networks/FabricNetworkTable";

const PAGE_SIZE = 20;

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
  const [page, setPage] = useState(1);
  const networks = useFabricNetworksQuery(PAGE_SIZE, (page - 1) * PAGE_SIZE);
  return (
    <div>
      <PageHeader
        title="Fabric Networks"
        description="Channels: their orderers and peers, join status, config and blocks."
        actions={<FabricNetworkActions />}
      />
      <Card className="gap-0 py-0">
        <QueryState
          query={networks}
          isEmpty={(d) => d.total === 0}
          empty={
            <EmptyState
              icon={NetworkIcon}
              title="No Fabric networks yet"
              description="Create a channel from your organizations' orderers and peers, then join them."
              action={<FabricNetworkActions />}
            />
          }
        >
          {(d) => (
            <>
              <FabricNetworkTable networks={d.networks} />
              <Pager
                total={d.total}
                page={page}
                pageSize={PAGE_SIZE}
                noun={["network", "networks"]}
                busy={networks.isFetching}
                onPage={setPage}
              />
            </>
          )}
        </QueryState>
      </Card>
    </div>
  );
}
