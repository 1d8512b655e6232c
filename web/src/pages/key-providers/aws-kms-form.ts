import type { KeyProviderCreateVars } from "@/data/key-providers/key-provider-create-mutation";

/** The AWS KMS form's values. */
export interface AwsKmsFormValues {
  name: string;
  isDefault: boolean;
  awsRegion: string;
  awsAccessKeyId: string;
  awsSecretAccessKey: string;
  awsSessionToken: string;
  assumeRoleArn: string;
  externalId: string;
  endpointUrl: string;
  kmsKeyAliasPrefix: string;
}

export const AWS_KMS_FORM_DEFAULTS: AwsKmsFormValues = {
  name: "",
  isDefault: false,
  awsRegion: "us-east-1",
  awsAccessKeyId: "",
  awsSecretAccessKey: "",
  awsSessionToken: "",
  assumeRoleArn: "",
  externalId: "",
  endpointUrl: "",
  kmsKeyAliasPrefix: "chainlaunch/",
};

type SettingKey = Exclude<keyof AwsKmsFormValues, "name" | "isDefault">;
const SETTINGS: readonly SettingKey[] = [
  "awsRegion",
  "awsAccessKeyId",
  "awsSecretAccessKey",
  "awsSessionToken",
  "assumeRoleArn",
  "externalId",
  "endpointUrl",
  "kmsKeyAliasPrefix",
];

/** Where the server reports each field's errors (`config.awsKms.awsRegion: …`). */
export const AWS_KMS_FORM_FIELDS = {
  name: "name",
  isDefault: "isDefault",
  ...(Object.fromEntries(SETTINGS.map((k) => [k, `config.awsKms.${k}`])) as Record<SettingKey, string>),
} satisfies Record<keyof AwsKmsFormValues, string>;

/** The form's own checks, before anything is sent: field → message. */
export function validateAwsKmsForm(v: AwsKmsFormValues): Partial<Record<keyof AwsKmsFormValues, string>> {
  const out: Partial<Record<keyof AwsKmsFormValues, string>> = {};
  const name = v.name.trim();
  if (!name) out.name = "Name is required";
  else if (name.length > 100) out.name = "At most 100 characters";
  if (!v.awsRegion.trim()) out.awsRegion = "Region is required";
  else if (!/^[a-z]{2}(-[a-z]+)+-\d+$/.test(v.awsRegion.trim())) out.awsRegion = "An AWS region such as eu-west-1";
  const id = v.awsAccessKeyId.trim();
  const secret = v.awsSecretAccessKey.trim();
  if (id && !secret) out.awsSecretAccessKey = "Give the secret access key of this access key id";
  if (secret && !id) out.awsAccessKeyId = "Give the access key id of this secret";
  if (v.awsSessionToken.trim() && !id) out.awsSessionToken = "A session token goes with an access key id and secret";
  if (v.externalId.trim() && !v.assumeRoleArn.trim()) out.externalId = "An external id goes with a role to assume";
  const role = v.assumeRoleArn.trim();
  if (role && !role.startsWith("arn:")) out.assumeRoleArn = "A role ARN, arn:aws:iam::<account>:role/<name>";
  const endpoint = v.endpointUrl.trim();
  if (endpoint && !/^https?:\/\/[^\s/]+/.test(endpoint)) out.endpointUrl = "Give http(s)://host:port";
  return out;
}

/** Maps the form to POST /key-providers with `config.awsKms`; empty fields are left out. */
export function toAwsKmsBody(v: AwsKmsFormValues): KeyProviderCreateVars {
  const awsKms: Record<string, string> = { operation: "IMPORT" };
  for (const k of SETTINGS) {
    const value = v[k].trim();
    if (value) awsKms[k] = k === "endpointUrl" ? value.replace(/\/+$/, "") : value;
  }
  return {
    name: v.name.trim(),
    type: "AWS_KMS",
    ...(v.isDefault ? { isDefault: 1 } : {}),
    config: { awsKms },
  };
}
