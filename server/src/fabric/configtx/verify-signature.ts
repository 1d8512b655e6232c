import { verify, X509Certificate } from "node:crypto";
import { common, msp } from "@hyperledger/fabric-protos";
import { ConfigtxInputError } from "./errors.js";
import { VALUE_KEYS } from "./values.js";

const pem = (b: Uint8Array): string => Buffer.from(b).toString("utf8");

/** The FabricMSPConfig of an org of the channel (application or orderer), by MSP id. */
function orgMsp(config: common.Config, mspId: string): msp.FabricMSPConfig | undefined {
  for (const key of ["Application", "Orderer"]) {
    const v = config
      .getChannelGroup()
      ?.getGroupsMap()
      .get(key)
      ?.getGroupsMap()
      .get(mspId)
      ?.getValuesMap()
      .get(VALUE_KEYS.msp);
    if (!v) continue;
    const m = msp.MSPConfig.deserializeBinary(v.getValue_asU8());
    if (m.getType() === 0) return msp.FabricMSPConfig.deserializeBinary(m.getConfig_asU8());
  }
  return undefined;
}

function ous(cert: X509Certificate): string[] {
  return cert.subject
    .split("\n")
    .filter((l) => l.startsWith("OU="))
    .map((l) => l.slice(3));
}

/** Whether `cert` was issued by one of the roots, directly or through one of the intermediates. */
function chains(cert: X509Certificate, roots: X509Certificate[], intermediates: X509Certificate[]): boolean {
  const issuedBy = (c: X509Certificate, ca: X509Certificate) => c.checkIssued(ca) && c.verify(ca.publicKey);
  if (roots.some((r) => issuedBy(cert, r))) return true;
  return intermediates.some((i) => issuedBy(cert, i) && roots.some((r) => issuedBy(i, r)));
}

/**
 * Checks an org admin's ConfigSignature over a config update the way the orderer would before
 * counting it: the creator claims `mspId`, its certificate chains to that org's root CA in the
 * channel config, it is an admin (NodeOUs admin OU, or listed among the MSP's admins), it is
 * currently valid, and the signature verifies over signature_header ‖ config_update.
 * @throws ConfigtxInputError("signature") naming what failed
 */
export function verifyConfigSignature(
  config: common.Config,
  updateBytes: Uint8Array,
  signature: common.ConfigSignature,
  mspId: string,
  now: Date = new Date(),
): void {
  const fail = (why: string): never => {
    throw new ConfigtxInputError("signature", why);
  };
  let creator: msp.SerializedIdentity;
  try {
    const header = common.SignatureHeader.deserializeBinary(signature.getSignatureHeader_asU8());
    creator = msp.SerializedIdentity.deserializeBinary(header.getCreator_asU8());
  } catch {
    return fail("the signature header is not a Fabric SignatureHeader");
  }
  if (creator.getMspid() !== mspId) fail(`the signer belongs to ${creator.getMspid()}, not ${mspId}`);
  const f = orgMsp(config, mspId) ?? fail(`${mspId} is not an organization of the channel`);
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(pem(creator.getIdBytes_asU8()));
  } catch {
    return fail("the signer's certificate is not a valid X.509 certificate");
  }
  const roots = f.getRootCertsList_asU8().map((b) => new X509Certificate(pem(b)));
  const intermediates = f.getIntermediateCertsList_asU8().map((b) => new X509Certificate(pem(b)));
  if (!chains(cert, roots, intermediates)) fail(`the signer's certificate was not issued by ${mspId}'s CA`);
  if (new Date(cert.validFrom) > now || new Date(cert.validTo) < now) fail("the signer's certificate is not valid now");
  const nodeOus = f.getFabricNodeOus();
  const isAdmin = nodeOus?.getEnable()
    ? ous(cert).includes(nodeOus.getAdminOuIdentifier()?.getOrganizationalUnitIdentifier() || "admin")
    : f.getAdminsList_asU8().some((a) => new X509Certificate(pem(a)).raw.equals(cert.raw));
  if (!isAdmin) fail(`the signer is not an admin of ${mspId}`);
  const message = Buffer.concat([signature.getSignatureHeader_asU8(), updateBytes]);
  const algorithm = cert.publicKey.asymmetricKeyType === "ed25519" ? null : "sha256";
  let ok = false;
  try {
    ok = verify(algorithm, message, cert.publicKey, signature.getSignature_asU8());
  } catch {
    ok = false;
  }
  if (!ok) fail("the signature does not verify over the config update");
}
