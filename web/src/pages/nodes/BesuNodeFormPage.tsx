import { Loader2Icon } from "lucide-react";
import { useEffect, type ReactElement } from "react";
import { Controller, useForm, type RegisterOptions } from "react-hook-form";
import { useNavigate, useParams, useSearchParams } from "react-router";
import type { NodeInfo } from "@/api/client";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { PageHeader, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useBesuNetworksQuery } from "@/data/besu-networks/besu-networks-query";
import { useKeysQuery } from "@/data/keys/keys-query";
import { useNodeCreateMutation, useNodeUpdateMutation } from "@/data/nodes/node-mutations";
import { useBesuDefaultsQuery, useNodeQuery } from "@/data/nodes/node-query";
import { formErrorsFrom } from "@/lib/field-errors";
import { updateOutcomeText } from "@/data/nodes/node-status";
import { showToast } from "@/lib/toast";
import { ExternalBootnodePicker } from "@/pages/nodes/ExternalBootnodePicker";
import { NODE_NAME, splitList } from "@/pages/nodes/fabric-form";

interface BesuNodeValues {
  name: string;
  networkId: string;
  keyId: string;
  p2pHost: string;
  p2pPort: string;
  rpcHost: string;
  rpcPort: string;
  externalIp: string;
  internalIp: string;
  metricsPort: string;
  bootNodes: string;
  externalBootnodeIds: number[];
}

/** The form's text inputs (every field but the external boot node checkboxes). */
type TextField = Exclude<keyof BesuNodeValues, "externalBootnodeIds">;

const EMPTY: BesuNodeValues = {
  name: "",
  networkId: "",
  keyId: "",
  p2pHost: "",
  p2pPort: "",
  rpcHost: "",
  rpcPort: "",
  externalIp: "",
  internalIp: "",
  metricsPort: "",
  bootNodes: "",
  externalBootnodeIds: [],
};

const FIELDS = {
  name: "name",
  networkId: "besuNode.networkId",
  keyId: "besuNode.keyId",
  p2pHost: "besuNode.p2pHost",
  p2pPort: "besuNode.p2pPort",
  rpcHost: "besuNode.rpcHost",
  rpcPort: "besuNode.rpcPort",
  externalIp: "besuNode.externalIp",
  internalIp: "besuNode.internalIp",
  metricsPort: "besuNode.metricsPort",
  bootNodes: ["besuNode.bootNodes", "besuNode.bootnodes"],
  externalBootnodeIds: "besuNode.externalBootnodeIds",
} as const;

function fromNode(n: NodeInfo): BesuNodeValues {
  const b = n.besuNode;
  if (!b) return { ...EMPTY, name: n.name };
  return {
    name: n.name,
    networkId: String(b.networkId),
    keyId: String(b.keyId),
    p2pHost: b.p2pHost,
    p2pPort: String(b.p2pPort),
    rpcHost: b.rpcHost,
    rpcPort: String(b.rpcPort),
    externalIp: b.externalIp,
    internalIp: b.internalIp,
    metricsPort: String(b.metricsPort),
    bootNodes: b.bootNodes.join("\n"),
    // The server keeps the resolved enode URLs (in bootNodes above), not the ids.
    externalBootnodeIds: [],
  };
}

const port = (v: string): true | string => (/^\d+$/.test(v) && +v >= 1 && +v <= 65535) || "A port, 1–65535";

function BesuNodeForm({ mode }: { mode: "create" | "edit" }): ReactElement {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(useParams().id);
  const node = useNodeQuery(mode === "edit" ? id : NaN);
  const networks = useBesuNetworksQuery(1000);
  const keys = useKeysQuery({ page: 1, pageSize: 1000, algorithm: "EC", curve: "secp256k1" });
  const defaults = useBesuDefaultsQuery(mode === "create");
  const create = useNodeCreateMutation();
  const update = useNodeUpdateMutation();
  const form = useForm<BesuNodeValues>({ defaultValues: { ...EMPTY, networkId: params.get("networkId") ?? "" } });
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = form;

  const d = defaults.data?.defaults[0];
  useEffect(() => {
    if (!d) return;
    form.reset({
      ...form.getValues(),
      p2pHost: d.p2pHost,
      p2pPort: String(d.p2pPort),
      rpcHost: d.rpcHost,
      rpcPort: String(d.rpcPort),
      externalIp: d.externalIp,
      internalIp: d.internalIp,
      metricsPort: String(d.metricsPort),
    });
  }, [d, form]);
  const loaded = node.data?.id;
  useEffect(() => {
    if (node.data) form.reset(fromNode(node.data));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per node, not on every poll
  }, [loaded, form]);

  const onError = (e: unknown): void => {
    for (const [f, message] of Object.entries(formErrorsFrom(e, FIELDS))) {
      setError(f as keyof BesuNodeValues, { message: message as string });
    }
  };
  const onSubmit = handleSubmit((v) => {
    const besu = {
      p2pHost: v.p2pHost.trim(),
      p2pPort: Number(v.p2pPort),
      rpcHost: v.rpcHost.trim(),
      rpcPort: Number(v.rpcPort),
      externalIp: v.externalIp.trim(),
      internalIp: v.internalIp.trim(),
      metricsEnabled: true,
      metricsPort: Number(v.metricsPort),
    };
    // The server adds these external nodes' enode URLs to the boot nodes.
    const external = v.externalBootnodeIds.length ? { externalBootnodeIds: v.externalBootnodeIds } : {};
    if (mode === "create") {
      create.mutate(
        {
          body: {
            name: v.name.trim(),
            blockchainPlatform: "BESU",
            besuNode: {
              ...besu,
              networkId: Number(v.networkId),
              keyId: Number(v.keyId),
              bootNodes: splitList(v.bootNodes),
              ...external,
              mode: "service",
            },
          },
        },
        {
          onSuccess: (n) => {
            showToast("success", "Node created", { description: `${n.name} is starting.` });
            void navigate(`/nodes/${n.id}`);
          },
          onError,
        },
      );
    } else {
      update.mutate(
        {
          id,
          body: {
            name: v.name.trim(),
            blockchainPlatform: "BESU",
            besuNode: { ...besu, bootnodes: splitList(v.bootNodes), ...external },
          },
        },
        {
          onSuccess: (n) => {
            showToast("success", "Node updated", { description: updateOutcomeText(n.name, node.data?.status) });
            void navigate(`/nodes/${n.id}`);
          },
          onError,
        },
      );
    }
  });

  const text = (
    name: TextField,
    label: string,
    rules: RegisterOptions<BesuNodeValues, TextField> = {},
  ): ReactElement => (
    <div className="grid content-start gap-2">
      <Label htmlFor={`besu-node-${name}`}>{label}</Label>
      <Input
        id={`besu-node-${name}`}
        className="font-mono"
        aria-invalid={Boolean(errors[name])}
        {...register(name, { required: `${label} is required`, ...rules })}
      />
      <FieldError message={errors[name]?.message} />
    </div>
  );

  const picker = (
    name: "networkId" | "keyId",
    label: string,
    items: { id: number; label: string }[],
    hint: string,
  ): ReactElement => (
    <div className="grid content-start gap-2">
      <Label htmlFor={`besu-node-${name}`}>{label}</Label>
      <Controller
        control={control}
        name={name}
        rules={{ required: `Choose a ${label.toLowerCase()}` }}
        render={({ field }) => (
          <Select value={field.value} onValueChange={field.onChange} disabled={mode === "edit"}>
            <SelectTrigger id={`besu-node-${name}`} aria-label={label} aria-invalid={Boolean(errors[name])}>
              <SelectValue placeholder={items.length ? `Choose a ${label.toLowerCase()}` : "None yet"} />
            </SelectTrigger>
            <SelectContent>
              {items.map((i) => (
                <SelectItem key={i.id} value={String(i.id)}>
                  {i.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
      />
      <p className="text-xs text-muted-foreground">{hint}</p>
      <FieldError message={errors[name]?.message} />
    </div>
  );

  const title = mode === "create" ? "Create Besu Node" : `Edit ${node.data?.name ?? "Besu node"}`;
  const busy = create.isPending || update.isPending;
  const body = (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Node</CardTitle>
          <CardDescription>
            The network whose genesis it runs and its secp256k1 node key (its enode identity).
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          {text("name", "Name", {
            validate: (v) => NODE_NAME.test(v.trim()) || "Start with a letter or digit; then letters, digits, . _ -",
          })}
          <div />
          {picker(
            "networkId",
            "Network",
            (networks.data?.networks ?? []).map((n) => ({ id: n.id, label: `${n.name} (chain ${n.chainId})` })),
            "Besu network (QBFT genesis)",
          )}
          {picker(
            "keyId",
            "Node key",
            (keys.data?.items ?? []).map((k) => ({ id: k.id, label: `${k.name} ${k.ethereumAddress ?? ""}` })),
            "A validator key makes this node a validator",
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Network addresses</CardTitle>
          <CardDescription>Free ports are proposed; each node needs its own.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          {text("p2pHost", "P2P host")}
          {text("p2pPort", "P2P port", { validate: port })}
          {text("rpcHost", "RPC host")}
          {text("rpcPort", "RPC port", { validate: port })}
          {text("externalIp", "External IP")}
          {text("internalIp", "Internal IP")}
          {text("metricsPort", "Metrics port", { validate: port })}
          <div className="grid content-start gap-2 sm:col-span-2">
            <Label htmlFor="besu-node-bootNodes">Boot nodes</Label>
            <textarea
              id="besu-node-bootNodes"
              rows={3}
              className="rounded-md border bg-transparent px-3 py-2 font-mono text-xs"
              placeholder="enode://…@127.0.0.1:30303, one per line"
              {...register("bootNodes")}
            />
            <FieldError message={errors.bootNodes?.message} />
          </div>
          <Controller
            control={control}
            name="externalBootnodeIds"
            render={({ field }) => (
              <ExternalBootnodePicker
                value={field.value}
                onChange={field.onChange}
                error={errors.externalBootnodeIds?.message}
              />
            )}
          />
        </CardContent>
      </Card>
      <Card>
        <CardFooter className="justify-end gap-2">
          <Button
            type="button"
            variant="outline"
            onClick={() => void navigate(mode === "edit" ? `/nodes/${id}` : "/nodes")}
          >
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy && <Loader2Icon className="animate-spin" />}
            {mode === "create" ? "Create node" : "Save and restart"}
          </Button>
        </CardFooter>
      </Card>
    </form>
  );
  return (
    <div className="max-w-3xl">
      <PageHeader title={title} description="A Besu node run as a supervised process with the network's genesis." />
      {mode === "edit" ? <QueryState query={node}>{() => body}</QueryState> : body}
    </div>
  );
}

export function BesuNodeCreatePage(): ReactElement {
  return (
    <OperatorsOnly what="create nodes">
      <BesuNodeForm mode="create" />
    </OperatorsOnly>
  );
}

export function BesuNodeEditPage(): ReactElement {
  return (
    <OperatorsOnly what="edit nodes">
      <BesuNodeForm mode="edit" />
    </OperatorsOnly>
  );
}
