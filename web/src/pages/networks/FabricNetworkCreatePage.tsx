import { Loader2Icon } from "lucide-react";
import { FormSection } from "@/components/FormSection";
import { useMemo, useRef, useState, type ReactElement } from "react";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import type { NodeInfo, Organization } from "@/api/client";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { ORGANIZATION_LIST_LIMIT } from "@/app/constants";
import { PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardFooter } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { joinNode, useFabricNetworkCreateMutation } from "@/data/fabric-networks/fabric-network-mutations";
import { JoinProgress, useJoinRunner } from "@/pages/networks/JoinProgress";
import type { FabricNetwork } from "@/data/fabric-networks/types";
import { useNodesQuery } from "@/data/nodes/nodes-query";
import { useOrganizationsQuery } from "@/data/organizations/organizations-query";
import { formErrorsFrom } from "@/lib/field-errors";
import {
  bftAllowed,
  CHANNEL_NAME_RULE,
  channelNameError,
  DURATION,
  FABRIC_NETWORK_FORM_DEFAULTS,
  FABRIC_NETWORK_FORM_FIELDS,
  toCreateFabricNetworkBody,
  type FabricNetworkFormValues,
} from "@/pages/networks/fabric-network";

type Role = "peer" | "orderer";
/** org id → chosen node ids, per role. */
type Choice = Record<number, number[]>;

function nodeOrg(n: NodeInfo): number | undefined {
  return n.fabricPeer?.organizationId ?? n.fabricOrderer?.organizationId;
}

/** Organizations as checkboxes; a chosen org lists its nodes of the role to pick from. */
function OrgNodePicker({
  role,
  orgs,
  nodes,
  value,
  onChange,
}: {
  role: Role;
  orgs: Organization[];
  nodes: NodeInfo[];
  value: Choice;
  onChange: (c: Choice) => void;
}): ReactElement {
  const type = role === "peer" ? "FABRIC_PEER" : "FABRIC_ORDERER";
  if (orgs.length === 0) return <p className="text-sm text-muted-foreground">No organizations yet.</p>;
  return (
    <div className="grid gap-3">
      {orgs.map((o) => {
        const chosen = value[o.id];
        const mine = nodes.filter((n) => n.nodeType === type && nodeOrg(n) === o.id);
        return (
          <div key={o.id} className="rounded-lg border p-3">
            <label className="flex items-center gap-2 text-sm font-medium">
              <input
                type="checkbox"
                className="size-4 accent-primary"
                checked={Boolean(chosen)}
                onChange={(e) => {
                  const next = { ...value };
                  if (e.target.checked) next[o.id] = mine.filter((n) => n.status === "RUNNING").map((n) => n.id);
                  else delete next[o.id];
                  onChange(next);
                }}
              />
              {/* An MSP ID has no spaces: let a long one wrap instead of widening a phone's page. */}
              <span className="min-w-0 break-all">{o.mspId}</span>
            </label>
            {chosen && (
              <div className="mt-2 grid gap-1.5 pl-6">
                {mine.length === 0 && (
                  <p className="text-xs text-muted-foreground">This organization has no {role}s.</p>
                )}
                {mine.map((n) => (
                  <label key={n.id} className="flex flex-wrap items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="size-4 accent-primary"
                      checked={chosen.includes(n.id)}
                      onChange={(e) =>
                        onChange({
                          ...value,
                          [o.id]: e.target.checked ? [...chosen, n.id] : chosen.filter((x) => x !== n.id),
                        })
                      }
                    />
                    {n.name}
                    <Badge variant={n.status === "RUNNING" ? "success" : "secondary"}>{n.status}</Badge>
                    {(n.fabricOrderer ?? n.fabricPeer)?.version && (
                      <span className="text-xs text-muted-foreground">
                        Fabric {(n.fabricOrderer ?? n.fabricPeer)?.version}
                      </span>
                    )}
                  </label>
                ))}
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}

function toChoices(c: Choice): { orgId: number; nodeIds: number[] }[] {
  return Object.entries(c).map(([orgId, nodeIds]) => ({ orgId: Number(orgId), nodeIds }));
}

function CreateContent(): ReactElement {
  const navigate = useNavigate();
  const orgs = useOrganizationsQuery(ORGANIZATION_LIST_LIMIT);
  const nodesQ = useNodesQuery({ page: 1, limit: 1000, platform: "FABRIC" });
  const create = useFabricNetworkCreateMutation();
  const [peerChoice, setPeerChoice] = useState<Choice>({});
  const [ordererChoice, setOrdererChoice] = useState<Choice>({});
  const [network, setNetwork] = useState<FabricNetwork>();
  // The created network's id, read by join steps that start before the state update renders.
  const networkId = useRef(0);
  const join = useJoinRunner((r) => joinNode(networkId.current, r.role, r.nodeId));
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    watch,
    formState: { errors },
  } = useForm<FabricNetworkFormValues>({ defaultValues: FABRIC_NETWORK_FORM_DEFAULTS });

  const nodes = useMemo(() => nodesQ.data?.items ?? [], [nodesQ.data]);
  const byId = useMemo(() => new Map(nodes.map((n) => [n.id, n])), [nodes]);
  const chosenOrderers = Object.values(ordererChoice)
    .flat()
    .map((id) => byId.get(id))
    .filter((n): n is NodeInfo => Boolean(n));
  const canBft = bftAllowed(chosenOrderers);
  // BFT falls back to Raft as soon as a chosen orderer isn't on Fabric 3.x.
  const consensus = canBft ? watch("consensusType") : "etcdraft";

  const onSubmit = handleSubmit((v) => {
    const values: FabricNetworkFormValues = {
      ...v,
      consensusType: consensus,
      peerOrgs: toChoices(peerChoice),
      ordererOrgs: toChoices(ordererChoice),
    };
    if (values.ordererOrgs.length === 0 || chosenOrderers.length === 0) {
      setError("ordererOrgs", { message: "Choose at least one orderer" });
      return;
    }
    create.mutate(toCreateFabricNetworkBody(values), {
      onSuccess: (n) => {
        setNetwork(n);
        networkId.current = n.id;
        const planned = [
          ...values.ordererOrgs.flatMap((o) => o.nodeIds.map((id) => ({ nodeId: id, role: "orderer" as const }))),
          ...values.peerOrgs.flatMap((o) => o.nodeIds.map((id) => ({ nodeId: id, role: "peer" as const }))),
        ].map((r) => ({ ...r, name: byId.get(r.nodeId)?.name ?? `node ${r.nodeId}` }));
        join.start(planned);
      },
      onError: (e) => {
        for (const [field, message] of Object.entries(formErrorsFrom(e, FABRIC_NETWORK_FORM_FIELDS))) {
          setError(field as keyof FabricNetworkFormValues, { message: message as string });
        }
      },
    });
  });

  if (network) {
    return (
      <div className="max-w-4xl space-y-6">
        <PageHeader
          title="Create Fabric Network"
          description={`Channel ${network.name} has its genesis block; each chosen node now joins it.`}
        />
        <JoinProgress network={network} rows={join.rows} running={join.running} onRetry={join.retry} />
      </div>
    );
  }

  const num = (name: "maxMessageCount" | "absoluteMaxBytes" | "preferredMaxBytes", label: string): ReactElement => (
    <div className="grid content-start gap-2">
      <Label htmlFor={`fabric-${name}`}>{label}</Label>
      <Input
        id={`fabric-${name}`}
        inputMode="numeric"
        placeholder="Default"
        aria-invalid={Boolean(errors[name])}
        {...register(name, { validate: (x) => !x.trim() || /^[1-9]\d*$/.test(x.trim()) || "A positive whole number" })}
      />
      <FieldError message={errors[name]?.message} />
    </div>
  );

  return (
    <div className="max-w-3xl">
      <PageHeader
        title="Create Fabric Network"
        description="ChainLaunch builds the channel's genesis block from the organizations and nodes you choose, then joins each node."
      />
      <QueryState query={orgs}>
        {(o) => (
          <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-6">
            <FormSection title="Channel" description="The channel name is the network's name on every node.">
              <div className="grid content-start gap-2">
                <Label htmlFor="fabric-name">Channel name</Label>
                <Input
                  id="fabric-name"
                  placeholder="mychannel"
                  aria-invalid={Boolean(errors.name)}
                  {...register("name", { validate: (x) => channelNameError(x.trim()) ?? true })}
                />
                <p className="text-xs text-muted-foreground">{CHANNEL_NAME_RULE}</p>
                <FieldError message={errors.name?.message} />
              </div>
              <div className="grid content-start gap-2">
                <Label htmlFor="fabric-description">Description</Label>
                <Input id="fabric-description" placeholder="Optional" {...register("description")} />
                <FieldError message={errors.description?.message} />
              </div>
            </FormSection>
            <FormSection
              title="Orderer organizations"
              description="Their orderers become the channel's consenters; they should be running."
              testId="orderer-orgs"
            >
              {nodesQ.isPending ? (
                <p className="text-sm text-muted-foreground">Loading nodes…</p>
              ) : (
                <OrgNodePicker
                  role="orderer"
                  orgs={o.items}
                  nodes={nodes}
                  value={ordererChoice}
                  onChange={setOrdererChoice}
                />
              )}
              <FieldError message={errors.ordererOrgs?.message} />
            </FormSection>
            <FormSection
              title="Peer organizations"
              description="Application organizations and the peers that join the channel."
              testId="peer-orgs"
            >
              {nodesQ.isPending ? (
                <p className="text-sm text-muted-foreground">Loading nodes…</p>
              ) : (
                <OrgNodePicker role="peer" orgs={o.items} nodes={nodes} value={peerChoice} onChange={setPeerChoice} />
              )}
              <FieldError message={errors.peerOrgs?.message} />
            </FormSection>
            <FormSection title="Consensus and batching" description="How the orderers agree and cut blocks.">
              <div className="grid gap-4 sm:grid-cols-2">
                <div className="grid content-start gap-2">
                  <Label htmlFor="fabric-consensus">Consensus</Label>
                  <Select
                    value={consensus}
                    onValueChange={(x) => setValue("consensusType", x as FabricNetworkFormValues["consensusType"])}
                  >
                    <SelectTrigger id="fabric-consensus" aria-label="Consensus">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      <SelectItem value="etcdraft">Raft (etcdraft)</SelectItem>
                      <SelectItem value="BFT" disabled={!canBft}>
                        BFT (SmartBFT)
                      </SelectItem>
                    </SelectContent>
                  </Select>
                  <p className="text-xs text-muted-foreground">
                    {canBft ? "BFT tolerates malicious orderers." : "BFT needs every chosen orderer on Fabric 3.x."}
                  </p>
                  <FieldError message={errors.consensusType?.message} />
                </div>
                <div className="grid content-start gap-2">
                  <Label htmlFor="fabric-batchTimeout">Batch timeout</Label>
                  <Input
                    id="fabric-batchTimeout"
                    placeholder="2s"
                    aria-invalid={Boolean(errors.batchTimeout)}
                    {...register("batchTimeout", {
                      validate: (x) => !x.trim() || DURATION.test(x.trim()) || "A duration such as 2s or 500ms",
                    })}
                  />
                  <FieldError message={errors.batchTimeout?.message} />
                </div>
                {num("maxMessageCount", "Max message count")}
                {num("absoluteMaxBytes", "Absolute max bytes")}
                {num("preferredMaxBytes", "Preferred max bytes")}
              </div>
            </FormSection>
            <Card>
              <CardFooter className="justify-end">
                <Button type="button" variant="outline" onClick={() => void navigate("/network/fabric")}>
                  Cancel
                </Button>
                <Button type="submit" disabled={create.isPending}>
                  {create.isPending && <Loader2Icon className="animate-spin" />}
                  Create network
                </Button>
              </CardFooter>
            </Card>
          </form>
        )}
      </QueryState>
    </div>
  );
}

/** Viewers can't create networks; they see why instead of a form the server would refuse. */
export function FabricNetworkCreatePage(): ReactElement {
  return (
    <OperatorsOnly what="create networks">
      <CreateContent />
    </OperatorsOnly>
  );
}
