import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * A folder shipped with the product (`name`, recognised by `marker` inside it), found by walking
 * up from each start folder in turn: the same search whether the code runs from src/ (tsx), dist/
 * or the bundle. Undefined when none has it.
 */
export function findShippedDir(
  starts: (string | undefined)[],
  name: string,
  marker: string,
  levels = 6,
): string | undefined {
  for (const start of starts) {
    let dir = start;
    for (let i = 0; dir && i < levels; i++) {
      const candidate = join(dir, name);
      if (existsSync(join(candidate, marker))) return candidate;
      dir = dirname(dir);
    }
  }
  return undefined;
}
