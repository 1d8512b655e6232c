import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";

/** The largest source archive a proposal carries (before base64). */
export const MAX_CC_SOURCE_BYTES = 32 * 1024 * 1024;
/** The inbound body limit: the base64 archive (4/3) plus the definition's fields. */
export const MAX_CC_WIRE_BYTES = Math.ceil((MAX_CC_SOURCE_BYTES * 4) / 3) + 64 * 1024;

/** A chaincode proposal as one console sends it to another (POST /federation/governance/chaincode-proposals). */
export const chaincodeProposalWire = lazySchema(() =>
  z.object({
    def_id: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_-]+$/)
      .describe("The proposer's slug of the proposal"),
    name: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9_-]+$/)
      .describe("Chaincode name"),
    channel_name: z.string().min(1).max(249).describe("Channel"),
    version: z.string().min(1).max(64).describe("Version label"),
    sequence: z.number().int().min(1).max(2_147_483_647).describe("Definition sequence"),
    endorsement_policy: z.string().max(2000).describe("Endorsement policy; empty for the channel default"),
    docker_image: z.string().max(500).describe("Image, when the code is an image"),
    init_required: z.boolean().describe("The chaincode's Init must be invoked first"),
    source_type: z.enum(["docker", "node", "go", "executable", "none"]).describe("Where the code comes from"),
    source_b64: z
      .string()
      .max(MAX_CC_WIRE_BYTES)
      .regex(/^[A-Za-z0-9+/=]*$/, "must be base64")
      .describe("The source: a tar.gz of the source folder, or the executable; empty for an image"),
    source_sha256: z
      .string()
      .regex(/^([0-9a-f]{64})?$/, "must be a hex SHA-256")
      .describe("SHA-256 of the decoded source; empty when there is none"),
    shared_by: z.string().max(255).describe("Who shared it on the sending console"),
  }),
);
