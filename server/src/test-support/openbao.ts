import { spawn, type ChildProcess } from "node:child_process";
import { findBaoBinary } from "../modules/key-providers/vault/openbao-binary.js";
import { createServer } from "node:net";

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

/** Whether nothing listens on 127.0.0.1:`port` right now. */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

/**
 * A free port whose next port is free too (a dev server's cluster listener takes port + 1), from
 * 8600-8999: outside the OS's ephemeral range, which the node tests' fixed port ranges overlap.
 */
async function freePortPair(): Promise<number> {
  const start = 8600 + Math.floor(Math.random() * 200) * 2;
  for (let i = 0; i < 200; i++) {
    const port = 8600 + ((start - 8600 + i * 2) % 400);
    if ((await isFree(port)) && (await isFree(port + 1))) return port;
  }
  throw new Error("no free port pair in 8600-8999 for bao server -dev");
}

/** Starts `bao server -dev`, the mode external-Vault tests talk to (plain HTTP, unsealed). */
export async function startOpenBaoDev(rootToken = "root-token-for-tests"): Promise<OpenBaoDev> {
  const found = findBaoBinary();
  if (!("path" in found)) throw new Error(`OpenBao not found: ${found.problem}`);
  const port = await freePortPair();
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
      const gone = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}
