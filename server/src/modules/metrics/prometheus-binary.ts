import { existsSync } from "node:fs";
import { join } from "node:path";
import { AppError } from "../../http/errors.js";
import { runFile } from "../../runtime/index.js";

/** Prometheus is not installed (or CHAINLAUNCH_PROMETHEUS_BIN points nowhere). */
export class PrometheusMissingError extends AppError {
  constructor(detail: string) {
    super(
      `prometheus was not found (${detail}); install it (Debian: apt-get install prometheus) or set CHAINLAUNCH_PROMETHEUS_BIN`,
      503,
      "PROMETHEUS_MISSING",
    );
  }
}

/** Finds the prometheus binary: CHAINLAUNCH_PROMETHEUS_BIN, else `prometheus` on PATH. */
export function resolvePrometheus(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.CHAINLAUNCH_PROMETHEUS_BIN;
  if (configured) {
    if (existsSync(configured)) return configured;
    throw new PrometheusMissingError(`CHAINLAUNCH_PROMETHEUS_BIN=${configured} does not exist`);
  }
  for (const dir of (env.PATH ?? "").split(":").filter(Boolean)) {
    const candidate = join(dir, "prometheus");
    if (existsSync(candidate)) return candidate;
  }
  throw new PrometheusMissingError("not on PATH");
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
