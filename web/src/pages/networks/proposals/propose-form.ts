import type { CreateChaincodeProposalBody } from "@/data/chaincode-proposals/types";
import type { Chaincode, ChaincodeDefinition } from "@/data/chaincodes/types";

/** Where recipients get the code from: an archive uploaded after creation, a local definition, or an image. */
export type ProposeSource = "upload" | "definition" | "docker";

export interface ProposeFormState {
  /** An existing chaincode of the network (its id, as the select's value) or "new". */
  chaincode: string;
  name: string;
  version: string;
  sequence: string;
  policy: string;
  initRequired: boolean;
  source: ProposeSource;
  /** The local definition proposed as is (source "definition"), as the select's value. */
  definitionId: string;
  dockerImage: string;
  address: string;
  /** A file was chosen (source "upload"); the file itself stays in the page. */
  hasFile: boolean;
}

/** Form fields with an error slot, named after the request field they feed. */
export type ProposeField =
  | "name"
  | "version"
  | "sequence"
  | "endorsement_policy"
  | "definition_id"
  | "docker_image"
  | "chaincode_address"
  | "source";

export const initialProposeForm: ProposeFormState = {
  chaincode: "new",
  name: "",
  version: "1.0",
  sequence: "1",
  policy: "",
  initRequired: false,
  source: "upload",
  definitionId: "",
  dockerImage: "",
  address: "",
  hasFile: false,
};

/** The server's rule for names (body.name); kept here so the form says it before the round trip. */
const NAME_RE = /^[A-Za-z0-9_-]+$/;

/**
 * What is wrong with the form, by field; each message starts with the request field's name, as the
 * server's do (`sequence: ...`). Empty when it can be sent.
 */
export function validateProposeForm(f: ProposeFormState): Partial<Record<ProposeField, string>> {
  const e: Partial<Record<ProposeField, string>> = {};
  const name = f.name.trim();
  if (!name) e.name = "name: required";
  else if (name.length > 128) e.name = "name: at most 128 characters";
  else if (!NAME_RE.test(name)) e.name = "name: only letters, digits, _ and -";
  const version = f.version.trim();
  if (!version) e.version = "version: required";
  else if (version.length > 64) e.version = "version: at most 64 characters";
  const seq = Number(f.sequence);
  if (!f.sequence.trim() || !Number.isInteger(seq) || seq < 1) e.sequence = "sequence: a whole number of 1 or more";
  if (f.policy.length > 2000) e.endorsement_policy = "endorsement_policy: at most 2000 characters";
  if (f.address.trim().length > 300) e.chaincode_address = "chaincode_address: at most 300 characters";
  if (f.source === "definition" && !f.definitionId) e.definition_id = "definition_id: choose a definition";
  if (f.source === "docker" && !f.dockerImage.trim()) e.docker_image = "docker_image: required for an image";
  if (f.source === "upload" && !f.hasFile) e.source = "source: choose an archive (tar.gz, zip) or executable";
  return e;
}

/** The create request: optional fields only when set, so the server's defaults apply otherwise. */
export function proposeBody(f: ProposeFormState, network: { id: number; name: string }): CreateChaincodeProposalBody {
  const policy = f.policy.trim();
  const address = f.address.trim();
  return {
    name: f.name.trim(),
    network_id: network.id,
    channel_name: network.name,
    version: f.version.trim(),
    sequence: Number(f.sequence),
    ...(policy ? { endorsement_policy: policy } : {}),
    init_required: f.initRequired,
    ...(address ? { chaincode_address: address } : {}),
    ...(f.source === "definition" ? { definition_id: Number(f.definitionId) } : {}),
    ...(f.source === "docker" ? { docker_image: f.dockerImage.trim() } : {}),
  };
}

/**
 * The sequence a new definition needs: the channel's committed sequence + 1. The definition status
 * knows it (`next_sequence`); before it answers, the newest local definition + 1; 1 for a new name.
 */
export function defaultSequence(
  chaincode: Pick<Chaincode, "latest_definition"> | undefined,
  nextSequence: number | undefined,
): number {
  if (nextSequence !== undefined) return nextSequence;
  return chaincode?.latest_definition ? chaincode.latest_definition.sequence + 1 : 1;
}

/** Picking a local definition to propose takes its version, sequence, policy and init flag. */
export function fromDefinition(f: ProposeFormState, d: ChaincodeDefinition): ProposeFormState {
  return {
    ...f,
    definitionId: String(d.id),
    version: d.version,
    sequence: String(d.sequence),
    policy: d.endorsement_policy,
    initRequired: d.init_required,
  };
}

/** The network page's tab the flow ends on. */
export const proposalsTabHref = (networkId: number): string => `/networks/${networkId}/fabric?tab=proposals`;
