import { peer } from "@hyperledger/fabric-protos";
import type { GrpcEndpoint } from "../grpc-connection.js";
import type { SigningIdentity } from "../identity.js";
import { endorsementPolicyOf, ProposalError } from "../peer-client.js";
import { createSignedProposal } from "../proposal.js";
import { applicationPolicyBytes, collectionConfigPackage, type DefinitionInput } from "./definition.js";
import { endorseOn } from "./lifecycle.js";

/**
 * The validation parameter `_lifecycle` stores for an empty policy: it fills in the channel's
 * default (`/Channel/Application/Endorsement`) before it saves an approval or a commit.
 */
const DEFAULT_POLICY = "/Channel/Application/Endorsement";

/** The parameters of a definition as a peer stores them (an org's approval, or the committed one). */
export interface StoredDefinition {
  sequence: number;
  version: string;
  /** The ApplicationPolicy bytes as stored. */
  validationParameter: Uint8Array;
  initRequired: boolean;
  /** The CollectionConfigPackage bytes (empty: no collections). */
  collections: Uint8Array;
}

/** An org's approval (QueryApprovedChaincodeDefinition): its parameters and the package it runs ("" none). */
export interface ApprovedDefinition extends StoredDefinition {
  packageId: string;
}

/**
 * What this org approved for `name` at `sequence`, read from one of its peers (signed by its
 * admin: approvals live in the org's implicit collection), or undefined when it approved nothing.
 */
export async function queryApprovedDefinition(
  endpoint: GrpcEndpoint,
  signer: SigningIdentity,
  channelId: string,
  name: string,
  sequence: number,
): Promise<ApprovedDefinition | undefined> {
  const args = new peer.lifecycle.QueryApprovedChaincodeDefinitionArgs();
  args.setName(name);
  args.setSequence(sequence);
  const { signed } = createSignedProposal({
    signer,
    channelId,
    chaincode: "_lifecycle",
    args: ["QueryApprovedChaincodeDefinition", args.serializeBinary()],
  });
  try {
    const res = await endorseOn(endpoint, signed, "QueryApprovedChaincodeDefinition", 15_000);
    const r = peer.lifecycle.QueryApprovedChaincodeDefinitionResult.deserializeBinary(
      res.getResponse()?.getPayload_asU8() ?? new Uint8Array(),
    );
    return {
      sequence: r.getSequence(),
      version: r.getVersion(),
      validationParameter: r.getValidationParameter_asU8(),
      initRequired: r.getInitRequired(),
      collections: r.getCollections()?.serializeBinary() ?? new Uint8Array(),
      packageId: r.getSource()?.getLocalPackage()?.getPackageId() ?? "",
    };
  } catch (err) {
    if (err instanceof ProposalError && /could not fetch approved chaincode definition/.test(err.peerMessage)) {
      return undefined;
    }
    throw err;
  }
}

const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/**
 * How a stored definition differs from the one wanted, field by field in the API's names
 * (`version (1.0 → 1.1)`, `endorsement_policy (…)`, `init_required`, `collections`, `package_id`);
 * empty when `_lifecycle` would see the same definition. The comparison is `_lifecycle`'s own:
 * bytes of the validation parameter and collections, with the default policy filled in.
 * `packageId` undefined leaves the package out (a committed definition has none).
 */
export function definitionDifferences(
  wanted: DefinitionInput,
  stored: StoredDefinition & { packageId?: string },
  packageId?: string,
): string[] {
  const out: string[] = [];
  if (stored.version !== wanted.version) out.push(`version (${stored.version} → ${wanted.version})`);
  const policy = applicationPolicyBytes(wanted.endorsementPolicy || DEFAULT_POLICY);
  if (!same(stored.validationParameter, policy)) {
    const was = stored.validationParameter.length ? endorsementPolicyOf(stored.validationParameter) : "";
    out.push(`endorsement_policy (${was || DEFAULT_POLICY} → ${wanted.endorsementPolicy || DEFAULT_POLICY})`);
  }
  if (stored.initRequired !== wanted.initRequired) {
    out.push(`init_required (${stored.initRequired} → ${wanted.initRequired})`);
  }
  const collections = collectionConfigPackage(wanted.collections)?.serializeBinary() ?? new Uint8Array();
  if (!same(stored.collections, collections)) out.push("collections");
  if (packageId !== undefined && stored.packageId !== undefined && stored.packageId !== packageId) {
    out.push(`package_id (${stored.packageId || "none"} → ${packageId || "none"})`);
  }
  return out;
}

/** What an approve should do, given what the org already approved at that sequence. */
export type ApproveDecision =
  | { kind: "approve" }
  | { kind: "already" }
  /** The org approved other parameters at a sequence not committed yet: `_lifecycle` lets a new approval replace it. */
  | { kind: "replace"; differences: string[] }
  /** The sequence is committed with other parameters: `_lifecycle` refuses the approval. */
  | { kind: "conflict"; differences: string[] };

/**
 * Decides an approve from the org's approval at the same sequence (`approved`, undefined: none)
 * and the sequence committed on the channel (0: none).
 */
export function approveDecision(
  wanted: DefinitionInput,
  packageId: string,
  approved: ApprovedDefinition | undefined,
  committedSequence: number,
): ApproveDecision {
  if (!approved) return { kind: "approve" };
  const differences = definitionDifferences(wanted, approved, packageId);
  if (differences.length === 0) return { kind: "already" };
  // A committed sequence's parameters are fixed; only its package may change (an org that installs later).
  const fixed = differences.filter((d) => !d.startsWith("package_id"));
  if (committedSequence >= wanted.sequence && fixed.length > 0) return { kind: "conflict", differences: fixed };
  return { kind: "replace", differences };
}

/** What a commit should do, given the definition committed on the channel. */
export type CommitDecision =
  | { kind: "commit" }
  | { kind: "already" }
  /** The same sequence is committed with other parameters. */
  | { kind: "conflict"; differences: string[] }
  /** A later sequence is committed: this definition is behind. */
  | { kind: "superseded"; committedSequence: number };

/** Decides a commit from the committed definition (undefined: none yet). */
export function commitDecision(wanted: DefinitionInput, committed: StoredDefinition | undefined): CommitDecision {
  if (!committed || committed.sequence < wanted.sequence) return { kind: "commit" };
  if (committed.sequence > wanted.sequence) return { kind: "superseded", committedSequence: committed.sequence };
  const differences = definitionDifferences(wanted, committed);
  return differences.length === 0 ? { kind: "already" } : { kind: "conflict", differences };
}
