import { Loader2Icon, PlusIcon } from "lucide-react";
import { useMemo, useState, type ReactElement } from "react";
import { useNavigate, useParams } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { NoAccessState, PageHeader, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { FieldError, Label } from "@/components/ui/label";
import { useExternalOrganizationsQuery } from "@/data/external-nodes/external-organizations-query";
import { useFabricChannelConfigQuery, useFabricNetworkQuery } from "@/data/fabric-networks/fabric-network-queries";
import { useProposalCreateMutation } from "@/data/governance/proposal-mutations";
import { errorMessage } from "@/lib/utils";
import { showToast } from "@/lib/toast";
import { addableExternalOrgs } from "@/pages/networks/AddExternalOrgCard";
import { batchSettingsOf, channelOrgsOf } from "@/pages/networks/fabric-network";
import { OperationEditor } from "@/pages/governance/OperationEditor";
import { ProposalDiff } from "@/pages/governance/ProposalDiff";
import {
  newDraft,
  OPERATION_LABEL,
  previewChanges,
  proposalTypeOf,
  toOperations,
  validateDrafts,
  type DraftContext,
  type OperationDraft,
  type OperationKind,
} from "@/pages/governance/proposal-form";
import { proposalPath } from "@/pages/governance/proposal-view";

function CreateForm({ networkId, channel }: { networkId: number; channel: string }): ReactElement {
  const navigate = useNavigate();
  const current = useFabricChannelConfigQuery(networkId, "current");
  // The current config comes from a running node; without one the editors fall back to block 0 (the
  // server still computes the proposal against a running orderer's newest config, or says why not).
  const genesis = useFabricChannelConfigQuery(networkId, "genesis");
  const external = useExternalOrganizationsQuery();
  const create = useProposalCreateMutation();
  const [drafts, setDrafts] = useState<OperationDraft[]>([]);
  const [kind, setKind] = useState<OperationKind>("add_org");
  const [errors, setErrors] = useState<Record<number, Record<string, string>>>({});
  const [rootError, setRootError] = useState<string>();
  const config = current.data?.config ?? (current.isError ? genesis.data?.config : undefined);
  const loading = current.isPending || (current.isError && genesis.isPending);
  const ctx = useMemo<DraftContext>(() => {
    const orgs = channelOrgsOf(config);
    return {
      // Removing an org and anchor peers are changes of the application (peer) orgs.
      channelOrgs: orgs.peer,
      current: batchSettingsOf(config),
      externalOrgs: external.data ?? [],
    };
  }, [config, external.data]);
  const addable = addableExternalOrgs(external.data ?? [], channelOrgsOf(config).peer);
  const preview = previewChanges(drafts, ctx);
  const update = (i: number, d: OperationDraft): void => {
    setDrafts((all) => all.map((x, j) => (j === i ? d : x)));
    setErrors((all) => {
      const rest = { ...all };
      delete rest[i];
      return rest;
    });
    setRootError(undefined);
  };
  const submit = (): void => {
    if (drafts.length === 0) return setRootError("Add at least one operation");
    const found = validateDrafts(drafts, ctx);
    setErrors(found);
    if (Object.keys(found).length > 0) return setRootError("Fix the operations marked above");
    setRootError(undefined);
    create.mutate(
      { network_id: networkId, proposal_type: proposalTypeOf(drafts), operations: toOperations(drafts, ctx) },
      {
        onSuccess: (p) => {
          showToast("success", "Proposal created", { description: p.policy.summary });
          void navigate(proposalPath(p));
        },
        onError: (e) => setRootError(errorMessage(e)),
      },
    );
  };
  if (current.isError && genesis.isError) return <QueryState query={current}>{() => null}</QueryState>;
  return (
    <div className="space-y-6">
      {current.isError && (
        <p role="status" className="rounded-lg border border-warning/50 bg-warning/10 p-4 text-sm">
          The channel&apos;s current config could not be read ({current.error.message}); the editors use its first
          config block. Creating the proposal needs a joined, running orderer of the channel.
        </p>
      )}
      {drafts.map((d, i) => (
        <OperationEditor
          key={i}
          index={i}
          draft={d}
          errors={errors[i] ?? {}}
          channelOrgs={ctx.channelOrgs}
          externalOrgs={addable}
          onChange={(x) => update(i, x)}
          onRemove={() => {
            setDrafts((all) => all.filter((_, j) => j !== i));
            setErrors({});
          }}
        />
      ))}
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Add an operation</CardTitle>
          <CardDescription>
            The same changes as the channel config tab; they are applied in order to the current config of {channel}.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap items-end gap-2">
          <div className="grid min-w-64 gap-2">
            <Label htmlFor="operation-kind">Operation</Label>
            <select
              id="operation-kind"
              className="h-9 w-full min-w-0 rounded-md border bg-background px-3 text-sm"
              value={kind}
              onChange={(e) => setKind(e.target.value as OperationKind)}
            >
              {(Object.keys(OPERATION_LABEL) as OperationKind[]).map((k) => (
                <option key={k} value={k}>
                  {OPERATION_LABEL[k]}
                </option>
              ))}
            </select>
          </div>
          <Button
            type="button"
            variant="outline"
            disabled={loading}
            onClick={() => {
              setDrafts((all) => [...all, newDraft(kind, ctx.current)]);
              setRootError(undefined);
            }}
          >
            <PlusIcon /> Add operation
          </Button>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Preview</CardTitle>
          <CardDescription>
            What the operations change. The console computes the exact update against the channel&apos;s newest config
            when you create the proposal; that update is what every organization signs.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ProposalDiff changes={preview} />
        </CardContent>
        <CardFooter className="flex-col items-end gap-2 pt-4">
          <FieldError message={rootError} />
          <Button onClick={submit} disabled={create.isPending || loading}>
            {create.isPending && <Loader2Icon className="animate-spin" />}
            Create proposal
          </Button>
        </CardFooter>
      </Card>
    </div>
  );
}

/** Builds a channel config-update proposal from operations and previews what it changes. */
export function ProposalCreatePage(): ReactElement {
  const id = Number(useParams().id);
  const network = useFabricNetworkQuery(id);
  return (
    <QueryState query={network}>
      {(n) => (
        <div className="space-y-6">
          <PageHeader
            title="Create proposal"
            description={`A config update of channel ${n.name}, signed by enough organizations before it is submitted.`}
          />
          <RoleGate denied={["viewer"]} fallback={<NoAccessState what="create proposals" />}>
            <CreateForm networkId={n.id} channel={n.name} />
          </RoleGate>
        </div>
      )}
    </QueryState>
  );
}
