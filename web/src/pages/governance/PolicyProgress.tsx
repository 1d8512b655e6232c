import type { ReactElement } from "react";
import { Badge } from "@/components/ui/badge";
import type { ProposalPolicy } from "@/data/governance/types";
import { policyProgress, policyVerdict } from "@/pages/governance/proposal-view";

/**
 * "2 of 3 orgs signed" as a bar against the channel's modification policy: the filled part is the
 * orgs that signed, the mark is how many must sign; the orgs that signed and are missing are named.
 */
export function PolicyProgress({ policy }: { policy: ProposalPolicy }): ReactElement {
  const p = policyProgress(policy);
  return (
    <div className="grid gap-3" data-testid="policy-progress">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-medium">{p.summary}</p>
        <Badge variant={p.satisfied ? "success" : "warning"}>{policyVerdict(p)}</Badge>
      </div>
      <div
        role="progressbar"
        aria-label="Signatures against the policy"
        aria-valuemin={0}
        aria-valuemax={p.total}
        aria-valuenow={p.signed}
        aria-valuetext={p.summary}
        className="relative h-2.5 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className={p.satisfied ? "h-full bg-success" : "h-full bg-primary"} style={{ width: `${p.percent}%` }} />
        {p.required > 0 && p.requiredPercent < 100 && (
          <div
            aria-hidden="true"
            className="absolute inset-y-0 w-0.5 bg-foreground/60"
            style={{ left: `${p.requiredPercent}%` }}
          />
        )}
      </div>
      <p className="text-xs text-muted-foreground [overflow-wrap:anywhere]">Policy: {policy.rule || "—"}</p>
      <dl className="grid gap-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-xs text-muted-foreground">Signed</dt>
          <dd className="mt-1 flex flex-wrap gap-1">
            {policy.signed.length ? (
              policy.signed.map((m) => (
                <Badge key={m} variant="success">
                  {m}
                </Badge>
              ))
            ) : (
              <span className="text-muted-foreground">No signatures yet</span>
            )}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Missing</dt>
          <dd className="mt-1 flex flex-wrap gap-1">
            {policy.missing.length ? (
              policy.missing.map((m) => (
                <Badge key={m} variant="outline">
                  {m}
                </Badge>
              ))
            ) : (
              <span className="text-muted-foreground">None</span>
            )}
          </dd>
        </div>
      </dl>
    </div>
  );
}
