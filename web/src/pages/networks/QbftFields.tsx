import type { ReactElement } from "react";
import type { FieldErrors, FieldValues, Path, UseFormRegister } from "react-hook-form";
import { FormSection } from "@/components/FormSection";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { QUANTITY_PATTERN, wholeNumber } from "@/pages/networks/besu-form";

/** A Besu form's QBFT fields, kept as typed text. */
export type WithQbftFields = FieldValues & {
  blockPeriod: string;
  epochLength: string;
  requestTimeout: string;
  gasLimit: string;
};

/** A required whole-number input (at least `min`, at most `max` when given) with its error and hint. */
export function WholeNumberField<T extends FieldValues>({
  register,
  errors,
  name,
  id,
  label,
  min,
  max,
  hint,
}: {
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
  name: Path<T>;
  id: string;
  label: string;
  min: number;
  max?: number;
  hint?: string;
}): ReactElement {
  const message = (errors as Record<string, { message?: string } | undefined>)[name]?.message;
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        inputMode="numeric"
        aria-invalid={Boolean(message)}
        {...register(name, {
          required: `${label} is required`,
          validate: (v: unknown) => wholeNumber(min, max)(String(v)),
        })}
      />
      {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
      <FieldError message={message} />
    </div>
  );
}

/** The "Consensus" section of the Besu create and bulk-create forms; `idPrefix` keeps each form's ids. */
export function QbftConsensusSection<T extends WithQbftFields>({
  register,
  errors,
  idPrefix,
}: {
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
  idPrefix: string;
}): ReactElement {
  // react-hook-form can't resolve paths on a generic form type; T's constraint guarantees these fields.
  const num = (name: keyof WithQbftFields & string, label: string, hint?: string): ReactElement => (
    <WholeNumberField
      register={register}
      errors={errors}
      name={name as Path<T>}
      id={`${idPrefix}-${name}`}
      label={label}
      min={1}
      {...(hint ? { hint } : {})}
    />
  );
  const gasError = (errors as FieldErrors<WithQbftFields>).gasLimit?.message;
  return (
    <FormSection title="Consensus" description="QBFT parameters; Besu's defaults suit most networks.">
      <div className="grid gap-4 sm:grid-cols-2">
        {num("blockPeriod", "Block period (seconds)")}
        {num("epochLength", "Epoch length (blocks)", "Votes reset every epoch")}
        {num("requestTimeout", "Request timeout (seconds)")}
        <div className="grid content-start gap-2">
          <Label htmlFor={`${idPrefix}-gasLimit`}>Gas limit</Label>
          <Input
            id={`${idPrefix}-gasLimit`}
            className="font-mono"
            aria-invalid={Boolean(gasError)}
            {...register("gasLimit" as Path<T>, {
              validate: (v: unknown) =>
                !String(v).trim() || QUANTITY_PATTERN.test(String(v).trim()) || "0x-hex or decimal",
            })}
          />
          <FieldError message={gasError} />
        </div>
      </div>
    </FormSection>
  );
}
