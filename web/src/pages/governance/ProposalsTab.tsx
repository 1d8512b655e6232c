import { PlusIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { EmptyState, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useNetworkProposalsQuery } from "@/data/governance/proposal-queries";
import { formatDateTime } from "@/lib/utils";
import { ProposalStatusBadge } from "@/pages/governance/ProposalStatusBadge";
import { ChaincodeProposalsSection } from "@/pages/networks/proposals/ChaincodeProposalsSection";
import { diffSummary, proposalPath } from "@/pages/governance/proposal-view";

/** The channel's config-update proposals: status, what they change, the signature count. */
export function ConfigProposalsCard({ networkId }: { networkId: number }): ReactElement {
  const proposals = useNetworkProposalsQuery(networkId);
  const create = (
    <RoleGate denied={["viewer"]}>
      <Button asChild>
        <Link to={`/networks/${networkId}/fabric/proposals/create`}>
          <PlusIcon /> Create proposal
        </Link>
      </Button>
    </RoleGate>
  );
  return (
    <Card className="gap-0 pb-0">
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2 pb-4">
        <div>
          <CardTitle className="text-base">Config proposals</CardTitle>
          <CardDescription>
            Channel changes signed org by org, here or on connected consoles, until the modification policy is met.
          </CardDescription>
        </div>
        {create}
      </CardHeader>
      <div className="border-t">
        <QueryState
          query={proposals}
          isEmpty={(d) => d.length === 0}
          empty={
            <EmptyState
              title="No config proposals"
              description="Propose a channel change that needs signatures of other organizations."
            />
          }
        >
          {(d) => (
            <Table aria-label="Config proposals">
              <TableHeader>
                <TableRow>
                  <TableHead>Proposal</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Signatures</TableHead>
                  <TableHead className="hidden md:table-cell">Proposed by</TableHead>
                  <TableHead className="hidden sm:table-cell">Created</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {d.map((p) => (
                  <TableRow key={p.id} data-testid={`proposal-row-${p.id}`}>
                    <TableCell>
                      <Link to={proposalPath(p)} className="font-medium hover:underline">
                        {p.proposal_type}
                      </Link>
                      <span className="block text-xs text-muted-foreground">{diffSummary(p.changes)}</span>
                    </TableCell>
                    <TableCell>
                      <ProposalStatusBadge p={p} />
                    </TableCell>
                    <TableCell>{p.policy.summary}</TableCell>
                    <TableCell className="hidden md:table-cell">
                      {p.created_by}
                      {p.origin_node_id && (
                        <span className="block text-xs text-muted-foreground">on {p.origin_node_id}</span>
                      )}
                    </TableCell>
                    <TableCell className="hidden text-muted-foreground sm:table-cell">
                      {formatDateTime(p.created_at)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </QueryState>
      </div>
    </Card>
  );
}

/** The Fabric network page's Proposals tab (?tab=proposals). */
export function ProposalsTab({ networkId }: { networkId: number }): ReactElement {
  return (
    <div className="space-y-6">
      <ConfigProposalsCard networkId={networkId} />
      <ChaincodeProposalsSection networkId={networkId} />
    </div>
  );
}
