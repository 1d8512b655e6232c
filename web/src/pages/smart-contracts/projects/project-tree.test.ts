import { describe, expect, it } from "vitest";
import type { TreeNode } from "@/data/projects/types";
import { defaultFile, diagnosticsOf, filePaths, joinPath } from "@/pages/smart-contracts/projects/project-tree";

const tree: TreeNode = {
  name: "p",
  path: "",
  isDir: true,
  children: [
    {
      name: "src",
      path: "src",
      isDir: true,
      children: [
        { name: "asset.ts", path: "src/asset.ts", isDir: false },
        { name: "assetTransfer.ts", path: "src/assetTransfer.ts", isDir: false },
      ],
    },
    { name: "package.json", path: "package.json", isDir: false },
  ],
};

describe("project tree helpers", () => {
  it("lists files and opens the contract first", () => {
    expect(filePaths(tree)).toEqual(["src/asset.ts", "src/assetTransfer.ts", "package.json"]);
    expect(defaultFile(tree)).toBe("src/assetTransfer.ts");
    expect(defaultFile({ name: "p", path: "", isDir: true, children: [] })).toBeUndefined();
  });

  it("joins new names and refuses escapes", () => {
    expect(joinPath("src", "lib/util.ts")).toBe("src/lib/util.ts");
    expect(joinPath("", "/README.md")).toBe("README.md");
    expect(joinPath("src", "../x")).toEqual({ error: "'../x' may not contain .. or .git" });
    expect(joinPath("", " ")).toEqual({ error: "A name is required" });
  });

  it("reads compiler diagnostics from a failed start", () => {
    const body = {
      details: { diagnostics: [{ file: "src/a.ts", line: 3, column: 5, message: "error TS2322" }, { x: 1 }] },
    };
    expect(diagnosticsOf(body)).toEqual([{ file: "src/a.ts", line: 3, column: 5, message: "error TS2322" }]);
    expect(diagnosticsOf(undefined)).toEqual([]);
  });
});
