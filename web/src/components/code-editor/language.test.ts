import { describe, expect, it } from "vitest";
import { languageOf } from "@/components/code-editor/language";

describe("languageOf", () => {
  it("highlights TypeScript, JavaScript, Go, Markdown and YAML by file name", () => {
    expect(languageOf("src/assetTransfer.ts")).toBe("typescript");
    expect(languageOf("lib/a.js")).toBe("javascript");
    expect(languageOf("package.json")).toBe("javascript");
    expect(languageOf("chaincode/asset_transfer.go")).toBe("go");
    expect(languageOf("README.md")).toBe("markdown");
    expect(languageOf("ci.yaml")).toBe("yaml");
    expect(languageOf(".gitignore")).toBe("plaintext");
  });
});
