import type { ReactElement } from "react";
import { EmptyState, QueryState } from "@/components/states";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { useProposalEventsQuery } from "@/data/governance/proposal-queries";
import { formatDateTime } from "@/lib/utils";
import { eventView } from "@/pages/governance/proposal-view";

/** The proposal's own history (GET .../events), oldest first. */
export function ProposalTimeline({ proposalId }: { proposalId: string }): ReactElement {
  const events = useProposalEventsQuery(proposalId);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Timeline</CardTitle>
      </CardHeader>
      <CardContent>
        <QueryState query={events} isEmpty={(d) => d.length === 0} empty={<EmptyState title="No events yet" />}>
          {(d) => (
            <ol aria-label="Proposal timeline" className="grid gap-3 border-l pl-4">
              {d.map((e) => {
                const v = eventView(e);
                return (
                  <li key={e.id} data-event={e.event_type} className="relative">
                    <span className="absolute top-1.5 -left-[1.3rem] size-2 rounded-full bg-primary" />
                    <p className="text-sm font-medium">{v.title}</p>
                    <p className="text-xs text-muted-foreground [overflow-wrap:anywhere]">
                      {formatDateTime(e.created_at)}
                      {v.detail && ` · ${v.detail}`}
                    </p>
                  </li>
                );
              })}
            </ol>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
