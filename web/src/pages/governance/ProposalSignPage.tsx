import { ArrowRightIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link, useParams } from "react-router";
import { PageHeader, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { useProposalQuery } from "@/data/governance/proposal-queries";
import { ProposalBody } from "@/pages/governance/ProposalDetailPage";
import { isProposer } from "@/pages/governance/proposal-view";

/**
 * Where a "proposal received" notification lands: what the proposer wants to change, the signature
 * count, signing as one of this console's orgs of the channel and sending the signature back to the
 * proposer's console (the connection whose node id is the proposal's origin).
 */
export function ProposalSignPage(): ReactElement {
  const id = useParams().proposalId ?? "";
  const proposal = useProposalQuery(id);
  return (
    <QueryState query={proposal}>
      {(p) => (
        <div className="space-y-6">
          <PageHeader
            title="Sign proposal"
            description={
              isProposer(p)
                ? `${p.created_by} proposed a config update of channel ${p.channel_name} on this console.`
                : `${p.created_by} on ${p.origin_node_id} asks your organization to sign a config update of channel ${p.channel_name}.`
            }
            actions={
              p.network_id > 0 && (
                <Button variant="outline" asChild>
                  <Link to={`/networks/${p.network_id}/fabric/proposals/${p.id}`}>
                    Proposal details <ArrowRightIcon />
                  </Link>
                </Button>
              )
            }
          />
          <ProposalBody p={p} />
        </div>
      )}
    </QueryState>
  );
}
