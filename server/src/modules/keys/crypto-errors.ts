import { CryptoInputError } from "../../crypto/errors.js";
import { InputError } from "../../http/errors.js";

/**
 * Runs `fn`, turning a CryptoInputError from the crypto/MSP libraries into the named 400
 * ("<field>: <message>"). `fields` renames library fields to the request's names
 * (e.g. issuer -> signingKeyId).
 */
export async function withNamedInput<T>(fn: () => Promise<T>, fields: Record<string, string> = {}): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof CryptoInputError) {
      const field = fields[err.field] ?? err.field;
      throw new InputError(`${field}: ${err.message}`, { field });
    }
    throw err;
  }
}
