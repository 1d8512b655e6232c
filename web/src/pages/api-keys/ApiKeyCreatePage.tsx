import { Loader2Icon, ShieldAlertIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Controller, useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import type { APIKey, Role } from "@/api/client";
import { RoleSelect } from "@/pages/users/RoleSelect";
import { SecretValue } from "@/components/SecretValue";
import { PageHeader } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useApiKeyCreateMutation } from "@/data/api-keys/api-key-create-mutation";
import { useMeQuery } from "@/data/auth/me-query";

const EXPIRY = [
  { value: "never", label: "Never" },
  { value: "7d", label: "7 days" },
  { value: "30d", label: "30 days" },
  { value: "90d", label: "90 days" },
  { value: "365d", label: "1 year" },
] as const;

const NARROWER: Record<Role, readonly Role[]> = {
  admin: ["admin", "manager", "viewer"],
  manager: ["manager", "viewer"],
  viewer: ["viewer"],
};

interface Values {
  name: string;
  description: string;
  role: Role;
  expires: string;
}

function SecretOnce({ apiKey, secret }: { apiKey: APIKey; secret: string }): ReactElement {
  return (
    <Card className="border-amber-500/40">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldAlertIcon className="size-5 text-amber-500" /> Copy your new key now
        </CardTitle>
        <CardDescription>
          This is the only time the key <strong>{apiKey.name}</strong> is shown. Store it in a secret manager; if it is
          lost, revoke it and create another.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <SecretValue value={secret} copyLabel="Copy key" testId="api-key-secret" />
      </CardContent>
      <CardFooter>
        <Button asChild>
          <Link to={`/settings/api-keys/${apiKey.id}`}>I have saved it</Link>
        </Button>
      </CardFooter>
    </Card>
  );
}

/** Create an API key; the secret is shown once with a copy button. */
export function ApiKeyCreatePage(): ReactElement {
  const me = useMeQuery();
  const navigate = useNavigate();
  const create = useApiKeyCreateMutation();
  const [created, setCreated] = useState<{ api_key: APIKey; key: string } | null>(null);
  const myRole: Role = me.data?.role ?? "viewer";
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<Values>({ defaultValues: { name: "", description: "", role: myRole, expires: "90d" } });

  const onSubmit = handleSubmit((v) =>
    create.mutate(
      {
        name: v.name.trim(),
        ...(v.description.trim() ? { description: v.description.trim() } : {}),
        role: v.role,
        ...(v.expires !== "never" ? { expires_in: v.expires } : {}),
      },
      { onSuccess: setCreated },
    ),
  );

  return (
    <div className="max-w-2xl">
      <PageHeader title="New API Key" description="The key acts as you, limited to the role you choose." />
      {created ? (
        <SecretOnce apiKey={created.api_key} secret={created.key} />
      ) : (
        <Card>
          <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
            <CardContent className="grid gap-4">
              <div className="grid gap-2">
                <Label htmlFor="key-name">Name</Label>
                <Input
                  id="key-name"
                  placeholder="ci-deployments"
                  {...register("name", {
                    required: "Name is required",
                    maxLength: { value: 100, message: "At most 100 characters" },
                  })}
                />
                <FieldError message={errors.name?.message} />
              </div>
              <div className="grid gap-2">
                <Label htmlFor="key-description">Description</Label>
                <Input id="key-description" placeholder="What uses this key?" {...register("description")} />
              </div>
              <div className="grid gap-4 sm:grid-cols-2">
                <div className="grid gap-2">
                  <Label htmlFor="key-role">Role</Label>
                  <Controller
                    control={control}
                    name="role"
                    render={({ field }) => (
                      <RoleSelect
                        id="key-role"
                        value={field.value}
                        onChange={field.onChange}
                        options={NARROWER[myRole]}
                      />
                    )}
                  />
                </div>
                <div className="grid gap-2">
                  <Label htmlFor="key-expiry">Expires</Label>
                  <Controller
                    control={control}
                    name="expires"
                    render={({ field }) => (
                      <Select value={field.value} onValueChange={field.onChange}>
                        <SelectTrigger id="key-expiry" aria-label="Expires">
                          <SelectValue />
                        </SelectTrigger>
                        <SelectContent>
                          {EXPIRY.map((e) => (
                            <SelectItem key={e.value} value={e.value}>
                              {e.label}
                            </SelectItem>
                          ))}
                        </SelectContent>
                      </Select>
                    )}
                  />
                </div>
              </div>
            </CardContent>
            <CardFooter className="justify-end border-t pt-5">
              <Button type="button" variant="outline" onClick={() => void navigate("/settings/api-keys")}>
                Cancel
              </Button>
              <Button type="submit" disabled={create.isPending}>
                {create.isPending && <Loader2Icon className="animate-spin" />}
                Create key
              </Button>
            </CardFooter>
          </form>
        </Card>
      )}
    </div>
  );
}
