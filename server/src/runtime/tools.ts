import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/**
 * Finds an executable: the configured path when one is given (and only it), else `name` on PATH.
 * Returns the path, or why there is none (for the caller's error message).
 */
export function findExecutable(
  name: string,
  configured: { envVar: string; value: string | undefined },
  path: string | undefined,
): { path: string } | { problem: string } {
  const candidates = configured.value
    ? [configured.value]
    : (path ?? "")
        .split(delimiter)
        .filter(Boolean)
        .map((d) => join(d, name));
  for (const c of candidates) {
    try {
      accessSync(c, constants.X_OK);
      return { path: c };
    } catch {
      // next
    }
  }
  return { problem: configured.value ? `${configured.envVar}=${configured.value} is not executable` : "not on PATH" };
}
