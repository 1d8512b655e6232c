import { peer } from "@hyperledger/fabric-protos";
import { ConfigtxInputError } from "../configtx/errors.js";
import { signaturePolicyFromDsl } from "../configtx/policies.js";

/** Chaincode names as `_lifecycle` accepts them (`lifecycle.ChaincodeNameRegExp`). */
export const CHAINCODE_NAME_RE = /^[a-zA-Z0-9]+([-_][a-zA-Z0-9]+)*$/;
/** Versions as `_lifecycle` accepts them (`lifecycle.ChaincodeVersionRegExp`). */
export const CHAINCODE_VERSION_RE = /^[A-Za-z0-9_.+-]+$/;

/** A private data collection, as `peer lifecycle chaincode approveformyorg --collections-config` reads it. */
export interface CollectionInput {
  name: string;
  /** Signature-policy DSL of the orgs that hold the data, e.g. `OR('Org1MSP.member','Org2MSP.member')`. */
  policy: string;
  requiredPeerCount?: number;
  maxPeerCount?: number;
  blockToLive?: number;
  memberOnlyRead?: boolean;
  memberOnlyWrite?: boolean;
  endorsementPolicy?: { signaturePolicy?: string; channelConfigPolicy?: string };
}

/** The fields of a definition that `_lifecycle` approves and commits. */
export interface DefinitionInput {
  name: string;
  version: string;
  sequence: number;
  /** Signature-policy DSL, a channel policy path (`/Channel/Application/Endorsement`) or "" (that default). */
  endorsementPolicy: string;
  initRequired: boolean;
  collections: CollectionInput[];
}

/**
 * The validation parameter of a definition: an ApplicationPolicy holding either a signature policy
 * (from the DSL) or a channel policy reference (a value starting with "/"). Empty means the
 * channel's default (`/Channel/Application/Endorsement`), as in the peer CLI.
 * @throws ConfigtxInputError(field) with the position of a DSL error
 */
export function applicationPolicyBytes(policy: string, field = "endorsement_policy"): Uint8Array {
  const p = policy.trim();
  if (p === "") return new Uint8Array();
  const ap = new peer.ApplicationPolicy();
  if (p.startsWith("/")) {
    if (!/^(\/[A-Za-z0-9_.-]+)+$/.test(p)) {
      throw new ConfigtxInputError(
        field,
        `"${p}" is not a channel policy path such as /Channel/Application/Endorsement`,
      );
    }
    ap.setChannelConfigPolicyReference(p);
  } else {
    ap.setSignaturePolicy(signaturePolicyFromDsl(p, field));
  }
  return ap.serializeBinary();
}

/**
 * The CollectionConfigPackage of a definition's private data collections (none → undefined).
 * @throws ConfigtxInputError naming `collections[i].<field>`
 */
export function collectionConfigPackage(
  collections: CollectionInput[],
  field = "collections",
): peer.CollectionConfigPackage | undefined {
  if (collections.length === 0) return undefined;
  const seen = new Set<string>();
  const pkg = new peer.CollectionConfigPackage();
  pkg.setConfigList(
    collections.map((c, i) => {
      const f = `${field}[${i}]`;
      if (!/^[A-Za-z0-9_-]+$/.test(c.name ?? "")) {
        throw new ConfigtxInputError(`${f}.name`, `collection name "${c.name}" must match [A-Za-z0-9_-]+`);
      }
      if (seen.has(c.name)) throw new ConfigtxInputError(`${f}.name`, `collection "${c.name}" is defined twice`);
      seen.add(c.name);
      const required = c.requiredPeerCount ?? 0;
      const max = c.maxPeerCount ?? 1;
      if (required < 0 || max < required) {
        throw new ConfigtxInputError(
          `${f}.maxPeerCount`,
          `maxPeerCount (${max}) must be at least requiredPeerCount (${required})`,
        );
      }
      const members = new peer.CollectionPolicyConfig();
      members.setSignaturePolicy(signaturePolicyFromDsl(c.policy ?? "", `${f}.policy`));
      const sc = new peer.StaticCollectionConfig();
      sc.setName(c.name);
      sc.setMemberOrgsPolicy(members);
      sc.setRequiredPeerCount(required);
      sc.setMaximumPeerCount(max);
      sc.setBlockToLive(c.blockToLive ?? 0);
      sc.setMemberOnlyRead(c.memberOnlyRead ?? true);
      sc.setMemberOnlyWrite(c.memberOnlyWrite ?? true);
      const ep = c.endorsementPolicy;
      if (ep?.signaturePolicy || ep?.channelConfigPolicy) {
        const bytes = applicationPolicyBytes(
          ep.signaturePolicy ?? ep.channelConfigPolicy ?? "",
          `${f}.endorsementPolicy`,
        );
        sc.setEndorsementPolicy(peer.ApplicationPolicy.deserializeBinary(bytes));
      }
      const cc = new peer.CollectionConfig();
      cc.setStaticCollectionConfig(sc);
      return cc;
    }),
  );
  return pkg;
}

/** Checks what `_lifecycle` would refuse, so the API answers with a named 400 first. */
export function validateDefinition(d: Omit<DefinitionInput, "name"> & { name?: string }, prefix = ""): void {
  if (d.name !== undefined && !CHAINCODE_NAME_RE.test(d.name)) {
    throw new ConfigtxInputError(
      `${prefix}name`,
      `"${d.name}" is not a valid chaincode name: letters and digits, joined by single '-' or '_'`,
    );
  }
  if (!CHAINCODE_VERSION_RE.test(d.version)) {
    throw new ConfigtxInputError(`${prefix}version`, `"${d.version}" is not a valid version: use [A-Za-z0-9_.+-]`);
  }
  if (!Number.isInteger(d.sequence) || d.sequence < 1) {
    throw new ConfigtxInputError(`${prefix}sequence`, "the sequence must be a positive integer");
  }
  applicationPolicyBytes(d.endorsementPolicy, `${prefix}endorsement_policy`);
  collectionConfigPackage(d.collections, `${prefix}collections`);
}

/** Fills the fields shared by ApproveChaincodeDefinitionForMyOrgArgs, CheckCommitReadinessArgs and CommitChaincodeDefinitionArgs. */
export function fillDefinitionArgs<
  T extends {
    setName(v: string): void;
    setVersion(v: string): void;
    setSequence(v: number): void;
    setValidationParameter(v: Uint8Array): void;
    setInitRequired(v: boolean): void;
    setCollections(v?: peer.CollectionConfigPackage): void;
  },
>(args: T, d: DefinitionInput): T {
  args.setName(d.name);
  args.setVersion(d.version);
  args.setSequence(d.sequence);
  args.setValidationParameter(applicationPolicyBytes(d.endorsementPolicy));
  args.setInitRequired(d.initRequired);
  const pkg = collectionConfigPackage(d.collections);
  if (pkg) args.setCollections(pkg);
  return args;
}
