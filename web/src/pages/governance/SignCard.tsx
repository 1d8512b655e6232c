import { Loader2Icon, PenLineIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { ORGANIZATION_LIST_LIMIT } from "@/app/constants";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { FieldError, Label } from "@/components/ui/label";
import { useProposalSignMutation } from "@/data/governance/proposal-mutations";
import type { Proposal } from "@/data/governance/types";
import { useOrganizationsQuery } from "@/data/organizations/organizations-query";
import { showToast } from "@/lib/toast";
import { displayStatus, signableOrgs } from "@/pages/governance/proposal-view";

/** Why this console can't sign now, or undefined when it can. */
export function signBlocker(p: Proposal, orgs: readonly string[]): string | undefined {
  if (p.status === "submitted") return "This proposal was submitted; it can't be signed any more.";
  if (displayStatus(p) === "stale")
    return "The channel config changed since this proposal was computed; the proposer must recompute it.";
  if (p.network_id === 0) return `This console has no network for channel ${p.channel_name}.`;
  if (orgs.length === 0) return `This console holds no admin of an organization of channel ${p.channel_name}.`;
  return undefined;
}

/**
 * Signs the proposal as one of this console's orgs of the channel (its admin identity here). Calls
 * `onSigned` with the new signature's id, so a received proposal's page can send it back.
 */
export function SignCard({ p, onSigned }: { p: Proposal; onSigned?: (signatureId: number) => void }): ReactElement {
  const orgs = useOrganizationsQuery(ORGANIZATION_LIST_LIMIT);
  const sign = useProposalSignMutation(p.id);
  const options = signableOrgs(p.policy, orgs.data?.items ?? []);
  const [chosen, setChosen] = useState("");
  const [error, setError] = useState<string>();
  const msp = chosen || (options.length === 1 ? options[0]! : "");
  const blocker = orgs.isPending ? undefined : signBlocker(p, options);
  const submit = (): void => {
    if (!msp) return setError("Choose the organization to sign as");
    setError(undefined);
    sign.mutate(msp, {
      onSuccess: (r) => {
        showToast("success", "Proposal signed", { description: `Signed as ${r.msp_id}.` });
        onSigned?.(r.id);
      },
    });
  };
  return (
    <Card data-testid="sign-card">
      <CardHeader>
        <CardTitle className="text-base">Sign</CardTitle>
        <CardDescription>
          Signs the exact config update bytes as an organization&apos;s admin held on this console. Signing again as the
          same organization replaces its signature.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2">
        {orgs.isPending ? (
          <p className="text-sm text-muted-foreground">Loading organizations…</p>
        ) : blocker ? (
          <p role="status" className="text-sm text-muted-foreground">
            {blocker}
          </p>
        ) : (
          <>
            <Label htmlFor="sign-msp">Sign as</Label>
            <select
              id="sign-msp"
              className="h-9 w-full min-w-0 rounded-md border bg-background px-3 text-sm"
              value={msp}
              onChange={(e) => {
                setChosen(e.target.value);
                setError(undefined);
              }}
            >
              <option value="">Choose an organization</option>
              {options.map((m) => (
                <option key={m} value={m}>
                  {m}
                  {p.policy.signed.includes(m) ? " (signed already)" : ""}
                </option>
              ))}
            </select>
          </>
        )}
        <FieldError message={error} />
      </CardContent>
      <CardFooter className="justify-end pt-4">
        <Button onClick={submit} disabled={Boolean(blocker) || orgs.isPending || sign.isPending}>
          {sign.isPending ? <Loader2Icon className="animate-spin" /> : <PenLineIcon />}
          {msp ? `Sign as ${msp}` : "Sign"}
        </Button>
      </CardFooter>
    </Card>
  );
}
