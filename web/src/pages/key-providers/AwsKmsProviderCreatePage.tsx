import type { ReactElement } from "react";
import { useForm } from "react-hook-form";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { PageHeader } from "@/components/states";
import { Card, CardContent } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import {
  AWS_KMS_FORM_DEFAULTS,
  AWS_KMS_FORM_FIELDS,
  toAwsKmsBody,
  validateAwsKmsForm,
  type AwsKmsFormValues,
} from "@/pages/key-providers/aws-kms-form";
import {
  DefaultProviderCheckbox,
  FormField,
  ProviderFormFooter,
  useCreateProvider,
} from "@/pages/key-providers/ProviderFormParts";

type TextKey = Exclude<keyof AwsKmsFormValues, "isDefault">;

const FIELDS: { key: TextKey; label: string; placeholder?: string; hint?: string; secret?: boolean }[] = [
  { key: "name", label: "Name", placeholder: "Production KMS" },
  { key: "awsRegion", label: "Region", placeholder: "us-east-1" },
  {
    key: "awsAccessKeyId",
    label: "Access key ID",
    placeholder: "Optional",
    hint: "Leave both keys empty to use the server's own AWS credentials (environment, instance role).",
  },
  {
    key: "awsSecretAccessKey",
    label: "Secret access key",
    secret: true,
    hint: "Stored encrypted with the master key; never shown again.",
  },
  { key: "awsSessionToken", label: "Session token", secret: true, hint: "Only for temporary credentials." },
  {
    key: "assumeRoleArn",
    label: "Role to assume",
    placeholder: "arn:aws:iam::123456789012:role/chainlaunch-kms",
    hint: "Optional: the console assumes this role with the credentials above.",
  },
  {
    key: "externalId",
    label: "External ID",
    placeholder: "Optional",
    hint: "When the role's trust policy asks for one.",
  },
  {
    key: "endpointUrl",
    label: "Endpoint URL",
    placeholder: "Optional, e.g. http://127.0.0.1:5000",
    hint: "For a KMS-compatible endpoint (LocalStack, moto) or a VPC endpoint.",
  },
  {
    key: "kmsKeyAliasPrefix",
    label: "Alias prefix",
    hint: "Keys are named alias/<prefix><key name> in KMS.",
  },
];

/** Add an AWS KMS provider: region, credentials or a role to assume, an optional endpoint. */
export function AwsKmsProviderForm(): ReactElement {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<AwsKmsFormValues>({ defaultValues: AWS_KMS_FORM_DEFAULTS });
  const { submit, pending } = useCreateProvider(AWS_KMS_FORM_FIELDS, (f, message) => setError(f, { message }));
  const onSubmit = handleSubmit((v) => submit(toAwsKmsBody(v)));

  const field = (f: (typeof FIELDS)[number]): ReactElement => (
    <FormField key={f.key} id={`kms-${f.key}`} label={f.label} error={errors[f.key]?.message} hint={f.hint}>
      <Input
        id={`kms-${f.key}`}
        type={f.secret ? "password" : "text"}
        autoComplete="off"
        placeholder={f.placeholder}
        aria-invalid={Boolean(errors[f.key])}
        {...register(f.key, { validate: (_, all) => validateAwsKmsForm(all)[f.key] ?? true })}
      />
    </FormField>
  );

  return (
    <Card>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
        <CardContent className="grid gap-5">
          {field(FIELDS[0]!)}
          <DefaultProviderCheckbox {...register("isDefault")} />
          <div className="grid gap-4 sm:grid-cols-2">{FIELDS.slice(1).map(field)}</div>
          <p className="text-xs text-muted-foreground">
            Keys are created as KMS keys (ECC_NIST_P256, ECC_NIST_P384 and ECC_SECG_P256K1) and sign inside KMS; the
            private keys never leave it.
          </p>
        </CardContent>
        <ProviderFormFooter pending={pending} label="Create provider" />
      </form>
    </Card>
  );
}

/** settings/providers/create/aws-kms. Admins and managers only. */
export function AwsKmsProviderCreatePage(): ReactElement {
  return (
    <OperatorsOnly>
      <div className="max-w-3xl">
        <PageHeader title="Create AWS KMS Provider" description="Keys are generated and used inside AWS KMS." />
        <AwsKmsProviderForm />
      </div>
    </OperatorsOnly>
  );
}
