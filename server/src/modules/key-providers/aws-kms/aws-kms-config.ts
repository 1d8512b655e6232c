import { InputError } from "../../../http/errors.js";

/** Alias prefix when the operator names none: keys appear in KMS as alias/chainlaunch/<name>. */
export const DEFAULT_ALIAS_PREFIX = "chainlaunch/";

/** What an AWS_KMS provider keeps in `key_providers.config` (no secret in it). */
export interface AwsKmsPublicConfig {
  awsRegion: string;
  /** A custom endpoint (moto, LocalStack, a VPC endpoint); the SDK's default when absent. */
  endpointUrl?: string;
  /** The access key id is an identifier, not a secret (AWS prints it in CloudTrail); the status masks it. */
  awsAccessKeyId?: string;
  assumeRoleArn?: string;
  externalId?: string;
  kmsKeyAliasPrefix: string;
}

/** What goes to `key_providers.secrets_encrypted`. */
export interface AwsKmsSecrets {
  awsSecretAccessKey?: string;
  awsSessionToken?: string;
}

const FIELD = "config.awsKms";

/**
 * Without stored credentials the SDK takes the host's own (environment, shared config, instance
 * metadata): those may only go to AWS itself, never to an endpoint an operator typed in.
 */
export const AMBIENT_REFUSED =
  `${FIELD}.awsAccessKeyId: is required with endpointUrl; ` +
  "this host's own AWS credentials are only sent to AWS's endpoints, so a custom endpoint needs credentials of its own";
const REGION = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;
/**
 * AWS's own ids are upper-case (AKIA..., ASIA...), but LocalStack, moto and upstream's examples take
 * any word such as "test": letters, digits, "_" and "-" only, so nothing can ride along in a header.
 */
const ACCESS_KEY_ID = /^[A-Za-z0-9_-]{1,128}$/;
const ROLE_ARN = /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;
/** KMS alias names: letters, digits, / _ - (the "alias/" part is ours). */
const ALIAS_PREFIX = /^[A-Za-z0-9/_-]{0,200}$/;

function text(input: Record<string, unknown>, key: string): string | undefined {
  const v = input[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw new InputError(`${FIELD}.${key}: must be a string`);
  const t = v.trim();
  return t === "" ? undefined : t;
}

/**
 * Checks a create request's `config.awsKms` and splits it into the public config and the secrets.
 * Every refusal is a 400 naming the field. A custom `endpointUrl` needs explicit credentials
 * (AMBIENT_REFUSED).
 */
export function parseAwsKmsConfig(input: Record<string, unknown> | undefined): {
  config: AwsKmsPublicConfig;
  secrets: AwsKmsSecrets;
} {
  if (!input) throw new InputError(`${FIELD}: an AWS_KMS provider needs its settings (awsRegion at least)`);
  const operation = text(input, "operation");
  if (operation && operation.toUpperCase() !== "IMPORT") {
    throw new InputError(`${FIELD}.operation: must be IMPORT (link an AWS account or endpoint), got "${operation}"`);
  }
  const awsRegion = text(input, "awsRegion");
  if (!awsRegion) throw new InputError(`${FIELD}.awsRegion: is required, e.g. eu-west-1`);
  if (!REGION.test(awsRegion)) throw new InputError(`${FIELD}.awsRegion: "${awsRegion}" is not an AWS region name`);

  const endpointUrl = text(input, "endpointUrl");
  if (endpointUrl) {
    let url: URL;
    try {
      url = new URL(endpointUrl);
    } catch {
      throw new InputError(`${FIELD}.endpointUrl: "${endpointUrl}" is not a URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new InputError(`${FIELD}.endpointUrl: must be an http:// or https:// URL`);
    }
    if (url.username || url.password) throw new InputError(`${FIELD}.endpointUrl: must not carry credentials`);
  }

  const awsAccessKeyId = text(input, "awsAccessKeyId");
  const awsSecretAccessKey = text(input, "awsSecretAccessKey");
  const awsSessionToken = text(input, "awsSessionToken");
  if (awsAccessKeyId && !ACCESS_KEY_ID.test(awsAccessKeyId)) {
    throw new InputError(
      `${FIELD}.awsAccessKeyId: must be 1 to 128 letters, digits, "_" or "-" (e.g. AKIA... or test)`,
    );
  }
  if (awsAccessKeyId && !awsSecretAccessKey) {
    throw new InputError(`${FIELD}.awsSecretAccessKey: is required with awsAccessKeyId`);
  }
  if (!awsAccessKeyId && (awsSecretAccessKey || awsSessionToken)) {
    throw new InputError(`${FIELD}.awsAccessKeyId: is required with awsSecretAccessKey`);
  }
  if (endpointUrl && !awsAccessKeyId) throw new InputError(AMBIENT_REFUSED);

  const assumeRoleArn = text(input, "assumeRoleArn");
  const externalId = text(input, "externalId");
  if (assumeRoleArn && !ROLE_ARN.test(assumeRoleArn)) {
    throw new InputError(`${FIELD}.assumeRoleArn: must be an IAM role ARN (arn:aws:iam::<account>:role/<name>)`);
  }
  if (externalId && !assumeRoleArn) throw new InputError(`${FIELD}.externalId: only applies with assumeRoleArn`);
  if (externalId && !/^[\w+=,.@:/-]{2,1224}$/.test(externalId)) {
    throw new InputError(`${FIELD}.externalId: has characters STS does not accept`);
  }

  const prefix = text(input, "kmsKeyAliasPrefix") ?? DEFAULT_ALIAS_PREFIX;
  if (!ALIAS_PREFIX.test(prefix)) {
    throw new InputError(`${FIELD}.kmsKeyAliasPrefix: only letters, digits, "/", "_" and "-" are allowed`);
  }
  if (/^aws\//i.test(prefix)) throw new InputError(`${FIELD}.kmsKeyAliasPrefix: "aws/" is reserved by AWS`);

  const config: AwsKmsPublicConfig = { awsRegion, kmsKeyAliasPrefix: prefix };
  if (endpointUrl) config.endpointUrl = endpointUrl;
  if (awsAccessKeyId) config.awsAccessKeyId = awsAccessKeyId;
  if (assumeRoleArn) config.assumeRoleArn = assumeRoleArn;
  if (externalId) config.externalId = externalId;
  const secrets: AwsKmsSecrets = {};
  if (awsSecretAccessKey) secrets.awsSecretAccessKey = awsSecretAccessKey;
  if (awsSessionToken) secrets.awsSessionToken = awsSessionToken;
  return { config, secrets };
}

/** The stored config of a provider row (written by parseAwsKmsConfig). */
export function storedAwsKmsConfig(configJson: string): AwsKmsPublicConfig {
  const raw = JSON.parse(configJson) as Partial<AwsKmsPublicConfig>;
  return {
    ...raw,
    awsRegion: raw.awsRegion ?? "us-east-1",
    kmsKeyAliasPrefix: raw.kmsKeyAliasPrefix ?? DEFAULT_ALIAS_PREFIX,
  };
}

/** "AKIA****": enough to tell two credentials apart, not enough to use one. */
export function maskAccessKeyId(id: string | undefined): string {
  if (!id) return "";
  // A short id ("test") would show whole: only AWS-length ids keep their prefix.
  return id.length >= 12 ? `${id.slice(0, 4)}****` : "****";
}
