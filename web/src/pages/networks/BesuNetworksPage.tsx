import { DownloadIcon, PlusIcon, ServerIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { Pager } from "@/components/Pager";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { useBesuNetworksQuery } from "@/data/besu-networks/besu-networks-query";
import { BesuNetworkTable } from "@/pages/networks/BesuNetworkTable";

const PAGE_SIZE = 20;

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
  const [page, setPage] = useState(1);
  const networks = useBesuNetworksQuery(PAGE_SIZE, (page - 1) * PAGE_SIZE);
  return (
    <div>
      <PageHeader
        title="Besu Networks"
        description="QBFT networks: chain parameters, validators and the genesis file."
        actions={<BesuNetworkActions />}
      />
      <Card className="gap-0 py-0">
        <QueryState
          query={networks}
          isEmpty={(d) => d.total === 0}
          empty={
            <EmptyState
              icon={ServerIcon}
              title="No Besu networks yet"
              description="Create a QBFT network from validator keys, or import an existing genesis file."
              action={<BesuNetworkActions />}
            />
          }
        >
          {(d) => (
            <>
              <BesuNetworkTable networks={d.networks} />
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
