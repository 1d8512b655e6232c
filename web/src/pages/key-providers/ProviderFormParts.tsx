import { Loader2Icon } from "lucide-react";
import type { ComponentProps, ReactElement, ReactNode } from "react";
import { useNavigate } from "react-router";
import type { KeyProvider } from "@/api/client";
import { Button } from "@/components/ui/button";
import { CardFooter } from "@/components/ui/card";
import { FieldError, Label } from "@/components/ui/label";
import { showMutationError } from "@/data/error-toast";
import {
  useKeyProviderCreateMutation,
  type KeyProviderCreateVars,
} from "@/data/key-providers/key-provider-create-mutation";
import { formErrorsFrom } from "@/lib/field-errors";
import { showToast } from "@/lib/toast";

/** A labelled input with its hint and error message. */
export function FormField({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  children: ReactNode;
}): ReactElement {
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
      <FieldError message={error} />
    </div>
  );
}

/** "Make this the default provider", with what that means. */
export function DefaultProviderCheckbox(props: ComponentProps<"input">): ReactElement {
  return (
    <label className="flex items-start gap-3 text-sm">
      <input type="checkbox" className="mt-0.5 size-4 accent-primary" {...props} />
      <span>
        <span className="font-medium">Make this the default provider</span>
        <span className="block text-xs text-muted-foreground">
          New keys and organizations use it unless another provider is chosen.
        </span>
      </span>
    </label>
  );
}

/** Cancel (back to the provider list) and submit. */
export function ProviderFormFooter({ pending, label }: { pending: boolean; label: string }): ReactElement {
  const navigate = useNavigate();
  return (
    <CardFooter className="justify-end gap-2 border-t pt-5">
      <Button type="button" variant="outline" onClick={() => void navigate("/settings/providers/add")}>
        Cancel
      </Button>
      <Button type="submit" disabled={pending}>
        {pending && <Loader2Icon className="animate-spin" />}
        {label}
      </Button>
    </CardFooter>
  );
}

/**
 * Creates a provider and opens its page. A 400/409 that names a field lands on that field through
 * `fields` (form field → request path); anything else (a 502 from an unreachable Vault) is a toast.
 */
export function useCreateProvider<F extends string>(
  fields: Record<F, string>,
  setFieldError: (field: F, message: string) => void,
): { submit: (body: KeyProviderCreateVars) => void; pending: boolean } {
  const navigate = useNavigate();
  const create = useKeyProviderCreateMutation();
  const submit = (body: KeyProviderCreateVars): void =>
    create.mutate(body, {
      onSuccess: (p: KeyProvider) => {
        showToast("success", "Key provider added", { description: `${p.name} is ready.` });
        void navigate(`/settings/providers/${p.id}`);
      },
      onError: (e) => {
        const mapped = Object.entries(formErrorsFrom(e, fields)) as [F, string][];
        for (const [field, message] of mapped) setFieldError(field, message);
        if (mapped.length === 0) showMutationError(e);
      },
    });
  return { submit, pending: create.isPending };
}
