import { describe, expect, it } from "vitest";
import { buildDiagnostics } from "./projects.run.js";

describe("build diagnostics", () => {
  it("reads file, line and column from tsc and go build output", () => {
    const log = [
      "$ npm run build",
      "> tsc",
      "src/assetTransfer.ts(67,11): error TS2322: Type 'string' is not assignable to type 'number'.",
      "# assettransfer/chaincode",
      "chaincode/asset_transfer.go:42:9: undefined: foo",
      './main.go:3:2: "os" imported and not used',
      "npm error code 2",
    ].join("\n");
    expect(buildDiagnostics(log)).toEqual([
      {
        file: "src/assetTransfer.ts",
        line: 67,
        column: 11,
        message: "error TS2322: Type 'string' is not assignable to type 'number'.",
      },
      { file: "chaincode/asset_transfer.go", line: 42, column: 9, message: "undefined: foo" },
      { file: "main.go", line: 3, column: 2, message: '"os" imported and not used' },
    ]);
    expect(buildDiagnostics("npm error 404 Not Found")).toEqual([]);
  });
});
