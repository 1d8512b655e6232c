import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Longest files first, so the Fabric, backup and browser-free end-to-end files start at once and
 * the many short ones fill the other workers beside them (issue 30). The durations come from
 * `test-durations.json` (seconds per file, from a full run: `scripts/test-all.sh` with
 * TEST_DURATIONS_UPDATE=1 rewrites it); a file not in it counts as short. A fresh clone has no
 * vitest cache, so this table is what orders CI's run.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    let durations: Record<string, number> = {};
    try {
      durations = JSON.parse(readFileSync(new URL("./test-durations.json", import.meta.url), "utf8")) as Record<
        string,
        number
      >;
    } catch {
      return super.sort(files);
    }
    const root = this.ctx.config.root;
    const secs = (f: TestSpecification) => durations[relative(root, f.moduleId)] ?? 0;
    return [...files].sort((a, b) => secs(b) - secs(a) || a.moduleId.localeCompare(b.moduleId));
  }
}
