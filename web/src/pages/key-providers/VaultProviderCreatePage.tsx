import { InfoIcon } from "lucide-react";
import type { ReactElement, ReactNode } from "react";
import { useForm, type UseFormRegisterReturn } from "react-hook-form";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { PageHeader } from "@/components/states";
import { Card, CardContent } from "@/components/ui/card";
import { Input, Textarea } from "@/components/ui/input";
import { cn } from "@/lib/utils";
import {
  DefaultProviderCheckbox,
  FormField,
  ProviderFormFooter,
  useCreateProvider,
} from "@/pages/key-providers/ProviderFormParts";
import {
  toVaultBody,
  validateVaultForm,
  VAULT_FORM_DEFAULTS,
  VAULT_FORM_FIELDS,
  type VaultCaEngine,
  type VaultFormValues,
  type VaultMode,
} from "@/pages/key-providers/vault-form";

const MODES: { value: VaultMode; label: string; text: string }[] = [
  {
    value: "external",
    label: "External Vault or OpenBao",
    text: "Link a server you run, with its address and a token that may use transit and KV.",
  },
  {
    value: "managed",
    label: "Managed OpenBao",
    text: "The console runs OpenBao on this machine, initialises it and unseals it on start.",
  },
];

const CA_ENGINES: { value: VaultCaEngine; label: string; text: string }[] = [
  {
    value: "transit",
    label: "Transit keys",
    text: "An organization's CA keys are transit keys: the console builds each certificate and transit signs it.",
  },
  {
    value: "pki",
    label: "PKI engine",
    text: "Each CA is an issuer of Vault's PKI engine: Vault issues the certificates from requests the new keys sign, and keeps the revocation list.",
  },
];

/** One radio card per choice (a label, and what it means), under a legend; `children` follow the cards. */
function ChoiceCards<T extends string>(props: {
  legend: string;
  choices: { value: T; label: string; text: string }[];
  selected: T;
  input: UseFormRegisterReturn;
  children?: ReactNode;
}): ReactElement {
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-2 text-sm font-medium">{props.legend}</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {props.choices.map((m) => (
          <label
            key={m.value}
            className={cn(
              "flex cursor-pointer items-start gap-3 rounded-xl border p-4 text-sm",
              props.selected === m.value && "border-primary ring-2 ring-primary/20",
            )}
          >
            <input type="radio" value={m.value} className="mt-0.5 size-4 accent-primary" {...props.input} />
            <span>
              <span className="font-medium">{m.label}</span>
              <span className="mt-1 block text-xs text-muted-foreground">{m.text}</span>
            </span>
          </label>
        ))}
      </div>
      {props.children}
    </fieldset>
  );
}

/** Add a HashiCorp Vault / OpenBao provider: an existing server, or one the console manages. */
export function VaultProviderForm(): ReactElement {
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors },
  } = useForm<VaultFormValues>({ defaultValues: VAULT_FORM_DEFAULTS });
  const mode = watch("mode");
  const caEngine = watch("caEngine");
  const { submit, pending } = useCreateProvider(VAULT_FORM_FIELDS, (f, message) => setError(f, { message }));
  // Every field runs the one validator, so the form and its unit tests agree on the rules.
  const reg = (k: keyof VaultFormValues) => register(k, { validate: (_, all) => validateVaultForm(all)[k] ?? true });
  const onSubmit = handleSubmit((v) => submit(toVaultBody(v)));

  return (
    <Card>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
        <CardContent className="grid gap-5">
          <FormField id="vault-name" label="Name" error={errors.name?.message}>
            <Input
              id="vault-name"
              placeholder="Production Vault"
              aria-invalid={Boolean(errors.name)}
              {...reg("name")}
            />
          </FormField>
          <DefaultProviderCheckbox {...register("isDefault")} />
          <ChoiceCards legend="Mode" choices={MODES} selected={mode} input={register("mode")} />
          {mode === "external" ? (
            <div className="grid gap-4">
              <FormField
                id="vault-address"
                label="Address"
                error={errors.address?.message}
                hint="The Vault API, e.g. https://vault.example.com:8200"
              >
                <Input
                  id="vault-address"
                  placeholder="https://vault.example.com:8200"
                  aria-invalid={Boolean(errors.address)}
                  {...reg("address")}
                />
              </FormField>
              <FormField
                id="vault-token"
                label="Token"
                error={errors.token?.message}
                hint="Stored encrypted with the master key; never shown again."
              >
                <Input
                  id="vault-token"
                  type="password"
                  autoComplete="off"
                  aria-invalid={Boolean(errors.token)}
                  {...reg("token")}
                />
              </FormField>
              <FormField
                id="vault-ca"
                label="CA certificate (PEM)"
                error={errors.caCert?.message}
                hint="Only when the server's TLS certificate is not signed by a public CA."
              >
                <Textarea
                  id="vault-ca"
                  placeholder="-----BEGIN CERTIFICATE-----"
                  aria-invalid={Boolean(errors.caCert)}
                  {...reg("caCert")}
                />
              </FormField>
              <FormField
                id="vault-namespace"
                label="Namespace"
                error={errors.namespace?.message}
                hint="Vault Enterprise / HCP only."
              >
                <Input id="vault-namespace" placeholder="Optional" {...reg("namespace")} />
              </FormField>
              <div className="grid gap-4 sm:grid-cols-2">
                <FormField
                  id="vault-transit"
                  label="Transit mount"
                  error={errors.transitMount?.message}
                  hint="Holds the P-256, P-384, Ed25519 and RSA keys; they never leave it."
                >
                  <Input id="vault-transit" aria-invalid={Boolean(errors.transitMount)} {...reg("transitMount")} />
                </FormField>
                <FormField
                  id="vault-kv"
                  label="KV mount"
                  error={errors.kvMount?.message}
                  hint="KV version 2: secp256k1 keys, which transit lacks, are kept here encrypted."
                >
                  <Input id="vault-kv" aria-invalid={Boolean(errors.kvMount)} {...reg("kvMount")} />
                </FormField>
              </div>
            </div>
          ) : (
            <div className="grid gap-4">
              <div className="flex gap-3 rounded-lg border bg-muted/40 p-3 text-sm">
                <InfoIcon className="mt-0.5 size-4 shrink-0 text-primary" />
                <p>
                  The console runs OpenBao as a process on this machine, with its storage in the console's data
                  directory and TLS on 127.0.0.1. Creating the provider starts it, initialises it and unseals it; the
                  unseal keys and the root token are kept encrypted with the master key, and the server is unsealed on
                  every start. Stop and start it from the provider's page.
                </p>
              </div>
              <div className="grid gap-4 sm:grid-cols-3">
                <FormField
                  id="vault-port"
                  label="Port"
                  error={errors.port?.message}
                  hint="Empty: the first free port from 8200. The next port is the cluster port."
                >
                  <Input
                    id="vault-port"
                    inputMode="numeric"
                    placeholder="8200"
                    aria-invalid={Boolean(errors.port)}
                    {...reg("port")}
                  />
                </FormField>
                <FormField id="vault-shares" label="Unseal key shares" error={errors.shares?.message}>
                  <Input
                    id="vault-shares"
                    inputMode="numeric"
                    aria-invalid={Boolean(errors.shares)}
                    {...reg("shares")}
                  />
                </FormField>
                <FormField
                  id="vault-threshold"
                  label="Threshold"
                  error={errors.threshold?.message}
                  hint="Shares needed to unseal."
                >
                  <Input
                    id="vault-threshold"
                    inputMode="numeric"
                    aria-invalid={Boolean(errors.threshold)}
                    {...reg("threshold")}
                  />
                </FormField>
              </div>
            </div>
          )}
          <ChoiceCards
            legend="Certificate authorities"
            choices={CA_ENGINES}
            selected={caEngine}
            input={register("caEngine")}
          >
            {caEngine === "pki" ? (
              <FormField
                id="vault-pki"
                label="PKI mount"
                error={errors.pkiMount?.message}
                hint="Mounted if missing, with a 20-year maximum TTL (Tune it later from the API)."
              >
                <Input id="vault-pki" aria-invalid={Boolean(errors.pkiMount)} {...reg("pkiMount")} />
              </FormField>
            ) : null}
          </ChoiceCards>
        </CardContent>
        <ProviderFormFooter pending={pending} label="Create provider" />
      </form>
    </Card>
  );
}

/** settings/providers/create/vault. Admins and managers only. */
export function VaultProviderCreatePage(): ReactElement {
  return (
    <OperatorsOnly>
      <div className="max-w-3xl">
        <PageHeader
          title="Create Vault Provider"
          description="Keys are created in Vault's transit engine, sign there and are never exported."
        />
        <VaultProviderForm />
      </div>
    </OperatorsOnly>
  );
}
