import { createRequire } from "node:module";
import type * as KmsSdk from "@aws-sdk/client-kms";
import type * as StsSdk from "@aws-sdk/client-sts";
import { InputError, UpstreamError, errorMessage } from "../../../http/errors.js";
import { AMBIENT_REFUSED, type AwsKmsPublicConfig, type AwsKmsSecrets } from "./aws-kms-config.js";

/** The SDK release in use, for the status card ("unknown" when its package.json can't be read). */
export function awsSdkVersion(): string {
  try {
    return (createRequire(import.meta.url)("@aws-sdk/client-kms/package.json") as { version: string }).version;
  } catch {
    return "unknown";
  }
}

let sdk: Promise<{ kms: typeof KmsSdk; sts: typeof StsSdk }> | undefined;
/**
 * The SDK is loaded on first use: it costs a quarter of a second at boot and prints a Node version
 * notice, neither of which a console without AWS_KMS providers should pay.
 */
export function loadAwsSdk(): Promise<{ kms: typeof KmsSdk; sts: typeof StsSdk }> {
  sdk ??= Promise.all([import("@aws-sdk/client-kms"), import("@aws-sdk/client-sts")]).then(([kms, sts]) => ({
    kms: commonJs(kms, "KMSClient"),
    sts: commonJs(sts, "STSClient"),
  }));
  return sdk;
}

/**
 * The SDK packages are CommonJS: under tsx their exports arrive as named exports, while in the
 * esbuild bundle a dynamic import hands them over as `default` only.
 */
function commonJs<T extends object>(mod: T, probe: keyof T): T {
  return mod[probe] ? mod : (mod as unknown as { default: T }).default;
}

/**
 * Short timeouts and one retry: a console request that waits on KMS should fail in seconds with a
 * message naming the endpoint, not hang through the SDK's default backoff.
 */
const HTTP = { connectionTimeout: 5_000, requestTimeout: 20_000 };
const MAX_ATTEMPTS = 2;

type Credentials = { accessKeyId: string; secretAccessKey: string; sessionToken?: string; expiration?: Date };
type CredentialSource = Credentials | (() => Promise<Credentials>) | undefined;

/** Errors that mean AWS refused who we are (not what we asked). */
const AUTH_ERRORS = new Set([
  "UnrecognizedClientException",
  "InvalidSignatureException",
  "IncompleteSignatureException",
  "IncompleteSignature",
  "InvalidClientTokenId",
  "SignatureDoesNotMatch",
  "MissingAuthenticationToken",
  "ExpiredTokenException",
  "ExpiredToken",
  "AccessDeniedException",
  "AccessDenied",
  "CredentialsProviderError",
]);

/**
 * True when the error is the service answering "who are you?" rather than a network failure: a
 * known AWS error name, or an HTTP 401/403 whose body the SDK could not read (moto answers refused
 * credentials with IAM's XML error on the JSON KMS protocol; proxies answer 403 in HTML).
 */
export function isAuthError(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  if (AUTH_ERRORS.has(e?.name ?? "")) return true;
  const status = e?.$metadata?.httpStatusCode;
  return e?.name === "SyntaxError" && (status === 401 || status === 403);
}

/** True when the service never answered (refused connection, DNS, timeout). */
export function isNetworkError(err: unknown): boolean {
  const e = err as { $metadata?: { httpStatusCode?: number }; name?: string };
  return !e?.$metadata?.httpStatusCode && !isAuthError(err);
}

/** Where requests go, for messages: the custom endpoint or the region's public one. */
export function endpointOf(config: AwsKmsPublicConfig): string {
  return config.endpointUrl ?? `https://kms.${config.awsRegion}.amazonaws.com`;
}

/**
 * Credentials for the clients: the static key pair when one is stored, else (only for AWS's own
 * endpoints) the SDK's default chain (environment, shared config, instance role); with `assumeRoleArn`, those are used to assume the role, and the
 * temporary credentials are refreshed a few minutes before they expire.
 */
function credentialsFor(config: AwsKmsPublicConfig, secrets: AwsKmsSecrets, lib: typeof StsSdk): CredentialSource {
  const base: Credentials | undefined =
    config.awsAccessKeyId && secrets.awsSecretAccessKey
      ? {
          accessKeyId: config.awsAccessKeyId,
          secretAccessKey: secrets.awsSecretAccessKey,
          ...(secrets.awsSessionToken ? { sessionToken: secrets.awsSessionToken } : {}),
        }
      : undefined;
  // Also checked at creation; this guards rows stored before the rule, so no client is ever built that
  // would send the host's ambient credentials to a custom endpoint.
  if (config.endpointUrl && !base) throw new InputError(AMBIENT_REFUSED);
  if (!config.assumeRoleArn) return base;
  const sts = new lib.STSClient({
    region: config.awsRegion,
    ...(config.endpointUrl ? { endpoint: config.endpointUrl } : {}),
    ...(base ? { credentials: base } : {}),
    requestHandler: HTTP,
    maxAttempts: MAX_ATTEMPTS,
  });
  let cached: Credentials | undefined;
  return async () => {
    if (cached?.expiration && cached.expiration.getTime() - Date.now() > 5 * 60_000) return cached;
    const out = await sts.send(
      new lib.AssumeRoleCommand({
        RoleArn: config.assumeRoleArn,
        RoleSessionName: "chainlaunch",
        ...(config.externalId ? { ExternalId: config.externalId } : {}),
      }),
    );
    const c = out.Credentials;
    if (!c?.AccessKeyId || !c.SecretAccessKey) throw new Error("STS AssumeRole returned no credentials");
    cached = {
      accessKeyId: c.AccessKeyId,
      secretAccessKey: c.SecretAccessKey,
      sessionToken: c.SessionToken,
      expiration: c.Expiration,
    };
    return cached;
  };
}

export interface AwsClients {
  kms: KmsSdk.KMSClient;
  sts: StsSdk.STSClient;
  /** The SDK modules, for their command classes. */
  sdk: { kms: typeof KmsSdk; sts: typeof StsSdk };
  destroy(): void;
}

/** The KMS and STS clients of one provider. STS goes to the same custom endpoint (moto and LocalStack serve both). */
export async function createAwsClients(config: AwsKmsPublicConfig, secrets: AwsKmsSecrets): Promise<AwsClients> {
  const lib = await loadAwsSdk();
  const credentials = credentialsFor(config, secrets, lib.sts);
  const common = {
    region: config.awsRegion,
    ...(config.endpointUrl ? { endpoint: config.endpointUrl } : {}),
    ...(credentials ? { credentials } : {}),
    requestHandler: HTTP,
    maxAttempts: MAX_ATTEMPTS,
  };
  const kms = new lib.kms.KMSClient(common);
  const sts = new lib.sts.STSClient(common);
  return {
    kms,
    sts,
    sdk: lib,
    destroy() {
      kms.destroy();
      sts.destroy();
    },
  };
}

/** An AWS error's own words, without the SDK's stack or request ids. */
export function awsReason(err: unknown): string {
  const e = err as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  if (e?.name === "SyntaxError" && e.$metadata?.httpStatusCode) {
    return `HTTP ${e.$metadata.httpStatusCode} with a body that is not a KMS answer`;
  }
  const msg = (e?.message ?? errorMessage(err)).split("\n")[0] ?? "";
  const name = e?.code ?? e?.name;
  return name && name !== "Error" && !msg.includes(name) ? `${name}: ${msg}` : msg;
}

/**
 * Turns an SDK failure into the console's vocabulary: refused credentials are a 400 naming the
 * credential field when the operator is setting the provider up (`setup`), otherwise a 502; an
 * endpoint that never answered is a 502 naming it.
 */
export function kmsFailure(
  err: unknown,
  config: AwsKmsPublicConfig,
  what: string,
  opts: { setup?: boolean } = {},
): Error {
  if (err instanceof InputError || err instanceof UpstreamError) return err;
  const reason = awsReason(err);
  if (isAuthError(err)) {
    const field = config.assumeRoleArn ? "config.awsKms.assumeRoleArn" : "config.awsKms.awsAccessKeyId";
    return opts.setup
      ? new InputError(`${field}: AWS refused the credentials (${reason})`)
      : new UpstreamError(`AWS KMS refused the provider's credentials while ${what} (${reason})`);
  }
  if (isNetworkError(err)) {
    const prefix = opts.setup ? (config.endpointUrl ? "config.awsKms.endpointUrl: " : "config.awsKms.awsRegion: ") : "";
    return new UpstreamError(
      `${prefix}AWS KMS at ${endpointOf(config)} could not be reached while ${what} (${reason})`,
    );
  }
  return new UpstreamError(`AWS KMS failed while ${what} (${reason})`);
}
