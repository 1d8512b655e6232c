import { Loader2Icon } from "lucide-react";
import { useEffect, useState, type FormEvent, type ReactElement, type ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { useCreateChaincodeProposalMutation } from "@/data/chaincode-proposals/chaincode-proposal-create-mutation";
import type { ChaincodeProposal } from "@/data/chaincode-proposals/types";
import { useChaincodesQuery, useDefinitionsQuery, useDefinitionStatusQuery } from "@/data/chaincodes/chaincode-queries";
import { useFabricNetworkNodesQuery } from "@/data/fabric-networks/fabric-network-queries";
import { formErrorsFrom } from "@/lib/field-errors";
import { errorMessage } from "@/lib/utils";
import {
  defaultSequence,
  fromDefinition,
  initialProposeForm,
  proposalsTabHref,
  proposeBody,
  validateProposeForm,
  type ProposeField,
  type ProposeFormState,
  type ProposeSource,
} from "@/pages/networks/proposals/propose-form";
import { PolicyBuilder } from "@/pages/smart-contracts/ChaincodeDefinitionFormPage";

const selectClass = "h-9 rounded-md border bg-background px-3 text-sm";
const SERVER_FIELDS: Record<ProposeField, string> = {
  name: "name",
  version: "version",
  sequence: "sequence",
  endorsement_policy: "endorsement_policy",
  definition_id: "definition_id",
  docker_image: "docker_image",
  chaincode_address: "chaincode_address",
  source: "source",
};

function Field({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error?: string | undefined;
  children: ReactNode;
}): ReactElement {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
      <FieldError message={error} />
    </div>
  );
}

/**
 * Step 1 of proposing: the definition (name or an existing chaincode of the channel, version, sequence,
 * policy, init) and where its code comes from. Calls `onCreated` with the proposal and the archive to
 * upload, if one was chosen.
 */
export function ProposeChaincodeForm({
  network,
  onCreated,
}: {
  network: { id: number; name: string };
  onCreated: (proposal: ChaincodeProposal, file: File | undefined) => void;
}): ReactElement {
  const chaincodes = useChaincodesQuery();
  const mine = (chaincodes.data ?? []).filter((c) => c.network_id === network.id);
  const [f, setF] = useState<ProposeFormState>(initialProposeForm);
  const picked = mine.find((c) => String(c.id) === f.chaincode);
  const defs = useDefinitionsQuery(picked?.id ?? Number.NaN);
  const status = useDefinitionStatusQuery(picked?.latest_definition?.id);
  const members = useFabricNetworkNodesQuery(network.id);
  const create = useCreateChaincodeProposalMutation();
  const [file, setFile] = useState<File>();
  const [errors, setErrors] = useState<Partial<Record<ProposeField, string>>>({});
  const [formError, setFormError] = useState<string>();
  const [sequenceTouched, setSequenceTouched] = useState(false);
  const nextSequence = status.data?.next_sequence;

  // The committed sequence arrives after the pick; it fills the field unless the operator typed one.
  useEffect(() => {
    if (sequenceTouched || f.source === "definition") return;
    const seq = String(defaultSequence(picked, nextSequence));
    setF((x) => (x.sequence === seq ? x : { ...x, sequence: seq }));
  }, [picked, nextSequence, sequenceTouched, f.source]);

  const set = <K extends keyof ProposeFormState>(k: K, v: ProposeFormState[K]): void => {
    setF((x) => ({ ...x, [k]: v }));
    setErrors((e) => ({ ...e, [k === "policy" ? "endorsement_policy" : k]: undefined }));
  };
  const pickChaincode = (value: string): void => {
    const cc = mine.find((c) => String(c.id) === value);
    setSequenceTouched(false);
    setF((x) => ({
      ...x,
      chaincode: value,
      name: cc ? cc.name : "",
      definitionId: "",
      source: x.source === "definition" && !cc ? "upload" : x.source,
    }));
    setErrors({});
  };
  const orgs = [
    ...new Set(
      (members.data ?? [])
        .filter((m) => m.role === "peer")
        .map((m) => m.node?.fabricPeer?.mspId)
        .filter((x): x is string => Boolean(x)),
    ),
  ];

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setFormError(undefined);
    const found = validateProposeForm({ ...f, hasFile: file !== undefined });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      const proposal = await create.mutateAsync(proposeBody(f, network));
      onCreated(proposal, f.source === "upload" ? file : undefined);
    } catch (err) {
      const byField = formErrorsFrom(err, SERVER_FIELDS);
      setErrors(byField);
      if (Object.keys(byField).length === 0) setFormError(errorMessage(err));
    }
  };

  return (
    <form className="grid max-w-3xl gap-4" onSubmit={(e) => void submit(e)} noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="cc-pick" label="Chaincode">
          <select
            id="cc-pick"
            className={selectClass}
            value={f.chaincode}
            onChange={(e) => pickChaincode(e.target.value)}
          >
            <option value="new">A new chaincode</option>
            {mine.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
                {c.latest_definition ? ` (sequence ${c.latest_definition.sequence})` : ""}
              </option>
            ))}
          </select>
        </Field>
        <Field id="cc-name" label="Name" error={errors.name}>
          <Input
            id="cc-name"
            value={f.name}
            disabled={picked !== undefined}
            placeholder="basic"
            onChange={(e) => set("name", e.target.value)}
          />
        </Field>
        <Field id="cc-version" label="Version" error={errors.version}>
          <Input id="cc-version" value={f.version} onChange={(e) => set("version", e.target.value)} />
        </Field>
        <Field id="cc-sequence" label="Sequence (committed sequence + 1)" error={errors.sequence}>
          <Input
            id="cc-sequence"
            type="number"
            min={1}
            value={f.sequence}
            onChange={(e) => {
              setSequenceTouched(true);
              set("sequence", e.target.value);
            }}
          />
        </Field>
      </div>
      <Field id="cc-policy" label="Endorsement policy" error={errors.endorsement_policy}>
        <Input
          id="cc-policy"
          value={f.policy}
          onChange={(e) => set("policy", e.target.value)}
          placeholder="AND('Org1MSP.peer','Org2MSP.peer'), or empty for the channel's default"
        />
        <PolicyBuilder orgs={orgs} onBuild={(dsl) => set("policy", dsl)} />
      </Field>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={f.initRequired} onChange={(e) => set("initRequired", e.target.checked)} />
        Init required (the chaincode's Init must be invoked first)
      </label>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Source</legend>
        {(
          [
            ["upload", "Upload an archive (tar.gz, zip) or executable after creating the proposal"],
            ["definition", "An existing definition of this chaincode on this console"],
            ["docker", "A Docker image (needs a Docker engine on every console)"],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="cc-source"
              value={value}
              checked={f.source === value}
              disabled={value === "definition" && picked === undefined}
              onChange={() => set("source", value as ProposeSource)}
            />
            {label}
          </label>
        ))}
      </fieldset>
      {f.source === "upload" && (
        <Field id="cc-file" label="Source archive" error={errors.source}>
          <Input
            id="cc-file"
            type="file"
            onChange={(e) => {
              setFile(e.target.files?.[0]);
              setErrors((x) => ({ ...x, source: undefined }));
            }}
          />
        </Field>
      )}
      {f.source === "definition" && (
        <Field id="cc-definition" label="Definition" error={errors.definition_id}>
          <select
            id="cc-definition"
            className={selectClass}
            value={f.definitionId}
            onChange={(e) => {
              const d = defs.data?.find((x) => String(x.id) === e.target.value);
              setF((x) => (d ? fromDefinition(x, d) : { ...x, definitionId: "" }));
              setErrors({});
            }}
          >
            <option value="">Choose a definition</option>
            {(defs.data ?? []).map((d) => (
              <option key={d.id} value={d.id}>
                {d.version}, sequence {d.sequence} ({d.source_type})
              </option>
            ))}
          </select>
        </Field>
      )}
      {f.source === "docker" && (
        <Field id="cc-image" label="Docker image" error={errors.docker_image}>
          <Input id="cc-image" value={f.dockerImage} onChange={(e) => set("dockerImage", e.target.value)} />
        </Field>
      )}
      <Field id="cc-address" label="Chaincode address on this console (optional)" error={errors.chaincode_address}>
        <Input
          id="cc-address"
          value={f.address}
          onChange={(e) => set("address", e.target.value)}
          placeholder="a free port is chosen when empty"
        />
      </Field>
      <FieldError message={formError} />
      <div className="flex gap-2">
        <Button type="submit" disabled={create.isPending}>
          {create.isPending && <Loader2Icon className="animate-spin" />} Propose
        </Button>
        <Button type="button" variant="outline" asChild>
          <Link to={proposalsTabHref(network.id)}>Cancel</Link>
        </Button>
      </div>
    </form>
  );
}
