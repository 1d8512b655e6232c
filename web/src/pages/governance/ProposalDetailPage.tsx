import { Loader2Icon, RefreshCwIcon, SendIcon, TriangleAlertIcon } from "lucide-react";
import type { ReactElement } from "react";
import { useParams } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { PageHeader, QueryState } from "@/components/states";
import { ConfirmButton } from "@/components/ConfirmDialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { useProposalRecomputeMutation, useProposalSubmitMutation } from "@/data/governance/proposal-mutations";
import { useProposalQuery } from "@/data/governance/proposal-queries";
import type { Proposal } from "@/data/governance/types";
import { showToast } from "@/lib/toast";
import { PolicyProgress } from "@/pages/governance/PolicyProgress";
import { ProposalDiff } from "@/pages/governance/ProposalDiff";
import { ProposalOverview } from "@/pages/governance/ProposalOverview";
import { ProposalTimeline } from "@/pages/governance/ProposalTimeline";
import { diffSummary, displayStatus, isProposer } from "@/pages/governance/proposal-view";
import { ShareProposalCard } from "@/pages/governance/ShareProposalCard";
import { SignaturesCard } from "@/pages/governance/SignaturesCard";
import { SignCard } from "@/pages/governance/SignCard";

/** Stale: only the proposer recomputes (old signatures covered other bytes and are voided). */
function StaleNotice({ p }: { p: Proposal }): ReactElement {
  const recompute = useProposalRecomputeMutation(p.id);
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-destructive/40 bg-destructive/5 p-4"
    >
      <div className="flex items-start gap-2">
        <TriangleAlertIcon className="mt-0.5 size-4 text-destructive" />
        <p className="text-sm">
          The channel config changed since this proposal was computed (sequence {p.config_sequence}). It can&apos;t be
          signed or submitted until {isProposer(p) ? "it is recomputed" : `${p.origin_node_id} recomputes it`}.
          {isProposer(p) && " Recomputing deletes the signatures collected so far."}
        </p>
      </div>
      {isProposer(p) && (
        <RoleGate denied={["viewer"]}>
          <Button
            variant="outline"
            disabled={recompute.isPending}
            onClick={() =>
              recompute.mutate(undefined, {
                onSuccess: () =>
                  showToast("success", "Proposal recomputed", {
                    description: "Share it again so the other consoles sign the new update.",
                  }),
              })
            }
          >
            {recompute.isPending ? <Loader2Icon className="animate-spin" /> : <RefreshCwIcon />} Recompute
          </Button>
        </RoleGate>
      )}
    </div>
  );
}

function SubmitButton({ p }: { p: Proposal }): ReactElement {
  const submit = useProposalSubmitMutation(p.id);
  const ready = p.status === "pending" && !p.stale && p.policy.satisfied;
  const changes = p.changes.slice(0, 5);
  return (
    <ConfirmButton
      variant="default"
      confirmVariant="default"
      disabled={!ready || submit.isPending}
      buttonTitle={ready ? undefined : "The signatures must meet the channel's modification policy first"}
      title="Submit this config update?"
      description={
        <>
          The orderer applies it to channel {p.channel_name} at once; it can't be withdrawn afterwards. It makes{" "}
          {diffSummary(p.changes)}
          {changes.length > 0 && ":"}
          {changes.length > 0 && (
            <span className="mt-2 block font-mono text-xs break-all">
              {changes.map((c) => (
                <span key={`${c.kind}:${c.path}`} className="block">
                  {c.kind} {c.path}
                </span>
              ))}
              {p.changes.length > changes.length && <span className="block">…</span>}
            </span>
          )}
        </>
      }
      confirmLabel="Submit"
      onConfirm={() =>
        submit.mutateAsync(undefined).then(
          (r) => showToast("success", "Config update submitted", { description: `Transaction ${r.tx_id}` }),
          () => undefined,
        )
      }
    >
      {submit.isPending ? <Loader2Icon className="animate-spin" /> : <SendIcon />} Submit
    </ConfirmButton>
  );
}

/** The body of a proposal's screens: progress, diff, signing, signatures, sharing and the timeline. */
export function ProposalBody({ p }: { p: Proposal }): ReactElement {
  const status = displayStatus(p);
  return (
    <div className="space-y-6">
      {status === "stale" && <StaleNotice p={p} />}
      <ProposalOverview p={p} />
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Signatures against the policy</CardTitle>
        </CardHeader>
        <CardContent>
          <PolicyProgress policy={p.policy} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Changes</CardTitle>
        </CardHeader>
        <CardContent>
          <ProposalDiff changes={p.changes} previewJson={p.preview_json} />
        </CardContent>
      </Card>
      {p.status !== "submitted" && (
        <RoleGate denied={["viewer"]}>
          <div className="grid gap-6 lg:grid-cols-2">
            <SignCard p={p} />
            {isProposer(p) && <ShareProposalCard p={p} />}
          </div>
        </RoleGate>
      )}
      <SignaturesCard p={p} />
      <ProposalTimeline proposalId={p.id} />
    </div>
  );
}

/** A channel config-update proposal: its diff, the signature count against the policy, and actions. */
export function ProposalDetailPage(): ReactElement {
  const id = useParams().id ?? "";
  const proposal = useProposalQuery(id);
  return (
    <QueryState query={proposal}>
      {(p) => (
        <div className="space-y-6">
          <PageHeader
            title={`Proposal: ${p.proposal_type}`}
            description={`Config update of channel ${p.channel_name}`}
            actions={
              p.status !== "submitted" && (
                <RoleGate denied={["viewer"]}>
                  <SubmitButton p={p} />
                </RoleGate>
              )
            }
          />
          <ProposalBody p={p} />
        </div>
      )}
    </QueryState>
  );
}
