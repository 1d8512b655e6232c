import { common } from "@hyperledger/fabric-protos";
import type { ProposalRow, SignatureRow } from "./governance.repo.js";

const bytes = (b64: string): Uint8Array => new Uint8Array(Buffer.from(b64, "base64"));

/** The channel config a proposal was computed against. */
export function configOf(p: Pick<ProposalRow, "config_b64">): common.Config {
  return common.Config.deserializeBinary(bytes(p.config_b64));
}

/** The proposal's ConfigUpdate: the exact bytes every signature covers. */
export function updateOf(p: Pick<ProposalRow, "update_b64">): common.ConfigUpdate {
  return common.ConfigUpdate.deserializeBinary(bytes(p.update_b64));
}

/** A ConfigSignature from its stored parts. */
export function configSignature(
  s: Pick<SignatureRow, "signature_header_b64" | "signature_b64">,
): common.ConfigSignature {
  const sig = new common.ConfigSignature();
  sig.setSignatureHeader(bytes(s.signature_header_b64));
  sig.setSignature(bytes(s.signature_b64));
  return sig;
}

/**
 * The ConfigUpdateEnvelope over the stored update bytes (not re-serialised: a re-encoding could
 * differ and void every signature) with the given signatures.
 */
export function envelopeWith(
  p: Pick<ProposalRow, "update_b64">,
  sigs: Pick<SignatureRow, "signature_header_b64" | "signature_b64">[],
): common.ConfigUpdateEnvelope {
  const env = new common.ConfigUpdateEnvelope();
  env.setConfigUpdate(bytes(p.update_b64));
  env.setSignaturesList(sigs.map(configSignature));
  return env;
}
