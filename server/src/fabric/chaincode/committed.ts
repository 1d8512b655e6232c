import { peer } from "@hyperledger/fabric-protos";
import { signaturePolicyToDsl } from "../configtx/policies.js";
import type { GrpcEndpoint } from "../grpc-connection.js";
import type { SigningIdentity } from "../identity.js";
import { applicationPolicyText, endorsementPolicyOf, type CommittedChaincode } from "../peer-client.js";
import { createSignedProposal } from "../proposal.js";
import type { CollectionInput } from "./definition.js";
import { endorseOn } from "./lifecycle.js";

/** A chaincode definition committed on a channel, with everything `_lifecycle` keeps of it. */
export interface CommittedDefinition extends CommittedChaincode {
  /** The private data collections, in the form a definition is created with. */
  collections: CollectionInput[];
}

/**
 * The collections of a CollectionConfigPackage in the input form (`collectionConfigPackage` turns
 * them back into the same bytes): every field written out, so no default of the encoder decides.
 */
export function collectionsFromPackage(pkg: peer.CollectionConfigPackage | undefined): CollectionInput[] {
  if (!pkg) return [];
  return pkg.getConfigList().flatMap((c) => {
    const sc = c.getStaticCollectionConfig();
    if (!sc) return [];
    const member = sc.getMemberOrgsPolicy()?.getSignaturePolicy();
    const ep = sc.getEndorsementPolicy();
    const out: CollectionInput = {
      name: sc.getName(),
      policy: member ? signaturePolicyToDsl(member) : "",
      requiredPeerCount: sc.getRequiredPeerCount(),
      maxPeerCount: sc.getMaximumPeerCount(),
      blockToLive: sc.getBlockToLive(),
      memberOnlyRead: sc.getMemberOnlyRead(),
      memberOnlyWrite: sc.getMemberOnlyWrite(),
    };
    if (ep) {
      const text = applicationPolicyText(ep);
      if (text)
        out.endorsementPolicy = text.startsWith("/") ? { channelConfigPolicy: text } : { signaturePolicy: text };
    }
    return [out];
  });
}

/**
 * `_lifecycle` QueryChaincodeDefinitions on one peer: every chaincode definition committed on
 * `channelId`, at its latest sequence, sorted by name. The signer must be a member of the channel
 * (an admin of one of its orgs).
 */
export async function queryCommittedDefinitions(
  endpoint: GrpcEndpoint,
  signer: SigningIdentity,
  channelId: string,
): Promise<CommittedDefinition[]> {
  const { signed } = createSignedProposal({
    signer,
    channelId,
    chaincode: "_lifecycle",
    args: ["QueryChaincodeDefinitions", new peer.lifecycle.QueryChaincodeDefinitionsArgs().serializeBinary()],
  });
  const res = await endorseOn(endpoint, signed, "QueryChaincodeDefinitions", 15_000);
  return peer.lifecycle.QueryChaincodeDefinitionsResult.deserializeBinary(
    res.getResponse()?.getPayload_asU8() ?? new Uint8Array(),
  )
    .getChaincodeDefinitionsList()
    .map((d) => ({
      name: d.getName(),
      version: d.getVersion(),
      sequence: d.getSequence(),
      endorsementPlugin: d.getEndorsementPlugin(),
      validationPlugin: d.getValidationPlugin(),
      initRequired: d.getInitRequired(),
      endorsementPolicy: endorsementPolicyOf(d.getValidationParameter_asU8()),
      collections: collectionsFromPackage(d.getCollections()),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
