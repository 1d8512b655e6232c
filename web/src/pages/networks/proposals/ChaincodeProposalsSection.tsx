import { PlusIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link } from "react-router";
import { isRoleAllowed, OPERATORS } from "@/app/roles";
import { EmptyState, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useMeQuery } from "@/data/auth/me-query";
import { useAcceptChaincodeProposalMutation } from "@/data/chaincode-proposals/chaincode-proposal-accept-mutation";
import {
  useChaincodeProposalQuery,
  useChaincodeProposalsQuery,
} from "@/data/chaincode-proposals/chaincode-proposals-query";
import type { ChaincodeProposal } from "@/data/chaincode-proposals/types";
import { showToast } from "@/lib/toast";
import { errorMessage } from "@/lib/utils";
import {
  commitReadiness,
  proposalOrigin,
  proposalStatusBadge,
} from "@/pages/networks/proposals/chaincode-proposal-view";
import { CommitProposalDialog } from "@/pages/networks/proposals/CommitProposalDialog";
import { ProposalActions } from "@/pages/networks/proposals/ProposalActions";
import { ShareChaincodeProposalButton } from "@/pages/networks/proposals/ShareChaincodeProposalButton";

/** The propose screen of a network. */
export const proposeChaincodeHref = (networkId: number): string => `/networks/${networkId}/fabric/chaincodes/propose`;

function Approvals({ approvals }: { approvals: Record<string, boolean> }): ReactElement {
  const orgs = Object.keys(approvals).sort();
  if (orgs.length === 0) return <span className="text-xs text-muted-foreground">Unknown</span>;
  const r = commitReadiness(approvals);
  return (
    <div className="grid gap-1">
      <div className="flex flex-wrap gap-1">
        {orgs.map((o) => (
          <Badge
            key={o}
            variant={approvals[o] ? "success" : "secondary"}
            aria-label={`${o} ${approvals[o] ? "approved" : "not approved"}`}
          >
            {o}
          </Badge>
        ))}
      </div>
      <span className="text-xs text-muted-foreground">
        {r.approved} of {r.total} approved
      </span>
    </div>
  );
}

/** One proposal; its own accept mutation, so two accepts on two rows each show their own progress. */
function ProposalRow({
  proposal: listed,
  canManage,
}: {
  proposal: ChaincodeProposal;
  canManage: boolean;
}): ReactElement {
  // The list carries no approvals (asking a peer per row would slow it): the detail reads them, and
  // notices a commit made from another console. Everything else stays the list's (it polls while accepting).
  const detail = useChaincodeProposalQuery(listed.id, listed.definitionId !== null && listed.status !== "committed");
  const read = detail.data?.proposal;
  const p: ChaincodeProposal = read
    ? { ...listed, approvals: read.approvals, status: read.status === "committed" ? "committed" : listed.status }
    : listed;
  const accept = useAcceptChaincodeProposalMutation();
  const [committing, setCommitting] = useState(false);
  const badge = proposalStatusBadge(p.status);
  // A request that failed before the server could record it (e.g. 501 or 403) is shown here.
  const requestError = accept.isError && !p.error ? errorMessage(accept.error) : undefined;
  const onAccept = (): void =>
    accept.mutate(p.id, {
      onSuccess: (r) =>
        showToast("success", `${p.name} ${p.version} accepted`, {
          description:
            r.proposal.status === "accepted"
              ? "Installed and approved for this console's orgs."
              : `Status: ${r.proposal.status}.`,
        }),
      onError: (err) => showToast("error", `Accepting ${p.name} failed`, { description: errorMessage(err) }),
    });
  return (
    <TableRow data-testid={`cc-proposal-${p.id}`}>
      <TableCell className="font-medium">{p.name}</TableCell>
      <TableCell>{p.version}</TableCell>
      <TableCell>{p.sequence}</TableCell>
      <TableCell>
        <Badge variant={badge.variant}>{badge.label}</Badge>
      </TableCell>
      <TableCell className="whitespace-normal">
        {proposalOrigin(p)}
        {p.sharedWith.length > 0 && (
          <span className="block text-xs text-muted-foreground">
            Shared with {p.sharedWith.length} console{p.sharedWith.length === 1 ? "" : "s"}
          </span>
        )}
      </TableCell>
      <TableCell className="whitespace-normal">
        <Approvals approvals={p.approvals} />
      </TableCell>
      <TableCell className="max-w-xs whitespace-normal">
        {(p.error || requestError) && (
          <p role="alert" className="text-xs break-words text-destructive">
            {p.error || requestError}
          </p>
        )}
      </TableCell>
      {canManage && (
        <TableCell className="text-right">
          <ProposalActions
            proposal={p}
            acceptPending={accept.isPending}
            onAccept={onAccept}
            onCommit={() => setCommitting(true)}
            share={<ShareChaincodeProposalButton proposal={p} />}
          />
          {committing && <CommitProposalDialog proposal={p} onClose={() => setCommitting(false)} />}
        </TableCell>
      )}
    </TableRow>
  );
}

/**
 * The chaincode proposals of a Fabric network (made here or received from other consoles): status,
 * origin, each org's approval, the last accept error, and for operators Accept, Share and Commit.
 */
export function ChaincodeProposalsSection({ networkId }: { networkId: number }): ReactElement {
  const list = useChaincodeProposalsQuery(networkId);
  const me = useMeQuery();
  const canManage = isRoleAllowed(me.data?.role, { allowed: OPERATORS });
  return (
    <Card>
      <CardHeader className="flex flex-row items-start justify-between gap-2">
        <div>
          <CardTitle>Chaincode proposals</CardTitle>
          <CardDescription>
            Chaincode definitions proposed to the consortium. Each console accepts to install and approve for its own
            orgs; once a majority of the orgs approved, one console commits.
          </CardDescription>
        </div>
        {canManage && (
          <Button size="sm" asChild>
            <Link to={proposeChaincodeHref(networkId)}>
              <PlusIcon /> Propose chaincode
            </Link>
          </Button>
        )}
      </CardHeader>
      <CardContent>
        <QueryState
          query={list}
          isEmpty={(d) => d.length === 0}
          empty={<EmptyState title="No chaincode proposals on this channel" />}
        >
          {(d) => (
            <Table aria-label="Chaincode proposals">
              <TableHeader>
                <TableRow>
                  <TableHead>Chaincode</TableHead>
                  <TableHead>Version</TableHead>
                  <TableHead>Sequence</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Shared by</TableHead>
                  <TableHead>Approvals</TableHead>
                  <TableHead>Error</TableHead>
                  {canManage && <TableHead className="text-right">Actions</TableHead>}
                </TableRow>
              </TableHeader>
              <TableBody>
                {d.map((p) => (
                  <ProposalRow key={p.id} proposal={p} canManage={canManage} />
                ))}
              </TableBody>
            </Table>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
