import { Loader2Icon } from "lucide-react";
import type { ReactElement, ReactNode } from "react";
import { Controller, useForm } from "react-hook-form";
import type { Organization } from "@/api/client";
import { FileButton } from "@/components/FileButton";
import { Button } from "@/components/ui/button";
import { Input, Textarea } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import {
  useFabricNetworkImportMutation,
  useFabricNetworkImportWithOrgMutation,
} from "@/data/fabric-networks/fabric-network-import-mutations";
import type { ImportNetworkResult } from "@/data/fabric-networks/types";
import { formErrorsFrom } from "@/lib/field-errors";
import { CHANNEL_NAME_RULE, channelNameError } from "@/pages/networks/fabric-network";
import { ExternalOrdererSelect } from "@/pages/networks/ExternalOrdererSelect";
import {
  base64BlockError,
  blockFileToBase64,
  ORDERER_URL_RULE,
  ordererUrlError,
  pemCertificateError,
} from "@/pages/networks/fabric-import";

export interface OrdererSourceValues {
  organizationId: string;
  channelId: string;
  ordererUrl: string;
  ordererTlsCert: string;
  /** An external orderer's id, or "" when the URL and TLS CA are typed in. */
  externalOrdererId: string;
  description: string;
}

/**
 * Channel name, one of its orderers (URL and TLS CA) and the org of this console that is a
 * member of it: the server reads the channel from the orderer with that org's admin.
 */
export function OrdererImportForm({
  orgs,
  submitLabel,
  footer,
  onImported,
}: {
  orgs: Organization[];
  submitLabel: string;
  /** Rendered before the submit button (e.g. Cancel). */
  footer?: ReactNode;
  onImported: (r: ImportNetworkResult, v: OrdererSourceValues) => void;
}): ReactElement {
  const importNetwork = useFabricNetworkImportWithOrgMutation();
  const {
    register,
    control,
    handleSubmit,
    setValue,
    setError,
    watch,
    formState: { errors },
  } = useForm<OrdererSourceValues>({
    defaultValues: {
      organizationId: orgs[0] ? String(orgs[0].id) : "",
      channelId: "",
      ordererUrl: "",
      ordererTlsCert: "",
      externalOrdererId: "",
      description: "",
    },
  });
  const external = watch("externalOrdererId") !== "";

  const onSubmit = handleSubmit((v) =>
    importNetwork.mutate(
      {
        channelId: v.channelId.trim(),
        ...(v.externalOrdererId
          ? { externalOrdererId: Number(v.externalOrdererId) }
          : { ordererUrl: v.ordererUrl.trim(), ordererTlsCert: v.ordererTlsCert }),
        organizationId: Number(v.organizationId),
        ...(v.description.trim() ? { description: v.description.trim() } : {}),
      },
      {
        onSuccess: (r) => onImported(r, v),
        onError: (e) => {
          const f = formErrorsFrom(e, {
            channelId: "channelId",
            ordererUrl: "ordererUrl",
            ordererTlsCert: "ordererTlsCert",
            externalOrdererId: "externalOrdererId",
            organizationId: "organizationId",
            description: "description",
          });
          for (const [field, message] of Object.entries(f)) setError(field as keyof OrdererSourceValues, { message });
        },
      },
    ),
  );

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4" data-testid="orderer-import-form">
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid content-start gap-2">
          <Label htmlFor="join-org">Organization</Label>
          <Controller
            control={control}
            name="organizationId"
            rules={{ required: "Choose the organization that is a member of the channel" }}
            render={({ field }) => (
              <Select value={field.value} onValueChange={field.onChange}>
                <SelectTrigger id="join-org" aria-label="Organization" aria-invalid={Boolean(errors.organizationId)}>
                  <SelectValue placeholder="Choose an organization" />
                </SelectTrigger>
                <SelectContent>
                  {orgs.map((o) => (
                    <SelectItem key={o.id} value={String(o.id)}>
                      {o.mspId}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
          <p className="text-xs text-muted-foreground">Its admin reads the channel; it must be a member.</p>
          <FieldError message={errors.organizationId?.message} />
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor="join-channel">Channel name</Label>
          <Input
            id="join-channel"
            placeholder="mychannel"
            aria-invalid={Boolean(errors.channelId)}
            {...register("channelId", { validate: (x) => channelNameError(x.trim()) ?? true })}
          />
          <p className="text-xs text-muted-foreground">{CHANNEL_NAME_RULE}</p>
          <FieldError message={errors.channelId?.message} />
        </div>
      </div>
      <Controller
        control={control}
        name="externalOrdererId"
        render={({ field }) => (
          <ExternalOrdererSelect id="join-orderer-source" value={field.value} onChange={field.onChange} />
        )}
      />
      <FieldError message={errors.externalOrdererId?.message} />
      {!external && (
        <>
          <div className="grid content-start gap-2">
            <Label htmlFor="join-orderer-url">Orderer URL</Label>
            <Input
              id="join-orderer-url"
              placeholder="grpcs://orderer0.example.com:7050"
              aria-invalid={Boolean(errors.ordererUrl)}
              {...register("ordererUrl", {
                validate: (x, all) => (all.externalOrdererId ? true : (ordererUrlError(x) ?? true)),
              })}
            />
            <p className="text-xs text-muted-foreground">{ORDERER_URL_RULE}</p>
            <FieldError message={errors.ordererUrl?.message} />
          </div>
          <div className="grid content-start gap-2">
            <div className="flex items-center justify-between gap-2">
              <Label htmlFor="join-orderer-tls">Orderer TLS CA certificate</Label>
              <FileButton
                accept=".pem,.crt,.cert"
                onFile={(f) => void f.text().then((t) => setValue("ordererTlsCert", t, { shouldValidate: true }))}
              />
            </div>
            <Textarea
              id="join-orderer-tls"
              rows={6}
              className="font-mono text-xs"
              placeholder="-----BEGIN CERTIFICATE-----"
              aria-invalid={Boolean(errors.ordererTlsCert)}
              {...register("ordererTlsCert", {
                validate: (x, all) => (all.externalOrdererId ? true : (pemCertificateError(x) ?? true)),
              })}
            />
            <p className="text-xs text-muted-foreground">The CA that issued the orderer&apos;s TLS certificate.</p>
            <FieldError message={errors.ordererTlsCert?.message} />
          </div>
        </>
      )}
      <div className="grid content-start gap-2">
        <Label htmlFor="join-description">Description</Label>
        <Input id="join-description" placeholder="Optional" {...register("description")} />
      </div>
      <div className="flex justify-end gap-2 border-t pt-5">
        {footer}
        <Button type="submit" disabled={importNetwork.isPending}>
          {importNetwork.isPending && <Loader2Icon className="animate-spin" />}
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

interface BlockValues {
  genesisFile: string;
  description: string;
}

/** A channel's genesis block (or a later config block) as a file or pasted base64. */
export function BlockImportForm({
  footer,
  onImported,
}: {
  footer?: ReactNode;
  onImported: (r: ImportNetworkResult) => void;
}): ReactElement {
  const importNetwork = useFabricNetworkImportMutation();
  const {
    register,
    handleSubmit,
    setValue,
    setError,
    formState: { errors },
  } = useForm<BlockValues>({ defaultValues: { genesisFile: "", description: "" } });

  const onSubmit = handleSubmit((v) =>
    importNetwork.mutate(
      {
        genesisFile: v.genesisFile.replace(/\s+/g, ""),
        ...(v.description.trim() ? { description: v.description.trim() } : {}),
      },
      {
        onSuccess: onImported,
        onError: (e) => {
          const f = formErrorsFrom(e, { genesisFile: ["genesisFile", "channelId"], description: "description" });
          for (const [field, message] of Object.entries(f)) setError(field as keyof BlockValues, { message });
        },
      },
    ),
  );

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4" data-testid="block-import-form">
      <div className="grid content-start gap-2">
        <div className="flex items-center justify-between gap-2">
          <Label htmlFor="import-block">Genesis block</Label>
          <FileButton
            accept=".block,.pb,.b64,application/octet-stream"
            onFile={(f) =>
              void f
                .arrayBuffer()
                .then((b) => setValue("genesisFile", blockFileToBase64(new Uint8Array(b)), { shouldValidate: true }))
            }
          />
        </div>
        <Textarea
          id="import-block"
          rows={8}
          className="font-mono text-xs break-all"
          placeholder="Choose the .block file (peer channel fetch 0 / configtxgen output), or paste its base64"
          aria-invalid={Boolean(errors.genesisFile)}
          {...register("genesisFile", { validate: (x) => base64BlockError(x) ?? true })}
        />
        <p className="text-xs text-muted-foreground">
          A later config block works too; peers still join from block 0, which is fetched from the channel&apos;s
          orderers.
        </p>
        <FieldError message={errors.genesisFile?.message} />
      </div>
      <div className="grid content-start gap-2">
        <Label htmlFor="import-block-description">Description</Label>
        <Input id="import-block-description" placeholder="Optional" {...register("description")} />
      </div>
      <div className="flex justify-end gap-2 border-t pt-5">
        {footer}
        <Button type="submit" disabled={importNetwork.isPending}>
          {importNetwork.isPending && <Loader2Icon className="animate-spin" />}
          Import network
        </Button>
      </div>
    </form>
  );
}
