import { Loader2Icon, UserPlusIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Controller, useForm } from "react-hook-form";
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
import { Input, Textarea } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useIdentityIssueMutation } from "@/data/organizations/identity-issue-mutation";
import { formErrorsFrom } from "@/lib/field-errors";
import { showToast } from "@/lib/toast";
import { IDENTITY_ROLES, toIdentityIssueVars, type IdentityFormValues } from "@/pages/organizations/organization-form";

const DEFAULTS: IdentityFormValues = { name: "", description: "", role: "client", sans: "" };

const ROLE_HINT: Record<IdentityFormValues["role"], string> = {
  admin: "Administers the organization's nodes and signs channel updates.",
  client: "Applications and users that submit transactions.",
  peer: "A peer node's signing identity.",
  orderer: "An orderer node's signing identity.",
};

/** Issues a new identity signed by the organization's CA, with a NodeOU role and SANs. */
export function IdentityIssueDialog({
  organizationId,
  mspId,
}: {
  organizationId: number;
  mspId: string;
}): ReactElement {
  const [open, setOpen] = useState(false);
  const issue = useIdentityIssueMutation();
  const {
    register,
    control,
    handleSubmit,
    reset,
    watch,
    setError,
    formState: { errors },
  } = useForm<IdentityFormValues>({ defaultValues: DEFAULTS });
  const role = watch("role");

  const onSubmit = handleSubmit((v) =>
    issue.mutate(toIdentityIssueVars(organizationId, v), {
      onSuccess: (k) => {
        showToast("success", "Identity issued", { description: `${k.name} was signed by ${mspId}'s CA.` });
        reset(DEFAULTS);
        setOpen(false);
      },
      onError: (e) => {
        const f = formErrorsFrom(e, {
          name: "name",
          description: "description",
          role: "role",
          sans: ["dnsNames", "ipAddresses"],
        });
        for (const [field, message] of Object.entries(f)) {
          setError(field as keyof IdentityFormValues, { message: message as string });
        }
      },
    }),
  );

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm">
          <UserPlusIcon /> Issue identity
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-lg">
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Issue identity</DialogTitle>
            <DialogDescription>A new key with a certificate signed by {mspId}&apos;s signing CA.</DialogDescription>
          </DialogHeader>
          <div className="grid content-start gap-2">
            <Label htmlFor="identity-name">Name</Label>
            <Input
              id="identity-name"
              autoComplete="off"
              placeholder="user1"
              aria-invalid={Boolean(errors.name)}
              {...register("name", { required: "Name is required" })}
            />
            <p className="text-xs text-muted-foreground">Also the certificate&apos;s common name (CN).</p>
            <FieldError message={errors.name?.message} />
          </div>
          <div className="grid content-start gap-2">
            <Label htmlFor="identity-role">Role (OU)</Label>
            <Controller
              control={control}
              name="role"
              render={({ field }) => (
                <Select value={field.value} onValueChange={field.onChange}>
                  <SelectTrigger id="identity-role" aria-label="Role (OU)">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {IDENTITY_ROLES.map((r) => (
                      <SelectItem key={r} value={r} className="capitalize">
                        {r}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
            <p className="text-xs text-muted-foreground">{ROLE_HINT[role]}</p>
            <FieldError message={errors.role?.message} />
          </div>
          <div className="grid content-start gap-2">
            <Label htmlFor="identity-sans">Subject alternative names</Label>
            <Textarea
              id="identity-sans"
              rows={2}
              placeholder="peer0.org1.example.com, 10.0.0.5"
              aria-invalid={Boolean(errors.sans)}
              {...register("sans")}
            />
            <p className="text-xs text-muted-foreground">DNS names and IP addresses, separated by commas.</p>
            <FieldError message={errors.sans?.message} />
          </div>
          <div className="grid content-start gap-2">
            <Label htmlFor="identity-description">Description</Label>
            <Input id="identity-description" placeholder="Optional" {...register("description")} />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={issue.isPending}>
              {issue.isPending && <Loader2Icon className="animate-spin" />}
              Issue identity
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
