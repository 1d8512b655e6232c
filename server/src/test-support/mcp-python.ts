import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Where `scripts/system-deps.sh test` installs the MCP Python SDK (PyPI `mcp`). */
export const MCP_VENV = join(homedir(), ".cache", "chainlaunch", "mcp-py");
/** The script that runs one MCP session with that SDK. */
export const MCP_PYTHON_SESSION = fileURLToPath(new URL("./mcp-python-session.py", import.meta.url));

async function importsMcp(python: string): Promise<boolean> {
  if (!existsSync(python)) return false;
  return run(python, ["-c", "import mcp"], { timeout: 30_000 }).then(
    () => true,
    () => false,
  );
}

/**
 * The venv's python with the official MCP SDK importable, made here as the deps script makes it when
 * it is missing; `{ skip }` says why when it can't be made (no python3 venv module, no PyPI).
 */
export async function mcpPython(): Promise<{ python: string } | { skip: string }> {
  const python = join(MCP_VENV, "bin", "python");
  if (await importsMcp(python)) return { python };
  try {
    await run("python3", ["-m", "venv", MCP_VENV], { timeout: 120_000 });
    await run(join(MCP_VENV, "bin", "pip"), ["install", "-q", "mcp>=1.10,<2"], { timeout: 300_000 });
  } catch (err) {
    return { skip: `the MCP Python SDK venv (${MCP_VENV}) can't be made: ${(err as Error).message.split("\n")[0]}` };
  }
  return (await importsMcp(python)) ? { python } : { skip: `${python} can't import mcp after installing it` };
}
