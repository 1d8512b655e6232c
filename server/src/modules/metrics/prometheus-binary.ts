import { ToolMissingError } from "../../http/errors.js";
import { findExecutable, runFile } from "../../runtime/index.js";

/** Finds the prometheus binary: CHAINLAUNCH_PROMETHEUS_BIN, else `prometheus` on PATH (503 PROMETHEUS_MISSING). */
export function resolvePrometheus(env: NodeJS.ProcessEnv = process.env): string {
  const found = findExecutable(
    "prometheus",
    { envVar: "CHAINLAUNCH_PROMETHEUS_BIN", value: env.CHAINLAUNCH_PROMETHEUS_BIN },
    env.PATH,
  );
  if ("problem" in found) throw new ToolMissingError("prometheus", "CHAINLAUNCH_PROMETHEUS_BIN", found.problem);
  return found.path;
}

/** The version the binary reports (`prometheus, version 2.42.0+ds (...)` -> "2.42.0+ds"), or null. */
export async function prometheusVersion(binary: string): Promise<string | null> {
  try {
    const { stdout, stderr } = await runFile(binary, ["--version"], { timeoutMs: 10_000 });
    return /version\s+(\S+)/.exec(`${stdout}\n${stderr}`)?.[1] ?? null;
  } catch {
    return null;
  }
}
