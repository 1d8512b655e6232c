import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test-support/test-app.js";
import { renderPermissionsDoc } from "./permissions-doc.js";

const docPath = resolve(dirname(fileURLToPath(import.meta.url)), "../../../docs/permissions.md");

describe("docs/permissions.md", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("sqlite");
  });
  afterAll(async () => t.close());

  it("is generated from the permission table and is up to date", () => {
    expect(existsSync(docPath), "run: npm run docs:permissions -w server").toBe(true);
    expect(readFileSync(docPath, "utf8"), "stale; run: npm run docs:permissions -w server").toBe(
      renderPermissionsDoc(t.routes),
    );
  });
});
