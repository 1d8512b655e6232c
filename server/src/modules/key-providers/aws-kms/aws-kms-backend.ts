import { InputError } from "../../../http/errors.js";
import type { AwsKmsStatusResponse } from "../key-providers.schema.js";
import type { ProviderBackend, ProviderBackendContext } from "../provider.js";

/** The AWS_KMS backend: keys created and used inside KMS. */
export interface AwsKmsBackend extends ProviderBackend {
  /** GET /key-providers/{id}/awskms/status. */
  status(providerId: number): Promise<AwsKmsStatusResponse>;
}

export function createAwsKmsBackend(_ctx: ProviderBackendContext): AwsKmsBackend {
  const missing = (): never => {
    throw new InputError("type: AWS_KMS providers are not built yet");
  };
  return {
    prepare: async () => missing(),
    driver: () => missing(),
    status: async () => missing(),
  };
}
