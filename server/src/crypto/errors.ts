/**
 * Thrown by the crypto and MSP libraries when the caller's input can't be turned into key
 * material (unknown algorithm, validity in the past, an issuer that is not a CA, ...).
 * `field` names the offending input so a service can map it to a named 400 without parsing
 * the message. The libraries never import the HTTP error vocabulary.
 */
export class CryptoInputError extends Error {
  constructor(
    public readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = "CryptoInputError";
  }
}

/**
 * A signer (a key provider: Vault transit, AWS KMS) returned a signature that does not verify
 * against its own public key. Nothing it signed is kept; the HTTP layer answers 502.
 */
export class SignatureCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SignatureCheckError";
  }
}
