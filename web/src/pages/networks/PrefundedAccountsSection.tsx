import { PlusIcon, XIcon } from "lucide-react";
import type { ReactElement } from "react";
import {
  useFieldArray,
  type Control,
  type FieldArray,
  type FieldArrayPath,
  type FieldErrors,
  type FieldValues,
  type Path,
  type UseFormRegister,
} from "react-hook-form";
import { FormSection } from "@/components/FormSection";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { ADDRESS_PATTERN, QUANTITY_PATTERN } from "@/pages/networks/besu-form";

/** One genesis alloc row as the forms hold it: both fields as typed, trimmed when the body is built. */
export interface PrefundedAccount {
  address: string;
  balance: string;
}

/** A Besu form that keeps its pre-funded accounts under `alloc`. */
export type WithPrefundedAccounts = FieldValues & { alloc: PrefundedAccount[] };

/** A new row's balance: 1000 ether in wei. */
const NEW_ACCOUNT_BALANCE = "1000000000000000000000";

/**
 * The "Pre-funded accounts" section of the Besu create and bulk-create forms: address + balance rows
 * over the form's `alloc` field array, with add and remove. `idPrefix` keeps each form's input ids.
 */
export function PrefundedAccountsSection<T extends WithPrefundedAccounts>({
  control,
  register,
  errors,
  idPrefix,
  balancePlaceholder,
}: {
  control: Control<T>;
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
  idPrefix: string;
  balancePlaceholder?: string;
}): ReactElement {
  // react-hook-form can't resolve paths on a generic form type; T's constraint guarantees `alloc` rows.
  const alloc = useFieldArray({ control, name: "alloc" as FieldArrayPath<T> });
  const path = (i: number, field: keyof PrefundedAccount): Path<T> => `alloc.${i}.${field}` as Path<T>;
  const allocErrors = (errors as FieldErrors<WithPrefundedAccounts>).alloc;
  return (
    <FormSection title="Pre-funded accounts" description="Balances in the genesis alloc, in wei.">
      {alloc.fields.length === 0 && <p className="text-sm text-muted-foreground">No pre-funded accounts.</p>}
      {alloc.fields.map((f, i) => (
        <div key={f.id} className="grid gap-2 sm:grid-cols-[1.6fr_1fr_auto] sm:items-start">
          <div className="grid content-start gap-1">
            <Label htmlFor={`${idPrefix}-addr-${i}`} className="text-xs">
              Address
            </Label>
            <Input
              id={`${idPrefix}-addr-${i}`}
              className="font-mono text-xs"
              placeholder="0x…"
              {...register(path(i, "address"), {
                required: "Address is required",
                validate: (v: unknown) => ADDRESS_PATTERN.test(String(v).trim()) || "0x and 40 hex digits",
              })}
            />
            <FieldError message={allocErrors?.[i]?.address?.message} />
          </div>
          <div className="grid content-start gap-1">
            <Label htmlFor={`${idPrefix}-bal-${i}`} className="text-xs">
              Balance (wei)
            </Label>
            <Input
              id={`${idPrefix}-bal-${i}`}
              className="font-mono text-xs"
              placeholder={balancePlaceholder}
              {...register(path(i, "balance"), {
                validate: (v: unknown) =>
                  !String(v).trim() || QUANTITY_PATTERN.test(String(v).trim()) || "0x-hex or decimal",
              })}
            />
            <FieldError message={allocErrors?.[i]?.balance?.message} />
          </div>
          <Button
            type="button"
            variant="ghost"
            size="icon-sm"
            className="sm:mt-5"
            aria-label={`Remove account ${i + 1}`}
            onClick={() => alloc.remove(i)}
          >
            <XIcon />
          </Button>
        </div>
      ))}
      <FieldError message={allocErrors?.message ?? allocErrors?.root?.message} />
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() =>
            alloc.append({ address: "", balance: NEW_ACCOUNT_BALANCE } as FieldArray<T, FieldArrayPath<T>>)
          }
        >
          <PlusIcon /> Add account
        </Button>
      </div>
    </FormSection>
  );
}
