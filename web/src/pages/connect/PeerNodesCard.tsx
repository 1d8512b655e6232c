import { ServerIcon } from "lucide-react";
import type { ReactElement } from "react";
import { EmptyState, LoadingRows, QueryState } from "@/components/states";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { usePeerNodesQuery } from "@/data/federation/peer-nodes-query";
import type { ConnectedPeer } from "@/data/federation/types";
import { BesuNodesTable, FabricNodesTable, OrganizationsTable } from "@/pages/external-nodes/ExternalTables";
import { isActive } from "@/pages/connect/federation-view";

/** A connection's organizations and nodes, asked of the other console now (not stored; sync stores them). */
export function PeerNodesCard({ peer }: { peer: ConnectedPeer }): ReactElement {
  const active = isActive(peer);
  const nodes = usePeerNodesQuery(peer.node_id, active);
  return (
    <Card className="gap-0 pb-0">
      <CardHeader className="pb-4">
        <CardTitle>Its nodes</CardTitle>
        <CardDescription>
          What the other console serves right now. Sync stores them as external nodes here.
        </CardDescription>
      </CardHeader>
      {!active ? (
        <CardContent className="pb-6">
          <EmptyState
            icon={ServerIcon}
            title="This connection is revoked"
            description="Its nodes can't be fetched. Accept a new invitation from it to connect again."
          />
        </CardContent>
      ) : (
        <QueryState
          query={nodes}
          loading={<LoadingRows rows={4} />}
          isEmpty={(d) =>
            d.organizations.length + d.fabric_peers.length + d.fabric_orderers.length + d.besu_nodes.length === 0
          }
          empty={
            <EmptyState
              icon={ServerIcon}
              title="It has no organizations or nodes yet"
              description="Once the other console creates some, they show here."
            />
          }
        >
          {(d) => (
            <Tabs defaultValue="organizations" className="px-6 pb-6">
              <TabsList>
                <TabsTrigger value="organizations">Organizations ({d.organizations.length})</TabsTrigger>
                <TabsTrigger value="peers">Peers ({d.fabric_peers.length})</TabsTrigger>
                <TabsTrigger value="orderers">Orderers ({d.fabric_orderers.length})</TabsTrigger>
                <TabsTrigger value="besu">Besu nodes ({d.besu_nodes.length})</TabsTrigger>
              </TabsList>
              <TabsContent value="organizations">
                <OrganizationsTable rows={d.organizations} />
              </TabsContent>
              <TabsContent value="peers">
                <FabricNodesTable label="Peers" rows={d.fabric_peers} />
              </TabsContent>
              <TabsContent value="orderers">
                <FabricNodesTable label="Orderers" rows={d.fabric_orderers} />
              </TabsContent>
              <TabsContent value="besu">
                <BesuNodesTable rows={d.besu_nodes} />
              </TabsContent>
            </Tabs>
          )}
        </QueryState>
      )}
    </Card>
  );
}
