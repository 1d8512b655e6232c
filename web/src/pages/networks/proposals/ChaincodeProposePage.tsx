import { Loader2Icon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { ErrorState, LoadingRows, PageHeader } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { chaincodeProposalKeys } from "@/data/chaincode-proposals/keys";
import type { ChaincodeProposal } from "@/data/chaincode-proposals/types";
import { uploadChaincodeSource } from "@/data/chaincodes/chaincode-mutations";
import { chaincodeKeys } from "@/data/chaincodes/keys";
import { useConnectedPeersQuery } from "@/data/federation/connected-peers-query";
import { useFabricNetworkQuery } from "@/data/fabric-networks/fabric-network-queries";
import { errorMessage } from "@/lib/utils";
import { proposalsTabHref } from "@/pages/networks/proposals/propose-form";
import { ProposeChaincodeForm } from "@/pages/networks/proposals/ProposeChaincodeForm";
import { ShareProposalForm } from "@/pages/networks/proposals/ShareChaincodeProposalButton";
import { shareTargets } from "@/pages/shared-networks/share-view";

type Step =
  | { kind: "form" }
  | { kind: "upload"; proposal: ChaincodeProposal; file: File | undefined; error?: string; busy: boolean }
  | { kind: "share"; proposal: ChaincodeProposal };

/**
 * Uploads the archive to the definition the server created for the proposal. A failure keeps the
 * proposal (it exists already) and offers another try, with this or another file.
 */
function UploadStep({
  step,
  onRetry,
  onSkip,
}: {
  step: Extract<Step, { kind: "upload" }>;
  onRetry: (file: File | undefined) => void;
  onSkip: () => void;
}): ReactElement {
  const [file, setFile] = useState<File | undefined>(step.file);
  return (
    <div className="grid max-w-xl gap-4">
      {step.busy ? (
        <p className="flex items-center gap-2 text-sm" role="status">
          <Loader2Icon className="size-4 animate-spin" /> Uploading {step.file?.name}…
        </p>
      ) : (
        <>
          <FieldError message={step.error} />
          <div className="grid gap-2">
            <Label htmlFor="cc-retry-file">Source archive</Label>
            <Input id="cc-retry-file" type="file" onChange={(e) => setFile(e.target.files?.[0])} />
          </div>
          <div className="flex gap-2">
            <Button disabled={!file} onClick={() => onRetry(file)}>
              Upload again
            </Button>
            <Button variant="outline" onClick={onSkip}>
              Continue without source
            </Button>
          </div>
        </>
      )}
    </div>
  );
}

/** Step 3: send the proposal to connected consoles, or skip; both end on the network's Proposals tab. */
function ShareStep({ proposal, onDone }: { proposal: ChaincodeProposal; onDone: () => void }): ReactElement {
  const peers = useConnectedPeersQuery();
  const targets = shareTargets(peers.data);
  if (peers.isPending) return <LoadingRows rows={2} />;
  if (peers.isError) return <ErrorState error={peers.error} what="Connected consoles" />;
  if (targets.length === 0) {
    return (
      <div className="grid max-w-xl gap-3 text-sm">
        <p>
          No connected consoles to share with.{" "}
          <Link to="/connect" className="text-primary hover:underline">
            Connect one
          </Link>{" "}
          and share it later from the Proposals tab.
        </p>
        <div>
          <Button onClick={onDone}>Go to the proposals</Button>
        </div>
      </div>
    );
  }
  return (
    <div className="grid max-w-xl gap-3">
      <p role="status" className="text-sm">
        {proposal.name} {proposal.version}, sequence {proposal.sequence}, is proposed on {proposal.channelName}.
      </p>
      <ShareProposalForm proposal={proposal} peers={targets} onDone={onDone} onCancel={onDone} cancelLabel="Skip" />
    </div>
  );
}

function ProposeFlow({ networkId }: { networkId: number }): ReactElement {
  const network = useFabricNetworkQuery(networkId);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [step, setStep] = useState<Step>({ kind: "form" });
  const done = (): void => void navigate(proposalsTabHref(networkId));

  const upload = async (proposal: ChaincodeProposal, file: File | undefined): Promise<void> => {
    if (!file) return setStep({ kind: "share", proposal });
    setStep({ kind: "upload", proposal, file, busy: true });
    try {
      if (proposal.definitionId === null) throw new Error("the server created no definition to upload the source to");
      await uploadChaincodeSource(proposal.definitionId, file);
      await qc.invalidateQueries({ queryKey: chaincodeProposalKeys.all });
      await qc.invalidateQueries({ queryKey: chaincodeKeys.all });
      setStep({ kind: "share", proposal });
    } catch (err) {
      setStep({ kind: "upload", proposal, file, busy: false, error: `source: ${errorMessage(err)}` });
    }
  };

  if (network.isPending) return <LoadingRows />;
  if (network.isError) return <ErrorState error={network.error} what="Network" />;
  const titles: Record<Step["kind"], [string, string]> = {
    form: ["1. Definition", "What every org approves: name, version, sequence, endorsement policy, and the code."],
    upload: ["2. Source", "The proposal exists; its definition needs the code recipients will build."],
    share: ["3. Share", "Send the proposal to the consoles of the other orgs so they can accept it."],
  };
  const [title, description] = titles[step.kind];
  return (
    <div>
      <PageHeader
        title="Propose chaincode"
        description={`Propose a chaincode definition to the consortium on channel ${network.data.name}.`}
      />
      <Card>
        <CardHeader>
          <CardTitle className="text-base">{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent>
          {step.kind === "form" && (
            <ProposeChaincodeForm
              network={{ id: networkId, name: network.data.name }}
              onCreated={(p, file) => void upload(p, file)}
            />
          )}
          {step.kind === "upload" && (
            <UploadStep
              step={step}
              onRetry={(file) => void upload(step.proposal, file)}
              onSkip={() => setStep({ kind: "share", proposal: step.proposal })}
            />
          )}
          {step.kind === "share" && <ShareStep proposal={step.proposal} onDone={done} />}
        </CardContent>
      </Card>
    </div>
  );
}

/** networks/{networkId}/fabric/chaincodes/propose: define, add the source, share; then the Proposals tab. */
export function ChaincodeProposePage(): ReactElement {
  const networkId = Number(useParams().networkId);
  return (
    <OperatorsOnly what="propose chaincodes">
      <ProposeFlow networkId={networkId} />
    </OperatorsOnly>
  );
}
