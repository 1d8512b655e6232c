import type { UseQueryResult } from "@tanstack/react-query";
import { ServerIcon } from "lucide-react";
import { useState, type ReactElement, type ReactNode } from "react";
import { Link } from "react-router";
import { useMeQuery } from "@/data/auth/me-query";
import { isRoleAllowed, OPERATORS } from "@/app/roles";
import { DeleteResourceDialog } from "@/components/ConfirmDialog";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useExternalBesuNodesQuery } from "@/data/external-nodes/external-besu-nodes-query";
import { useExternalNodeDeleteMutation } from "@/data/external-nodes/external-node-delete-mutation";
import { useExternalOrderersQuery } from "@/data/external-nodes/external-orderers-query";
import { useExternalOrganizationsQuery } from "@/data/external-nodes/external-organizations-query";
import { useExternalPeersQuery } from "@/data/external-nodes/external-peers-query";
import type { ExternalKind } from "@/data/external-nodes/types";
import { useConnectedPeersQuery } from "@/data/federation/connected-peers-query";
import { sourceNodeId } from "@/pages/connect/federation-view";
import {
  BesuNodesTable,
  FabricNodesTable,
  OrganizationsTable,
  type TableExtras,
} from "@/pages/external-nodes/ExternalTables";

const NOUN: Record<ExternalKind, string> = {
  "fabric-organizations": "organization",
  "fabric-peers": "peer",
  "fabric-orderers": "orderer",
  "besu-nodes": "Besu node",
};

/** One tab: the records of one kind, its three states, and the delete confirmation. */
function KindTab<T extends { id: number }>({
  kind,
  query,
  canDelete,
  sourceOf,
  render,
}: {
  kind: ExternalKind;
  query: UseQueryResult<T[]>;
  canDelete: boolean;
  sourceOf: TableExtras["sourceOf"];
  render: (rows: T[], extras: TableExtras) => ReactNode;
}): ReactElement {
  const remove = useExternalNodeDeleteMutation(kind);
  const [target, setTarget] = useState<{ id: number; name: string } | undefined>();
  const noun = NOUN[kind];
  return (
    <Card className="gap-0 py-0">
      <QueryState
        query={query}
        isEmpty={(d) => d.length === 0}
        empty={
          <EmptyState
            icon={ServerIcon}
            title={`No external ${noun}s`}
            description="Sync a connected instance to bring in its organizations and nodes."
            action={
              <Button asChild variant="outline" size="sm">
                <Link to="/connect">Go to Connect</Link>
              </Button>
            }
          />
        }
      >
        {(rows) =>
          render(rows, {
            sourceOf,
            ...(canDelete ? { onDelete: (id: number, name: string) => setTarget({ id, name }) } : {}),
          })
        }
      </QueryState>
      {target && (
        <DeleteResourceDialog
          open
          onOpenChange={(v) => !v && setTarget(undefined)}
          onDeleted={() => setTarget(undefined)}
          mutation={remove}
          id={target.id}
          name={target.name}
          title={`Delete external ${noun} ${target.name}?`}
          description={`It is removed from this console only. The next sync brings it back if its console still has it.`}
          confirmLabel={`Delete ${noun}`}
          deletedTitle={`External ${noun} deleted`}
        />
      )}
    </Card>
  );
}

/** Organizations and nodes synced from connected consoles, by kind, with delete for admins and managers. */
export function ExternalNodesPage(): ReactElement {
  const me = useMeQuery();
  const canDelete = isRoleAllowed(me.data?.role, { allowed: OPERATORS });
  const peers = useConnectedPeersQuery();
  const sourceOf = (connectionId: number): string | undefined => sourceNodeId(connectionId, peers.data);
  const orgs = useExternalOrganizationsQuery();
  const fabricPeers = useExternalPeersQuery();
  const orderers = useExternalOrderersQuery();
  const besu = useExternalBesuNodesQuery();
  const count = (q: UseQueryResult<unknown[]>): string => (q.data ? ` (${q.data.length})` : "");
  return (
    <div>
      <PageHeader
        title="External Nodes"
        description="Organizations and nodes of connected consoles, brought in by syncing a connection."
      />
      <Tabs defaultValue="organizations">
        <TabsList>
          <TabsTrigger value="organizations">Organizations{count(orgs)}</TabsTrigger>
          <TabsTrigger value="peers">Peers{count(fabricPeers)}</TabsTrigger>
          <TabsTrigger value="orderers">Orderers{count(orderers)}</TabsTrigger>
          <TabsTrigger value="besu">Besu nodes{count(besu)}</TabsTrigger>
        </TabsList>
        <TabsContent value="organizations">
          <KindTab
            kind="fabric-organizations"
            query={orgs}
            canDelete={canDelete}
            sourceOf={sourceOf}
            render={(rows, x) => <OrganizationsTable rows={rows} {...x} />}
          />
        </TabsContent>
        <TabsContent value="peers">
          <KindTab
            kind="fabric-peers"
            query={fabricPeers}
            canDelete={canDelete}
            sourceOf={sourceOf}
            render={(rows, x) => <FabricNodesTable label="Peers" rows={rows} {...x} />}
          />
        </TabsContent>
        <TabsContent value="orderers">
          <KindTab
            kind="fabric-orderers"
            query={orderers}
            canDelete={canDelete}
            sourceOf={sourceOf}
            render={(rows, x) => <FabricNodesTable label="Orderers" rows={rows} {...x} />}
          />
        </TabsContent>
        <TabsContent value="besu">
          <KindTab
            kind="besu-nodes"
            query={besu}
            canDelete={canDelete}
            sourceOf={sourceOf}
            render={(rows, x) => <BesuNodesTable rows={rows} {...x} />}
          />
        </TabsContent>
      </Tabs>
    </div>
  );
}
