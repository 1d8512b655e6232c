import { z } from "zod";
import { dbId, lazySchema, MAX_DB_ID } from "../../http/schema-helpers.js";
import { MAX_FILE_BYTES } from "./project-files.js";

const id = lazySchema(() => z.coerce.number().int().min(1).max(MAX_DB_ID));
export const projectIdParams = lazySchema(() => z.object({ id: id.describe("Project id") }).strict());
export const projectFilesParams = lazySchema(() => z.object({ projectId: id.describe("Project id") }).strict());

export const PROJECT_STATUSES = ["stopped", "building", "running", "error"] as const;

export const projectResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("Project id"),
      name: z.string().describe("Project name"),
      slug: z.string().describe("Folder and chaincode name: the name, lower-cased, with a random suffix"),
      description: z.string(),
      boilerplate: z.string().describe("The boilerplate it started from, e.g. chaincode-typescript"),
      endorsementPolicy: z
        .string()
        .describe("Signature policy, e.g. OR('Org1MSP.member'); empty for the channel default"),
      networkId: z.number().int().describe("The Fabric network (channel) it runs on"),
      networkName: z.string(),
      networkPlatform: z.string(),
      status: z.enum(PROJECT_STATUSES).describe("stopped, building, running or error"),
      lastError: z.string().nullable().describe("What failed in the last build or run"),
      lastStartedAt: z.string().nullable(),
      lastStoppedAt: z.string().nullable(),
      chaincodeId: z.number().int().nullable().describe("The chaincode its runs deploy (after the first start)"),
      containerPort: z.number().int().nullable().describe("Port of the running chaincode server; null when stopped"),
      createdAt: z.string(),
    })
    .meta({ id: "ChaincodeProject" }),
);

export const createProjectBody = lazySchema(() =>
  z.object({
    name: z.string().trim().min(1).max(100).describe("Project name"),
    networkId: dbId().describe("Fabric network (channel) to run it on"),
    boilerplate: z
      .string()
      .max(64)
      .optional()
      .describe("Boilerplate id (GET /ai/boilerplates); chaincode-typescript by default"),
    description: z.string().max(2000).optional(),
    endorsementPolicy: z.string().max(4000).optional().describe("Signature policy; empty for the channel default"),
  }),
);

export const createProjectResponse = lazySchema(() => projectResponse.meta({ id: "CreateChaincodeProjectResponse" }));

export const updatePolicyBody = lazySchema(() =>
  z.object({
    endorsementPolicy: z.string().max(4000).describe("Signature policy, or empty for the channel default"),
  }),
);

export const boilerplateResponse = lazySchema(() =>
  z
    .object({
      id: z.string(),
      name: z.string(),
      description: z.string(),
      platform: z.string(),
      language: z.string(),
      command: z.string(),
      args: z.array(z.string()),
      validateCommand: z.string(),
      image: z.string().describe("Empty: boilerplates run as processes, not images"),
      repoOwner: z.string(),
      repoName: z.string(),
      repoPath: z.string(),
      systemPrompt: z.string(),
    })
    .meta({ id: "BoilerplateConfig" }),
);
export const boilerplatesQuery = lazySchema(() =>
  z.object({
    network_id: id
      .optional()
      .describe(
        "Network id; boilerplates fit its platform. Without it, every boilerplate shipped (each names its platform)",
      ),
  }),
);

export type TreeNodeShape = {
  name: string;
  path: string;
  isDir: boolean;
  children?: TreeNodeShape[];
};
export const treeNode: z.ZodType<TreeNodeShape> = lazySchema(() =>
  z
    .object({
      name: z.string(),
      path: z.string().describe("Relative to the project root; empty for the root"),
      isDir: z.boolean(),
      get children() {
        return z.array(treeNode).optional();
      },
    })
    .meta({ id: "DirectoryTreeNode" }),
);

const pathText = lazySchema(() => z.string().max(4096));
export const pathQuery = lazySchema(() =>
  z.object({ path: pathText.describe("File path relative to the project root") }),
);
export const dirQuery = lazySchema(() =>
  z.object({
    dir: pathText.describe("Folder path relative to the project root"),
    project: z.string().max(255).optional().describe("Project slug (accepted for compatibility; the id decides)"),
  }),
);
export const listDirQuery = lazySchema(() =>
  z.object({
    dir: pathText.optional().describe("Folder to list, relative to the project root (the root when empty)"),
  }),
);
export const listFilesResponse = lazySchema(() =>
  z.object({
    files: z.array(z.string()).describe("Names of the folder's files (symlinks are not listed)"),
  }),
);
export const listEntriesResponse = lazySchema(() =>
  z.object({
    directories: z.array(z.string()).describe("Names of the folder's subfolders"),
    files: z.array(z.string()).describe("Names of the folder's files (symlinks are not listed)"),
    skipped: z.array(z.string()).describe("Subfolders left out: node_modules, .git, dist, bin"),
  }),
);
export const writeFileBody = lazySchema(() =>
  z.object({
    path: pathText.describe("File path relative to the project root"),
    content: z
      .string()
      .max(MAX_FILE_BYTES * 4)
      .describe(`File text, at most ${MAX_FILE_BYTES} bytes as UTF-8`),
    project: z.string().max(255).optional().describe("Project slug (accepted for compatibility; the id decides)"),
  }),
);
export const createDirBody = lazySchema(() =>
  z.object({
    dir: pathText.describe("Folder path relative to the project root"),
    project: z.string().max(255).optional().describe("Project slug (accepted for compatibility; the id decides)"),
  }),
);
export const statusResponse = lazySchema(() => z.object({ status: z.string() }));

export const startResponse = lazySchema(() =>
  z.object({
    status: z.string(),
    message: z.string(),
    definitionId: z.number().int().describe("The chaincode definition this start committed"),
    sequence: z.number().int().describe("The committed sequence"),
    packageId: z.string().describe("The installed ccaas package"),
    phases: z
      .record(z.string(), z.number())
      .describe("Milliseconds per phase: build, install, run, verify (the new server answers), approve, commit"),
    commit: z.string().describe("The history commit recording the files this start ran"),
  }),
);

export const commitResponse = lazySchema(() =>
  z
    .object({
      hash: z.string(),
      parent: z.string().describe("Parent commit; empty for the first"),
      author: z.string(),
      message: z.string(),
      timestamp: z.string(),
      added: z.array(z.string()),
      modified: z.array(z.string()),
      removed: z.array(z.string()),
    })
    .meta({ id: "ProjectCommit" }),
);
export const commitsQuery = lazySchema(() =>
  z.object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(200).default(20),
  }),
);
export const commitParams = lazySchema(() =>
  z
    .object({
      id: id.describe("Project id"),
      commitHash: z.string().max(64).describe("Commit hash (at least 4 hex digits)"),
    })
    .strict(),
);
export const diffQuery = lazySchema(() =>
  z.object({
    file: z.string().min(1).max(4096).describe("File path relative to the project root"),
    from: z.string().max(64).describe("From commit"),
    to: z.string().max(64).describe("To commit"),
  }),
);
export const fileAtCommitQuery = lazySchema(() =>
  z.object({
    file: z.string().min(1).max(4096).describe("File path relative to the project root"),
    commit: z.string().max(64).describe("Commit hash"),
  }),
);

export const handlerRequest = lazySchema(() =>
  z.object({
    function: z.string().min(1).max(500).describe("Function name, e.g. CreateAsset"),
    args: z.array(z.string().max(1_000_000)).max(100).default([]).describe("Arguments"),
    keyId: dbId().optional().describe("Key (with a certificate of a channel org) to sign with"),
    orgId: dbId().optional().describe("Organization whose client identity signs (when keyId is not given)"),
  }),
);
export const handlerResponse = lazySchema(() =>
  z.object({
    status: z.string(),
    message: z.string(),
    result: z.unknown().describe("Decoded result: JSON when it parses, else text"),
    transactionId: z.string(),
    function: z.string(),
    args: z.array(z.string()),
    chaincode: z.string(),
    channel: z.string(),
    project: z.string(),
    code: z.number().int().describe("200 on success"),
    blockNumber: z.number().int().optional(),
  }),
);
export const projectLogsQuery = lazySchema(() =>
  z.object({
    follow: z
      .enum(["true", "false"])
      .default("false")
      .transform((v) => v === "true")
      .describe("Keep streaming new lines"),
    tail: z.coerce.number().int().min(1).max(10_000).default(500).describe("Lines from the end"),
  }),
);
