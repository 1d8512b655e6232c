import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { freePort } from "./server.js";

/** moto_server (PyPI) as a real S3 endpoint on a free loopback port; see server/src/test-support/moto.ts. */
export async function startMoto(): Promise<{
  endpoint: string;
  createBucket(name: string): Promise<void>;
  stop(): void;
}> {
  const bin = [
    process.env.CHAINLAUNCH_MOTO_SERVER,
    join(homedir(), ".cache", "chainlaunch", "moto", "bin", "moto_server"),
    ...(process.env.PATH ?? "").split(delimiter).map((d) => join(d, "moto_server")),
  ]
    .filter((c): c is string => Boolean(c))
    .find((c) => {
      try {
        accessSync(c, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
  if (!bin) throw new Error("moto_server not found: run scripts/system-deps.sh test");
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(bin, ["-H", "127.0.0.1", "-p", String(port)], { stdio: "ignore" });
  const until = Date.now() + 30_000;
  for (;;) {
    const up = await fetch(`${endpoint}/moto-api/`).then(
      (r) => r.status < 500,
      () => false,
    );
    if (up) break;
    if (Date.now() > until) {
      child.kill("SIGKILL");
      throw new Error("moto_server did not answer within 30 s");
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    endpoint,
    async createBucket(name) {
      const res = await fetch(`${endpoint}/${name}`, { method: "PUT" });
      if (!res.ok) throw new Error(`creating bucket ${name}: ${res.status}`);
    },
    stop: () => void child.kill("SIGTERM"),
  };
}
