import { describe, expect, it } from "vitest";
import { parseBlocks, parseInline } from "@/components/markdown/markdown";

describe("markdown subset", () => {
  it("reads headings, paragraphs, lists with continued items, and fenced code", () => {
    const blocks = parseBlocks(
      [
        "# Fabric REST gateway",
        "",
        "The built-in gateway,",
        "run as a project.",
        "",
        "## Endpoints",
        "- `POST /invoke` submits",
        "  and waits for its commit.",
        "- `GET /healthz` says whether it runs.",
        "1. first",
        "2. second",
        "```sh",
        "curl -X POST localhost:8800/invoke",
        "```",
      ].join("\n"),
    );
    expect(blocks).toEqual([
      { kind: "heading", level: 1, text: "Fabric REST gateway" },
      { kind: "paragraph", text: "The built-in gateway, run as a project." },
      { kind: "heading", level: 2, text: "Endpoints" },
      {
        kind: "list",
        ordered: false,
        items: ["`POST /invoke` submits and waits for its commit.", "`GET /healthz` says whether it runs."],
      },
      { kind: "list", ordered: true, items: ["first", "second"] },
      { kind: "code", lang: "sh", text: "curl -X POST localhost:8800/invoke" },
    ]);
  });

  it("reads inline code, bold and http(s) links, and leaves markup and other links as text", () => {
    expect(parseInline("Use `x` **now**, see [docs](https://example.com/a)")).toEqual([
      { kind: "text", text: "Use " },
      { kind: "code", text: "x" },
      { kind: "text", text: " " },
      { kind: "bold", text: "now" },
      { kind: "text", text: ", see " },
      { kind: "link", text: "docs", href: "https://example.com/a" },
    ]);
    expect(parseInline("[x](javascript:alert(1)) <img src=x onerror=alert(1)>")).toEqual([
      { kind: "text", text: "[x](javascript:alert(1)) <img src=x onerror=alert(1)>" },
    ]);
  });
});
