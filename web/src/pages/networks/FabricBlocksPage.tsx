import { ArrowLeftIcon, BoxesIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link, useParams } from "react-router";
import { DetailField, Mono } from "@/components/DetailField";
import { Pager } from "@/components/Pager";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import {
  useFabricBlocksQuery,
  useFabricChannelInfoQuery,
  useFabricNetworkQuery,
} from "@/data/fabric-networks/fabric-network-queries";
import { BlockTable } from "@/pages/networks/FabricNetworkDetailPage";

const PAGE_SIZE = 20;

/** The channel's blocks, newest first, read through Deliver from a joined node. */
export function FabricBlocksPage(): ReactElement {
  const id = Number(useParams().id);
  const [page, setPage] = useState(1);
  const network = useFabricNetworkQuery(id);
  const info = useFabricChannelInfoQuery(id);
  const blocks = useFabricBlocksQuery(id, PAGE_SIZE, (page - 1) * PAGE_SIZE);
  const name = network.data?.name ?? "";
  return (
    <div className="space-y-6">
      <PageHeader
        title="Blocks"
        description={name ? `Channel ${name}` : undefined}
        actions={
          <Button variant="outline" asChild>
            <Link to={`/networks/${id}/fabric`}>
              <ArrowLeftIcon /> Network
            </Link>
          </Button>
        }
      />
      {info.data && (
        <Card>
          <CardContent>
            <dl className="grid gap-5 md:grid-cols-3">
              <DetailField label="Height">{info.data.height}</DetailField>
              <DetailField label="Current block hash">
                <Mono>{info.data.currentBlockHash}</Mono>
              </DetailField>
              <DetailField label="Previous block hash">
                <Mono>{info.data.previousBlockHash}</Mono>
              </DetailField>
            </dl>
          </CardContent>
        </Card>
      )}
      <Card className="gap-0 py-0">
        <QueryState
          query={blocks}
          isEmpty={(d) => d.blocks.length === 0}
          empty={
            <EmptyState
              icon={BoxesIcon}
              title="No blocks yet"
              description="Join a node to read the channel's blocks."
            />
          }
        >
          {(d) => (
            <>
              <BlockTable networkId={id} blocks={d.blocks} />
              <Pager
                total={d.total}
                page={page}
                pageSize={PAGE_SIZE}
                noun={["block", "blocks"]}
                busy={blocks.isFetching}
                onPage={setPage}
              />
            </>
          )}
        </QueryState>
      </Card>
    </div>
  );
}
