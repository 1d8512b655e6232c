import type { components } from "@/api/schema";

export type Project = components["schemas"]["ChaincodeProject"];
export type Boilerplate = components["schemas"]["BoilerplateConfig"];
export type ProjectCommit = components["schemas"]["ProjectCommit"];
export interface TreeNode {
  name: string;
  path: string;
  isDir: boolean;
  children?: TreeNode[];
}
export interface BuildDiagnostic {
  file: string;
  line: number;
  column: number;
  message: string;
}
