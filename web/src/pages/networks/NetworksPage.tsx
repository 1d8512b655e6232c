import { ArrowRightIcon, NetworkIcon, ServerIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link } from "react-router";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useBesuNetworksQuery } from "@/data/besu-networks/besu-networks-query";
import { BesuNetworkActions } from "@/pages/networks/BesuNetworksPage";
import { BesuNetworkTable } from "@/pages/networks/BesuNetworkTable";

/** All networks by platform: Besu now; Fabric channels arrive with the Fabric network screens. */
export function NetworksPage(): ReactElement {
  const besu = useBesuNetworksQuery(10);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Networks"
        description="Blockchain networks managed by this installation."
        actions={<BesuNetworkActions />}
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
      <Card>
        <CardContent className="flex items-center gap-4">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-muted">
            <NetworkIcon className="size-5 text-muted-foreground" />
          </span>
          <div className="min-w-0 flex-1">
            <p className="flex items-center gap-2 font-medium">
              Fabric <Badge variant="secondary">Coming soon</Badge>
            </p>
            <p className="text-sm text-muted-foreground">
              Fabric channels will be listed here once Fabric networks can be created and joined.
            </p>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
