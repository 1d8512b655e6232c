import { Loader2Icon, PlusIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { useForm, type UseFormReturn } from "react-hook-form";
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
import { useDockerEngineCreateMutation } from "@/data/docker-engines/docker-engine-create-mutation";
import { formErrorsFrom } from "@/lib/field-errors";
import { showToast } from "@/lib/toast";
import {
  ENGINE_FORM_EMPTY,
  ENGINE_FORM_FIELDS,
  toCreateEngineBody,
  validateEngineHost,
  validateEngineName,
  validateTls,
  type EngineFormValues,
} from "@/pages/settings/docker-engines/engine-form";

type PemField = "ca" | "cert" | "key";

/** One PEM textarea of the TLS section. */
function PemInput({
  form,
  name,
  label,
  placeholder,
}: {
  form: UseFormReturn<EngineFormValues>;
  name: PemField;
  label: string;
  placeholder: string;
}): ReactElement {
  const error = form.formState.errors[name]?.message;
  return (
    <div className="grid gap-2">
      <Label htmlFor={`engine-${name}`}>{label}</Label>
      <textarea
        id={`engine-${name}`}
        rows={3}
        spellCheck={false}
        className="rounded-md border bg-transparent px-3 py-2 font-mono text-xs aria-invalid:border-destructive"
        placeholder={placeholder}
        aria-invalid={Boolean(error)}
        {...form.register(name, { validate: name === "ca" ? (_v, all) => validateTls(all) : undefined })}
      />
      <FieldError message={error} />
    </div>
  );
}

/** The form of the Register engine dialog; exported for its tests (the dialog's content is a portal). */
export function EngineRegisterForm({
  form,
  submitting,
  onSubmit,
  onCancel,
}: {
  form: UseFormReturn<EngineFormValues>;
  submitting: boolean;
  onSubmit: (e?: React.BaseSyntheticEvent) => Promise<void>;
  onCancel: () => void;
}): ReactElement {
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Register engine</DialogTitle>
        <DialogDescription>
          A Docker engine nodes can be placed on. It must answer now; the client key is stored encrypted.
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <Label htmlFor="engine-name">Name</Label>
        <Input
          id="engine-name"
          autoComplete="off"
          placeholder="rack-b"
          aria-invalid={Boolean(errors.name)}
          {...register("name", { required: "Name is required", validate: validateEngineName })}
        />
        <p className="text-xs text-muted-foreground">Nodes are placed by this name.</p>
        <FieldError message={errors.name?.message} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="engine-host">Host</Label>
        <Input
          id="engine-host"
          autoComplete="off"
          className="font-mono"
          placeholder="tcp://10.0.0.7:2376"
          aria-invalid={Boolean(errors.host)}
          {...register("host", { required: "Host is required", validate: validateEngineHost })}
        />
        <p className="text-xs text-muted-foreground">unix:///path/to/docker.sock or tcp://host:port</p>
        <FieldError message={errors.host?.message} />
      </div>
      <fieldset className="grid gap-3">
        <legend className="mb-1 text-sm font-medium">TLS (optional)</legend>
        <p className="text-xs text-muted-foreground">
          For a tcp:// engine started with --tlsverify. Leave all three empty otherwise.
        </p>
        <PemInput form={form} name="ca" label="TLS CA certificate" placeholder="-----BEGIN CERTIFICATE-----" />
        <PemInput form={form} name="cert" label="Client certificate" placeholder="-----BEGIN CERTIFICATE-----" />
        <PemInput form={form} name="key" label="Client key" placeholder="-----BEGIN PRIVATE KEY-----" />
      </fieldset>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={submitting}>
          {submitting && <Loader2Icon className="animate-spin" />}
          Register engine
        </Button>
      </DialogFooter>
    </form>
  );
}

/** The admin's Register engine button and dialog; the server's field errors land on their fields. */
export function EngineRegisterDialog(): ReactElement {
  const [open, setOpen] = useState(false);
  const create = useDockerEngineCreateMutation();
  const form = useForm<EngineFormValues>({ defaultValues: ENGINE_FORM_EMPTY });

  const onSubmit = form.handleSubmit((v) =>
    create.mutate(toCreateEngineBody(v), {
      onSuccess: (e) => {
        showToast("success", "Engine registered", {
          description: `${e.name} answers${e.version ? ` (Docker ${e.version})` : ""}.`,
        });
        form.reset();
        setOpen(false);
      },
      onError: (e) => {
        for (const [f, message] of Object.entries(formErrorsFrom(e, ENGINE_FORM_FIELDS))) {
          form.setError(f as keyof EngineFormValues, { message: message as string });
        }
      },
    }),
  );

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>
          <PlusIcon /> Register engine
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90vh] overflow-y-auto">
        <EngineRegisterForm
          form={form}
          submitting={create.isPending}
          onSubmit={onSubmit}
          onCancel={() => setOpen(false)}
        />
      </DialogContent>
    </Dialog>
  );
}
