import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { which } from "../../runtime/chaincode-source.js";
import { BOILERPLATES, scaffold } from "./boilerplates.js";

const run = promisify(execFile);
const base = mkdtempSync(join(tmpdir(), "cl-boilerplates-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/**
 * Each shipped boilerplate passes its own tests and builds, from a scaffolded copy as a project gets
 * it (packages from the lock file; Go modules from the module proxy or cache).
 */
describe("shipped boilerplates", () => {
  for (const b of BOILERPLATES) {
    it(`${b.id}: its unit tests pass (${b.validateCommand})`, { timeout: 300_000 }, async (ctx) => {
      const dir = join(base, b.id);
      await scaffold(b, dir);
      const env = { ...process.env, npm_config_audit: "false", npm_config_fund: "false" };
      if (b.sourceType === "go") {
        const go = await which("go", ["/usr/local/go/bin", "/usr/lib/go/bin"]);
        if (!go) {
          console.log(`${b.id} skipped: no Go toolchain (go on PATH) to build and test it`);
          ctx.skip();
          return;
        }
        const goEnv = { ...env, GOFLAGS: "-mod=mod", CGO_ENABLED: "0" };
        await run(go, ["vet", "./..."], { cwd: dir, env: goEnv });
        const test = await run(go, ["test", "./..."], { cwd: dir, env: goEnv });
        expect(test.stdout).toMatch(/^ok\s+assettransfer\/chaincode/m);
        await run(go, ["build", "-o", join(dir, "..", `${b.id}-bin`), "."], { cwd: dir, env: goEnv });
        return;
      }
      await run("npm", ["ci", "--prefer-offline", "--loglevel=error"], { cwd: dir, env });
      const test = await run("npm", ["test"], { cwd: dir, env });
      expect(test.stdout).toMatch(/# pass [1-9]/);
      expect(test.stdout).toMatch(/# fail 0/);
    });
  }
});
