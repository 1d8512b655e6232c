import { cp } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { findShippedDir } from "../../runtime/shipped.js";

/** A project template shipped with the product (server/boilerplates/<id>). */
export interface Boilerplate {
  id: string;
  name: string;
  description: string;
  platform: "FABRIC";
  /** How the chaincode source is built and run (see runtime/chaincode-source.ts). */
  sourceType: "node" | "go";
  language: "typescript" | "javascript" | "go";
  /** How the console runs it, and how a developer checks it locally. */
  command: string;
  args: string[];
  validateCommand: string;
}

export const BOILERPLATES: readonly Boilerplate[] = [
  {
    id: "chaincode-typescript",
    name: "Asset transfer (TypeScript)",
    description:
      "A fabric-contract-api contract in TypeScript with unit tests; built with tsc, run with fabric-chaincode-node",
    platform: "FABRIC",
    sourceType: "node",
    language: "typescript",
    command: "npm",
    args: ["run", "build"],
    validateCommand: "npm test",
  },
  {
    id: "chaincode-javascript",
    name: "Asset transfer (JavaScript)",
    description: "A fabric-contract-api contract in plain JavaScript with unit tests, run with fabric-chaincode-node",
    platform: "FABRIC",
    sourceType: "node",
    language: "javascript",
    command: "npm",
    args: ["install", "--omit=dev"],
    validateCommand: "npm test",
  },
  {
    id: "chaincode-go",
    name: "Asset transfer (Go)",
    description: "A fabric-contract-api-go contract with unit tests, built with go build and run as a chaincode server",
    platform: "FABRIC",
    sourceType: "go",
    language: "go",
    command: "go",
    args: ["build", "-o", "../bin/chaincode", "."],
    validateCommand: "go vet ./... && go test ./...",
  },
];

/**
 * Where the boilerplates are: `server/boilerplates`, found from this module whether it runs from
 * src/ (tsx), dist/ or the bundle.
 */
export function boilerplatesDir(): string {
  const found = findShippedDir([dirname(fileURLToPath(import.meta.url))], "boilerplates", BOILERPLATES[0]!.id);
  if (found) return found;
  throw new Error("the chaincode boilerplates (server/boilerplates) are missing from this installation");
}

/** Copies a boilerplate's files (not installed packages or build output) into a new project folder. */
export async function scaffold(boilerplate: Boilerplate, target: string): Promise<void> {
  const from = join(boilerplatesDir(), boilerplate.id);
  await cp(from, target, {
    recursive: true,
    errorOnExist: true,
    force: false,
    filter: (src) => !/[\\/](node_modules|dist|bin)([\\/]|$)/.test(src.slice(from.length)),
  });
}
