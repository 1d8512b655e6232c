import { Loader2Icon, PlusIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Controller, useForm } from "react-hook-form";
import { useNavigate } from "react-router";
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
import { useOrganizationCreateMutation } from "@/data/organizations/organization-create-mutation";
import { formErrorsFrom } from "@/lib/field-errors";
import { showToast } from "@/lib/toast";
import {
  MSP_ID_PATTERN,
  MSP_ID_RULE,
  toOrganizationCreateVars,
  type OrganizationFormValues,
} from "@/pages/organizations/organization-form";

const DEFAULTS: OrganizationFormValues = { mspId: "", name: "", description: "", providerId: "" };

/** Creates a Fabric organization (MSP) with its signing and TLS CAs, an admin and a client identity. */
export function OrganizationCreateDialog(): ReactElement {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const create = useOrganizationCreateMutation();
  const providers = useKeyProvidersQuery(open);
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<OrganizationFormValues>({ defaultValues: DEFAULTS });

  const onSubmit = handleSubmit((v) =>
    create.mutate(toOrganizationCreateVars(v), {
      onSuccess: (o) => {
        showToast("success", "Organization created", {
          description: `${o.mspId} has its CAs, an admin and a client identity.`,
        });
        reset(DEFAULTS);
        setOpen(false);
        void navigate(`/organizations/${o.id}`);
      },
      onError: (e) => {
        const f = formErrorsFrom(e, {
          mspId: "mspId",
          name: "name",
          description: "description",
          providerId: "providerId",
        });
        for (const [field, message] of Object.entries(f)) {
          setError(field as keyof OrganizationFormValues, { message: message as string });
        }
      },
    }),
  );

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>
          <PlusIcon /> Create organization
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-lg">
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Create organization</DialogTitle>
            <DialogDescription>
              ChainLaunch creates a signing CA and a TLS CA (EC P-256), plus an admin and a client identity.
            </DialogDescription>
          </DialogHeader>
          <div className="grid content-start gap-2">
            <Label htmlFor="org-msp">MSP ID</Label>
            <Input
              id="org-msp"
              autoComplete="off"
              placeholder="Org1MSP"
              aria-invalid={Boolean(errors.mspId)}
              aria-describedby="org-msp-rule"
              {...register("mspId", {
                required: "MSP ID is required",
                pattern: { value: MSP_ID_PATTERN, message: `Use ${MSP_ID_RULE}` },
              })}
            />
            <p id="org-msp-rule" className="text-xs text-muted-foreground">
              {MSP_ID_RULE}. It can't be changed later.
            </p>
            <FieldError message={errors.mspId?.message} />
          </div>
          <div className="grid content-start gap-2">
            <Label htmlFor="org-name">Name</Label>
            <Input id="org-name" placeholder="Defaults to the MSP ID" {...register("name")} />
            <FieldError message={errors.name?.message} />
          </div>
          <div className="grid content-start gap-2">
            <Label htmlFor="org-description">Description</Label>
            <Input id="org-description" placeholder="Optional" {...register("description")} />
            <FieldError message={errors.description?.message} />
          </div>
          <div className="grid content-start gap-2">
            <Label htmlFor="org-provider">Key provider</Label>
            <Controller
              control={control}
              name="providerId"
              render={({ field }) => (
                <Select
                  value={field.value || "default"}
                  onValueChange={(v) => field.onChange(v === "default" ? "" : v)}
                >
                  <SelectTrigger id="org-provider" aria-label="Key provider">
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
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending && <Loader2Icon className="animate-spin" />}
              Create organization
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
