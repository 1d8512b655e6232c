import { spawn, type ChildProcess } from "node:child_process";
import { findBaoBinary } from "../modules/key-providers/vault/openbao-binary.js";
import { releasePorts, reservePorts } from "./ports.js";

/** A real OpenBao dev server (in-memory storage, unsealed, root token given) on a loopback port. */
export interface OpenBaoDev {
  address: string;
  rootToken: string;
  /** A raw API call with the root token. */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  stop(): Promise<void>;
}

/** The server binary as the product finds it, or why the Vault tests skip. */
export function openBaoForTests(): { path: string } | { skip: string } {
  const found = findBaoBinary();
  if ("path" in found) return found;
  return { skip: `OpenBao not found (${found.problem}); run scripts/system-deps.sh vault` };
}

/** Starts `bao server -dev`, the mode external-Vault tests talk to (plain HTTP, unsealed). */
export async function startOpenBaoDev(rootToken = "root-token-for-tests"): Promise<OpenBaoDev> {
  const found = findBaoBinary();
  if (!("path" in found)) throw new Error(`OpenBao not found: ${found.problem}`);
  // Two reserved ports: the API and, right after it, the dev server's cluster listener.
  const port = await reservePorts(2);
  const address = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    found.path,
    ["server", "-dev", `-dev-root-token-id=${rootToken}`, `-dev-listen-address=127.0.0.1:${port}`],
    { stdio: "ignore", env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp" } },
  );
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${address}${path}`, {
      method,
      headers: { "x-vault-token": rootToken, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ok = await call("GET", "/v1/sys/health").then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null) throw new Error(`bao server -dev exited with ${child.exitCode}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error("bao server -dev did not answer within 30 s");
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    address,
    rootToken,
    call,
    async stop() {
      if (child.exitCode !== null) return;
      const gone = new Promise<boolean>((r) => child.once("exit", () => r(true)));
      child.kill("SIGTERM");
      const exited = await Promise.race([gone, new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]);
      // Its ports go back only once it is gone; otherwise they stay locked until this process exits.
      if (exited) releasePorts(port, 2);
      else child.kill("SIGKILL");
    },
  };
}
