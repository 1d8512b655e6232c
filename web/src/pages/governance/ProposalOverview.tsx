import type { ReactElement } from "react";
import { Link } from "react-router";
import { DetailField, Mono } from "@/components/DetailField";
import { Card, CardContent } from "@/components/ui/card";
import type { Proposal } from "@/data/governance/types";
import { formatDateTime } from "@/lib/utils";
import { ProposalStatusBadge } from "@/pages/governance/ProposalStatusBadge";

/** Channel, status, who proposed it and when, the config sequence, and the submitted tx id. */
export function ProposalOverview({ p }: { p: Proposal }): ReactElement {
  return (
    <Card>
      <CardContent>
        <dl className="grid grid-cols-2 gap-5 md:grid-cols-4">
          <DetailField label="Channel">
            {p.network_id > 0 ? (
              <Link to={`/networks/${p.network_id}/fabric?tab=proposals`} className="hover:underline">
                {p.channel_name}
              </Link>
            ) : (
              p.channel_name
            )}
          </DetailField>
          <DetailField label="Status">
            <ProposalStatusBadge p={p} />
          </DetailField>
          <DetailField label="Proposed by">
            {p.created_by}
            <span className="block text-xs text-muted-foreground">
              {p.origin_node_id ? `on ${p.origin_node_id}` : "on this console"}
            </span>
          </DetailField>
          <DetailField label="Created">{formatDateTime(p.created_at)}</DetailField>
          <DetailField label="Type">{p.proposal_type}</DetailField>
          <DetailField label="Config sequence">{p.config_sequence}</DetailField>
          <DetailField label="Operations">{p.operations.map((o) => o.type).join(", ") || "—"}</DetailField>
          {p.tx_id && (
            <DetailField label="Transaction">
              <Mono>{p.tx_id}</Mono>
            </DetailField>
          )}
        </dl>
      </CardContent>
    </Card>
  );
}
