import { Loader2Icon, PlusIcon, XIcon } from "lucide-react";
import { FormSection } from "@/components/FormSection";
import type { ReactElement } from "react";
import { Controller, useFieldArray, useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import { PageHeader } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardFooter } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { useBesuNetworkCreateMutation } from "@/data/besu-networks/besu-network-create-mutation";
import { formErrorsFrom } from "@/lib/field-errors";
import { showToast } from "@/lib/toast";
import {
  ADDRESS_PATTERN,
  BESU_FORM_DEFAULTS,
  BESU_FORM_FIELDS,
  toCreateBesuNetworkBody,
  type BesuFormValues,
} from "@/pages/networks/besu-form";
import { QbftConsensusSection, WholeNumberField } from "@/pages/networks/QbftFields";
import { PrefundedAccountsSection } from "@/pages/networks/PrefundedAccountsSection";
import { ValidatorPicker } from "@/pages/networks/ValidatorPicker";

/** Create a QBFT network: chain parameters, validators (local or external) and pre-funded accounts. */
function BesuNetworkCreatePageContent(): ReactElement {
  const navigate = useNavigate();
  const create = useBesuNetworkCreateMutation();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<BesuFormValues>({ defaultValues: BESU_FORM_DEFAULTS });
  const external = useFieldArray({ control, name: "externalValidators" });

  const onSubmit = handleSubmit((v) => {
    if (v.validatorKeyIds.length === 0 && !v.externalValidators.some((e) => e.publicKey.trim())) {
      setError("validatorKeyIds", { message: "Choose at least one validator" });
      return;
    }
    create.mutate(toCreateBesuNetworkBody(v), {
      onSuccess: (n) => {
        showToast("success", "Besu network created", {
          description: `${n.name} (chain ${n.chainId}) has its genesis with ${n.validators.length} validator${n.validators.length === 1 ? "" : "s"}.`,
        });
        void navigate(`/networks/${n.id}/besu`);
      },
      onError: (e) => {
        for (const [field, message] of Object.entries(formErrorsFrom(e, BESU_FORM_FIELDS))) {
          setError(field as keyof BesuFormValues, { message: message as string });
        }
      },
    });
  });

  return (
    <div className="max-w-3xl">
      <PageHeader
        title="Create Besu Network"
        description="ChainLaunch builds the QBFT genesis (config.qbft and extraData) from your validators."
      />
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-6">
        <FormSection title="Network" description="Name and chain id; the chain id must be unique among your networks.">
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid content-start gap-2">
              <Label htmlFor="besu-name">Name</Label>
              <Input
                id="besu-name"
                placeholder="testnet"
                aria-invalid={Boolean(errors.name)}
                {...register("name", { required: "Name is required" })}
              />
              <FieldError message={errors.name?.message} />
            </div>
            <WholeNumberField
              register={register}
              errors={errors}
              name="chainId"
              id="besu-chainId"
              label="Chain ID"
              min={1}
              hint="EIP-155 chain id, e.g. 1337"
            />
          </div>
          <div className="grid content-start gap-2">
            <Label htmlFor="besu-description">Description</Label>
            <Input id="besu-description" placeholder="Optional" {...register("description")} />
          </div>
        </FormSection>
        <QbftConsensusSection register={register} errors={errors} idPrefix="besu" />
        <FormSection title="Validators" description="Initial validators sign blocks from the genesis on.">
          <Controller
            control={control}
            name="validatorKeyIds"
            render={({ field }) => (
              <ValidatorPicker
                value={field.value}
                onChange={field.onChange}
                invalid={Boolean(errors.validatorKeyIds)}
              />
            )}
          />
          <FieldError message={errors.validatorKeyIds?.message} />
          <div className="grid gap-3">
            <div className="flex items-center justify-between gap-2">
              <div>
                <p className="text-sm font-medium">External validators</p>
                <p className="text-xs text-muted-foreground">Validators whose keys live outside ChainLaunch.</p>
              </div>
              <Button
                type="button"
                variant="outline"
                size="sm"
                onClick={() => external.append({ address: "", publicKey: "" })}
              >
                <PlusIcon /> Add external validator
              </Button>
            </div>
            {external.fields.map((f, i) => (
              <div key={f.id} className="grid gap-2 rounded-lg border p-3 sm:grid-cols-[1fr_1.6fr_auto] sm:items-start">
                <div className="grid content-start gap-1">
                  <Label htmlFor={`ext-addr-${i}`} className="text-xs">
                    Address
                  </Label>
                  <Input
                    id={`ext-addr-${i}`}
                    className="font-mono text-xs"
                    placeholder="0x… (optional, checked)"
                    {...register(`externalValidators.${i}.address`, {
                      validate: (v) => !v.trim() || ADDRESS_PATTERN.test(v.trim()) || "0x and 40 hex digits",
                    })}
                  />
                  <FieldError message={errors.externalValidators?.[i]?.address?.message} />
                </div>
                <div className="grid content-start gap-1">
                  <Label htmlFor={`ext-pub-${i}`} className="text-xs">
                    Public key
                  </Label>
                  <Input
                    id={`ext-pub-${i}`}
                    className="font-mono text-xs"
                    placeholder="0x04… (uncompressed secp256k1, hex or PEM)"
                    {...register(`externalValidators.${i}.publicKey`, { required: "Public key is required" })}
                  />
                  <FieldError message={errors.externalValidators?.[i]?.publicKey?.message} />
                </div>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon-sm"
                  className="sm:mt-5"
                  aria-label={`Remove external validator ${i + 1}`}
                  onClick={() => external.remove(i)}
                >
                  <XIcon />
                </Button>
              </div>
            ))}
            <FieldError message={errors.externalValidators?.message ?? errors.externalValidators?.root?.message} />
          </div>
        </FormSection>
        <PrefundedAccountsSection
          control={control}
          register={register}
          errors={errors}
          idPrefix="alloc"
          balancePlaceholder="1000000000000000000"
        />
        <Card>
          <CardFooter className="justify-end">
            <Button type="button" variant="outline" onClick={() => void navigate("/network/besu")}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending && <Loader2Icon className="animate-spin" />}
              Create network
            </Button>
          </CardFooter>
        </Card>
      </form>
    </div>
  );
}

/** Viewers can't create networks; they see why instead of a form the server would refuse. */
export function BesuNetworkCreatePage(): ReactElement {
  return (
    <OperatorsOnly what="create networks">
      <BesuNetworkCreatePageContent />
    </OperatorsOnly>
  );
}
