import { BoxesIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link } from "react-router";
import { Pager } from "@/components/Pager";
import { EmptyState, ErrorState, LoadingRows } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useFabricNetworkMapsQueries, useFabricNetworksQuery } from "@/data/fabric-networks/fabric-network-queries";
import type { FabricNetwork, FabricNetworkMap } from "@/data/fabric-networks/types";
import { cn } from "@/lib/utils";
import { channelHeights, type HeightRow } from "@/pages/analytics/heights";
import type { UseQueryResult } from "@tanstack/react-query";

/** Channels per page: each one costs a map request, which asks every member for its height. */
const CHANNELS_PER_PAGE = 5;

function HeightLine({ row, max }: { row: HeightRow; max: number }): ReactElement {
  const lagging = row.behind !== null && row.behind > 0;
  const name = row.mine ? (
    <Link to={`/nodes/${row.nodeId}`} className="font-medium hover:underline">
      {row.id}
    </Link>
  ) : (
    <span className="font-medium">{row.id}</span>
  );
  return (
    <li
      className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 sm:grid-cols-[minmax(0,18rem)_minmax(0,1fr)_9rem]"
      data-testid="height-row"
      aria-label={`${row.id} height`}
    >
      <div className="min-w-0 truncate text-sm">
        {name} <span className="text-xs text-muted-foreground">{row.role}</span>
      </div>
      <div className="order-3 col-span-2 h-2 rounded-full bg-muted sm:order-none sm:col-span-1">
        <div
          className={cn("h-2 rounded-full", lagging ? "bg-amber-500" : "bg-primary")}
          style={{ width: `${max > 0 && row.behind !== null ? (row.height / max) * 100 : 0}%` }}
        />
      </div>
      <div className="text-right text-sm tabular-nums">
        {row.behind === null ? (
          <span className="text-muted-foreground" title={row.error}>
            {row.joinStatus === "joined" ? "no answer" : row.joinStatus}
          </span>
        ) : (
          <>
            <span className={cn(lagging && "font-medium text-amber-600 dark:text-amber-400")}>{row.height}</span>
            {lagging && <span className="ml-1 text-xs text-amber-600 dark:text-amber-400">({row.behind} behind)</span>}
          </>
        )}
      </div>
    </li>
  );
}

function ChannelHeights({
  channel,
  map,
}: {
  channel: FabricNetwork;
  map: UseQueryResult<FabricNetworkMap>;
}): ReactElement {
  const heading = (
    <Link to={`/networks/${channel.id}/fabric`} className="font-medium hover:underline">
      {channel.name}
    </Link>
  );
  if (map.isPending) return <LoadingRows rows={2} />;
  if (map.isError) return <ErrorState error={map.error} onRetry={() => void map.refetch()} what={channel.name} />;
  const h = channelHeights(map.data.nodes);
  return (
    <section aria-label={`Channel ${channel.name}`} className="space-y-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h4 className="text-sm">{heading}</h4>
        <span className="text-xs text-muted-foreground">height {h.max}</span>
      </div>
      {h.rows.length === 0 ? (
        <p className="text-sm text-muted-foreground">No members.</p>
      ) : (
        <ul className="space-y-2">
          {h.rows.map((r) => (
            <HeightLine key={`${r.nodeId}-${r.id}`} row={r} max={h.max} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** Every Fabric channel with each member's chain height, read from the nodes themselves. */
export function HeightsCard(): ReactElement {
  const [page, setPage] = useState(1);
  const list = useFabricNetworksQuery(CHANNELS_PER_PAGE, (page - 1) * CHANNELS_PER_PAGE);
  const channels = list.data?.networks ?? [];
  const maps = useFabricNetworkMapsQueries(channels.map((c) => c.id));
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Heights per channel</CardTitle>
        <CardDescription>
          Each member&apos;s chain height; nodes behind the channel&apos;s highest are marked.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {list.isPending ? (
          <LoadingRows rows={3} />
        ) : list.isError ? (
          <ErrorState error={list.error} onRetry={() => void list.refetch()} what="Fabric channels" />
        ) : channels.length === 0 ? (
          <EmptyState
            icon={BoxesIcon}
            title="No Fabric channels"
            description="Create or join a channel; its members' heights show here."
            action={
              <Button asChild variant="outline">
                <Link to="/networks/fabric/create">Create a channel</Link>
              </Button>
            }
          />
        ) : (
          channels.map((c, i) => {
            const map = maps[i];
            return map ? <ChannelHeights key={c.id} channel={c} map={map} /> : null;
          })
        )}
      </CardContent>
      {list.data && list.data.total > CHANNELS_PER_PAGE && (
        <Pager
          total={list.data.total}
          page={page}
          pageSize={CHANNELS_PER_PAGE}
          noun={["channel", "channels"]}
          busy={list.isFetching}
          onPage={setPage}
        />
      )}
    </Card>
  );
}
