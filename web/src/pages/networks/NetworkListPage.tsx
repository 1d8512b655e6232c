import type { UseQueryResult } from "@tanstack/react-query";
import type { LucideIcon } from "lucide-react";
import { useState, type ReactElement, type ReactNode } from "react";
import { Pager } from "@/components/Pager";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Card } from "@/components/ui/card";

const PAGE_SIZE = 20;

/** One platform's networks, paged: header with actions, empty state, table and pager. */
export function NetworkListPage<N>({
  title,
  description,
  actions,
  useNetworks,
  empty,
  table,
}: {
  title: string;
  description: string;
  actions: ReactElement;
  /** The platform's list query (limit, offset). */
  useNetworks: (limit: number, offset: number) => UseQueryResult<{ networks: N[]; total: number }>;
  empty: { icon: LucideIcon; title: string; description: string };
  table: (networks: N[]) => ReactNode;
}): ReactElement {
  const [page, setPage] = useState(1);
  const networks = useNetworks(PAGE_SIZE, (page - 1) * PAGE_SIZE);
  return (
    <div>
      <PageHeader title={title} description={description} actions={actions} />
      <Card className="gap-0 py-0">
        <QueryState
          query={networks}
          isEmpty={(d) => d.total === 0}
          empty={<EmptyState icon={empty.icon} title={empty.title} description={empty.description} action={actions} />}
        >
          {(d) => (
            <>
              {table(d.networks)}
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
