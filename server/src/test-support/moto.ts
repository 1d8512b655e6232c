import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { MOTO_KMS_DIGEST_LAUNCHER } from "./moto-kms-digest.js";
import { freePort } from "./ports.js";

/**
 * A real S3 endpoint for tests: moto_server (PyPI) on a free loopback port. Found through
 * CHAINLAUNCH_MOTO_SERVER, the venv scripts/system-deps.sh creates, or PATH.
 */
export interface Moto {
  endpoint: string;
  port: number;
  createBucket(name: string): Promise<void>;
  /** Object keys under a prefix (ListObjectsV2, first 1000). */
  list(bucket: string, prefix: string): Promise<string[]>;
  put(bucket: string, key: string, body: Buffer): Promise<void>;
  stop(): void;
}

export function findMotoServer(): string | undefined {
  const candidates = [
    process.env.CHAINLAUNCH_MOTO_SERVER,
    join(homedir(), ".cache", "chainlaunch", "moto", "bin", "moto_server"),
    ...(process.env.PATH ?? "").split(delimiter).map((d) => join(d, "moto_server")),
  ].filter((c): c is string => Boolean(c));
  for (const c of candidates) {
    try {
      accessSync(c, constants.X_OK);
      return c;
    } catch {
      // next
    }
  }
  return undefined;
}

/** The Python that runs moto_server (next to it in a venv, else python3 on PATH). */
function motoPython(bin: string): string {
  return [join(dirname(bin), "python3"), join(dirname(bin), "python"), "python3"].find((p) => {
    try {
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return p === "python3";
    }
  }) as string;
}

/**
 * Starts moto_server. With `kmsDigest`, through a launcher that makes KMS Sign honour
 * MessageType=DIGEST as AWS does (see moto-kms-digest.ts). With `enforceAuth`, moto checks signatures and IAM after the first `freeActions`
 * requests (its INITIAL_NO_AUTH_ACTION_COUNT), which lets a test set up a user and then see bad
 * credentials refused.
 */
export async function startMoto(
  opts: { enforceAuth?: boolean; freeActions?: number; kmsDigest?: boolean } = {},
): Promise<Moto> {
  const bin = findMotoServer();
  if (!bin) throw new Error("moto_server not found: run scripts/system-deps.sh test (or pip install 'moto[server]')");
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const args = ["-H", "127.0.0.1", "-p", String(port)];
  const [cmd, argv] = opts.kmsDigest ? [motoPython(bin), ["-c", MOTO_KMS_DIGEST_LAUNCHER, ...args]] : [bin, args];
  const child: ChildProcess = spawn(cmd, argv, {
    stdio: "ignore",
    env: {
      ...process.env,
      ...(opts.enforceAuth ? { INITIAL_NO_AUTH_ACTION_COUNT: String(opts.freeActions ?? 10) } : {}),
    },
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(`${endpoint}/moto-api/`);
      if (res.status < 500) break;
    } catch {
      // not up yet
    }
    if (child.exitCode !== null) throw new Error(`moto_server exited with ${child.exitCode}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error("moto_server did not answer within 30 s");
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    endpoint,
    port,
    async createBucket(name) {
      const res = await fetch(`${endpoint}/${name}`, { method: "PUT" });
      if (!res.ok) throw new Error(`creating bucket ${name}: ${res.status} ${await res.text()}`);
    },
    async list(bucket, prefix) {
      const res = await fetch(`${endpoint}/${bucket}?list-type=2&prefix=${encodeURIComponent(prefix)}`);
      const xml = await res.text();
      return [...xml.matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1] as string);
    },
    async put(bucket, key, body) {
      // A signed overwrite (moto refuses unsigned writes over objects a signed client made), through
      // boto3 from moto's own Python.
      const python = motoPython(bin);
      const script =
        "import boto3,sys;boto3.client('s3',endpoint_url=sys.argv[1],region_name='us-east-1'," +
        "aws_access_key_id='test',aws_secret_access_key='test').put_object(Bucket=sys.argv[2],Key=sys.argv[3],Body=sys.stdin.buffer.read())";
      execFileSync(python, ["-c", script, endpoint, bucket, key], { input: body });
    },
    stop() {
      child.kill("SIGTERM");
    },
  };
}
