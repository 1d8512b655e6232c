import { CheckIcon, ChevronRightIcon, Loader2Icon } from "lucide-react";
import type { ReactElement } from "react";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import { PageHeader } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { useKeyProviderCreateMutation } from "@/data/key-providers/key-provider-create-mutation";
import { formErrorsFrom } from "@/lib/field-errors";
import { showToast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { PROVIDER_TYPES } from "@/pages/key-providers/ProviderTypeBadge";

/** The database provider is set up on this page; the others have their own form (`to`). */
const CHOICES = [
  { type: "DATABASE", text: "Keys are envelope-encrypted (AES-256-GCM) in ChainLaunch's own database.", to: null },
  {
    type: "VAULT",
    text: "Keys live in a HashiCorp Vault or OpenBao transit engine, external or run by the console.",
    to: "/settings/providers/create/vault",
  },
  {
    type: "AWS_KMS",
    text: "Keys are generated and used inside AWS Key Management Service.",
    to: "/settings/providers/create/aws-kms",
  },
] as const;

interface Values {
  name: string;
  isDefault: boolean;
}

/** Add a key provider: the database provider here; Vault and AWS KMS open their own forms. */
function KeyProviderAddPageContent(): ReactElement {
  const navigate = useNavigate();
  const create = useKeyProviderCreateMutation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<Values>({ defaultValues: { name: "", isDefault: false } });

  const onSubmit = handleSubmit((v) =>
    create.mutate(
      { name: v.name.trim(), type: "DATABASE", ...(v.isDefault ? { isDefault: 1 } : {}) },
      {
        onSuccess: (p) => {
          showToast("success", "Key provider added", { description: `${p.name} is ready for new keys.` });
          void navigate(`/settings/providers/${p.id}`);
        },
        onError: (e) => {
          const f = formErrorsFrom(e, { name: "name" });
          if (f.name) setError("name", { message: f.name });
        },
      },
    ),
  );

  return (
    <div className="max-w-3xl">
      <PageHeader title="Add Key Provider" description="Choose where the private keys of new keys will live." />
      <div className="mb-6 grid gap-3 sm:grid-cols-3" role="radiogroup" aria-label="Provider type">
        {CHOICES.map((c) => {
          const t = PROVIDER_TYPES[c.type];
          const selected = c.to === null;
          return (
            <button
              key={c.type}
              type="button"
              role="radio"
              aria-checked={selected}
              aria-label={t.label}
              onClick={() => {
                if (c.to) void navigate(c.to);
              }}
              className={cn(
                "relative rounded-xl border p-4 text-left text-sm transition-colors",
                selected ? "border-primary ring-2 ring-primary/20" : "hover:border-primary/60 hover:bg-muted/40",
              )}
            >
              <div className="mb-2 flex items-center justify-between">
                <span className="flex size-9 items-center justify-center rounded-lg bg-primary/10 text-primary">
                  <t.icon className="size-5" />
                </span>
                {selected ? (
                  <CheckIcon className="size-4 text-primary" />
                ) : (
                  <ChevronRightIcon className="size-4 text-muted-foreground" />
                )}
              </div>
              <p className="font-medium">{t.label}</p>
              <p className="mt-1 text-xs text-muted-foreground">{c.text}</p>
            </button>
          );
        })}
      </div>
      <Card>
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
          <CardContent className="grid gap-4">
            <div className="grid content-start gap-2">
              <Label htmlFor="provider-name">Name</Label>
              <Input
                id="provider-name"
                placeholder="Production database"
                aria-invalid={Boolean(errors.name)}
                {...register("name", {
                  required: "Name is required",
                  maxLength: { value: 100, message: "At most 100 characters" },
                })}
              />
              <FieldError message={errors.name?.message} />
            </div>
            <label className="flex items-start gap-3 text-sm">
              <input type="checkbox" className="mt-0.5 size-4 accent-primary" {...register("isDefault")} />
              <span>
                <span className="font-medium">Make this the default provider</span>
                <span className="block text-xs text-muted-foreground">
                  New keys and organizations use it unless another provider is chosen.
                </span>
              </span>
            </label>
          </CardContent>
          <CardFooter className="justify-end border-t pt-5">
            <Button type="button" variant="outline" onClick={() => void navigate("/settings/providers")}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending && <Loader2Icon className="animate-spin" />}
              Add provider
            </Button>
          </CardFooter>
        </form>
      </Card>
    </div>
  );
}

/** Admins and managers only. */
export function KeyProviderAddPage(): ReactElement {
  return (
    <OperatorsOnly>
      <KeyProviderAddPageContent />
    </OperatorsOnly>
  );
}
