import { Loader2Icon, PlusIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Controller, useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import type { KeyInfo } from "@/api/client";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useKeyProvidersQuery } from "@/data/key-providers/key-providers-query";
import { useKeyCreateMutation } from "@/data/keys/key-create-mutation";
import { formErrorsFrom } from "@/lib/field-errors";
import { showToast } from "@/lib/toast";
import {
  ALGORITHMS,
  CURVES,
  KEY_FORM_DEFAULTS,
  KEY_FORM_FIELDS,
  KEY_SIZES,
  toCreateKeyBody,
  type KeyFormValues,
} from "@/pages/keys/key-form";

const ALGORITHM_HINT: Record<KeyFormValues["algorithm"], string> = {
  EC: "Fabric identities use P-256; Besu validators use secp256k1.",
  ED25519: "Fast signatures; not used by Fabric or Besu nodes.",
  RSA: "For integrations that need RSA.",
};

/**
 * Generates a key, optionally with a self-signed CA certificate. The server's 400 messages land
 * on the field they name. `onCreated` lets a caller (the Besu form) pick the new key instead of
 * navigating to it.
 */
export function KeyCreateDialog({
  preset,
  trigger,
  onCreated,
}: {
  preset?: Partial<KeyFormValues>;
  trigger?: ReactElement;
  onCreated?: (key: KeyInfo) => void;
}): ReactElement {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const create = useKeyCreateMutation();
  const providers = useKeyProvidersQuery(open);
  const defaults = { ...KEY_FORM_DEFAULTS, ...preset };
  const {
    register,
    control,
    handleSubmit,
    reset,
    watch,
    setError,
    formState: { errors },
  } = useForm<KeyFormValues>({ defaultValues: defaults });
  const algorithm = watch("algorithm");
  const withCertificate = watch("withCertificate");

  const onSubmit = handleSubmit((v) =>
    create.mutate(toCreateKeyBody(v), {
      onSuccess: (k) => {
        showToast("success", "Key created", { description: `${k.name} is ready.` });
        reset(defaults);
        setOpen(false);
        if (onCreated) onCreated(k);
        else void navigate(`/settings/keys/${k.id}`);
      },
      onError: (e) => {
        for (const [field, message] of Object.entries(formErrorsFrom(e, KEY_FORM_FIELDS))) {
          setError(field as keyof KeyFormValues, { message: message as string });
        }
      },
    }),
  );

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        {trigger ?? (
          <Button>
            <PlusIcon /> Create key
          </Button>
        )}
      </DialogTrigger>
      <DialogContent className="max-h-[90svh] overflow-y-auto sm:max-w-lg">
        <form
          onSubmit={(e) => {
            // The dialog renders in a portal, but React still bubbles submit to an enclosing form (the Besu form).
            e.stopPropagation();
            void onSubmit(e);
          }}
          noValidate
          className="grid gap-4"
        >
          <DialogHeader>
            <DialogTitle>Create key</DialogTitle>
            <DialogDescription>The private key is generated and kept encrypted by its provider.</DialogDescription>
          </DialogHeader>
          <div className="grid content-start gap-2">
            <Label htmlFor="key-name">Name</Label>
            <Input
              id="key-name"
              autoComplete="off"
              placeholder="validator-1"
              aria-invalid={Boolean(errors.name)}
              {...register("name", { required: "Name is required" })}
            />
            <FieldError message={errors.name?.message} />
          </div>
          <div className="grid content-start gap-2">
            <Label htmlFor="key-description">Description</Label>
            <Input id="key-description" placeholder="Optional" {...register("description")} />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid content-start gap-2">
              <Label htmlFor="key-algorithm">Algorithm</Label>
              <Controller
                control={control}
                name="algorithm"
                render={({ field }) => (
                  <Select value={field.value} onValueChange={field.onChange}>
                    <SelectTrigger id="key-algorithm" aria-label="Algorithm">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {ALGORITHMS.map((a) => (
                        <SelectItem key={a} value={a}>
                          {a}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              />
              <FieldError message={errors.algorithm?.message} />
            </div>
            {algorithm === "EC" && (
              <div className="grid content-start gap-2">
                <Label htmlFor="key-curve">Curve</Label>
                <Controller
                  control={control}
                  name="curve"
                  render={({ field }) => (
                    <Select value={field.value} onValueChange={field.onChange}>
                      <SelectTrigger id="key-curve" aria-label="Curve">
                        <SelectValue />
                      </SelectTrigger>
                      <SelectContent>
                        {CURVES.map((c) => (
                          <SelectItem key={c} value={c}>
                            {c}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                  )}
                />
                <FieldError message={errors.curve?.message} />
              </div>
            )}
            {algorithm === "RSA" && (
              <div className="grid content-start gap-2">
                <Label htmlFor="key-size">Key size</Label>
                <Controller
                  control={control}
                  name="keySize"
                  render={({ field }) => (
                    <Select value={field.value} onValueChange={field.onChange}>
                      <SelectTrigger id="key-size" aria-label="Key size">
                        <SelectValue />
                      </SelectTrigger>
                      <SelectContent>
                        {KEY_SIZES.map((s) => (
                          <SelectItem key={s} value={s}>
                            {s} bits
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                  )}
                />
                <FieldError message={errors.keySize?.message} />
              </div>
            )}
          </div>
          <p className="-mt-2 text-xs text-muted-foreground">{ALGORITHM_HINT[algorithm]}</p>
          <div className="grid content-start gap-2">
            <Label htmlFor="key-provider">Provider</Label>
            <Controller
              control={control}
              name="providerId"
              render={({ field }) => (
                <Select
                  value={field.value || "default"}
                  onValueChange={(v) => field.onChange(v === "default" ? "" : v)}
                >
                  <SelectTrigger id="key-provider" aria-label="Provider">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value="default">Default provider</SelectItem>
                    {(providers.data ?? []).map((p) => (
                      <SelectItem key={p.id} value={String(p.id)}>
                        {p.name} ({p.type})
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
            <FieldError message={errors.providerId?.message} />
          </div>
          <label className="flex items-start gap-3 rounded-lg border p-3 text-sm">
            <input type="checkbox" className="mt-0.5 size-4 accent-primary" {...register("withCertificate")} />
            <span>
              <span className="font-medium">Self-signed CA certificate</span>
              <span className="block text-xs text-muted-foreground">
                Makes this key a certificate authority that can sign other keys.
              </span>
            </span>
          </label>
          {withCertificate && (
            <div className="grid gap-4 rounded-lg border border-dashed p-3">
              <div className="grid content-start gap-2">
                <Label htmlFor="key-cn">Common name (CN)</Label>
                <Input
                  id="key-cn"
                  placeholder="Acme Root CA"
                  aria-invalid={Boolean(errors.commonName)}
                  {...register("commonName", {
                    validate: (v, all) => !all.withCertificate || v.trim() !== "" || "Common name is required",
                  })}
                />
                <FieldError message={errors.commonName?.message} />
              </div>
              <div className="grid gap-4 sm:grid-cols-2">
                <div className="grid content-start gap-2">
                  <Label htmlFor="key-o">Organization (O)</Label>
                  <Input id="key-o" placeholder="Acme" {...register("organization")} />
                  <FieldError message={errors.organization?.message} />
                </div>
                <div className="grid content-start gap-2">
                  <Label htmlFor="key-ou">Organizational unit (OU)</Label>
                  <Input id="key-ou" placeholder="Platform" {...register("organizationalUnit")} />
                  <FieldError message={errors.organizationalUnit?.message} />
                </div>
              </div>
              <div className="grid content-start gap-2">
                <Label htmlFor="key-validity">Validity (days)</Label>
                <Input
                  id="key-validity"
                  type="number"
                  min={1}
                  aria-invalid={Boolean(errors.validityDays)}
                  {...register("validityDays", {
                    validate: (v, all) =>
                      !all.withCertificate ||
                      (Number(v) >= 1 && Number.isInteger(Number(v))) ||
                      "Whole days, at least 1",
                  })}
                />
                <FieldError message={errors.validityDays?.message} />
              </div>
            </div>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending && <Loader2Icon className="animate-spin" />}
              Create key
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
