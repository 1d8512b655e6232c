import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { decryptEnvelopeToString, parseMasterKey } from "../../crypto/envelope.js";
import {
  fabricApi,
  Fatal,
  haveFabricBinaries,
  waitFor,
  type FabricApi,
  type Json,
} from "../../test-support/fabric-api.js";
import { startMoto, type Moto } from "../../test-support/moto.js";
import { freePort } from "../../test-support/ports.js";
import { processesUnder } from "../../test-support/processes.js";
import { ADMIN_PASSWORD } from "../../test-support/test-app.js";

const run = promisify(execFile);
const serverDir = resolve(import.meta.dirname, "../../..");
const bins = await haveFabricBinaries("backup restore e2e");

/** Every regular file under a directory. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [],
  );
}

/** Every private key in a console's SQLite database, decrypted with its master key file. */
function privateKeys(dbFile: string, masterKeyFile: string): Map<number, string> {
  const key = parseMasterKey(readFileSync(masterKeyFile, "utf8"));
  const db = new SQLite(dbFile, { readonly: true });
  try {
    const rows = db
      .prepare(
        "SELECT id, provider_id, private_key_encrypted FROM keys WHERE private_key_encrypted IS NOT NULL ORDER BY id",
      )
      .all() as Array<{ id: number; provider_id: number; private_key_encrypted: string }>;
    return new Map(
      rows.map((r) => [
        r.id,
        decryptEnvelopeToString(key, r.private_key_encrypted, `chainlaunch:key-provider:${r.provider_id}`),
      ]),
    );
  } finally {
    db.close();
  }
}

let harness: FabricApi | undefined;
let moto: Moto | undefined;
let restored: { server?: ChildProcess; dir: string } | undefined;
afterAll(async () => {
  await harness?.close();
  if (restored) {
    restored.server?.kill("SIGTERM");
    for (const pid of processesUnder(join(restored.dir, "data"))) process.kill(pid, "SIGKILL");
    rmSync(restored.dir, { recursive: true, force: true });
  }
  moto?.stop();
});

describe("backup and restore of a console with a running channel", () => {
  it.skipIf(!bins)(
    "backs up to S3, restores with the CLI into a new data directory, and the restored console and nodes come back",
    { timeout: 600_000 },
    async () => {
      moto = await startMoto();
      await moto.createBucket("drill");
      const h = await fabricApi();
      harness = h;
      // Two orgs, one node each, on a channel at height >= 2 (block 0 and an anchor-peer config block).
      const { peer, orderer, net } = await h.peerOrdererChannel({
        code: "Bk",
        prefix: "bk",
        channel: "bkchannel",
      });
      const height = await waitFor(
        "both nodes at the same height >= 2",
        async () => {
          const map = await h.ok("GET", `/networks/fabric/${net.id}/map`);
          const hs = (map.nodes as Json[]).map((n) => n.height as number);
          return hs.length === 2 && hs[0] === hs[1] && (hs[0] as number) >= 2 ? hs[0] : undefined;
        },
        60_000,
      );

      // The admin's recovery key: shown once, it is what unwraps the master key at the restore.
      const { recoveryKey } = await h.ok("POST", "/backups/recovery-key", {});
      const target = await h.ok("POST", "/backups/targets", {
        name: "drill",
        type: "S3",
        endpoint: moto.endpoint,
        region: "us-east-1",
        bucketName: "drill",
        bucketPath: "console",
        accessKeyId: "AKIDRESTORE",
        secretKey: "restore-secret",
        resticPassword: "restore-password",
        forcePathStyle: true,
      });
      const started = await h.ok("POST", "/backups", { targetId: target.id });
      const backup = await waitFor(
        "the backup",
        async () => {
          const b = await h.ok("GET", `/backups/${started.id}`);
          if (b.status === "failed") throw new Fatal(b.errorMessage);
          return b.status === "completed" ? b : undefined;
        },
        180_000,
      );
      // Both nodes were paused while their folders were copied, and run on.
      expect(backup.metadata.backup.nodes.map((n: Json) => n.paused)).toEqual([true, true]);
      expect((await h.ok("GET", `/nodes/${peer.id}`)).status).toBe("RUNNING");
      // The snapshot of a console with organizations, nodes and a channel holds its master key nowhere in
      // clear (raw, base64, base64url or hex), only wrapped under the recovery key.
      const master = parseMasterKey(readFileSync(join(h.t.config.dataDir, "master.key"), "utf8"));
      const peek = mkdtempSync(join(tmpdir(), "chainlaunch-peek-"));
      try {
        await run(
          "restic",
          [
            "-r",
            "s3:" + moto.endpoint + "/drill/console",
            "-o",
            "s3.bucket-lookup=path",
            "restore",
            backup.snapshotId,
            "--target",
            peek,
          ],
          {
            env: {
              ...process.env,
              RESTIC_PASSWORD: "restore-password",
              AWS_ACCESS_KEY_ID: "AKIDRESTORE",
              AWS_SECRET_ACCESS_KEY: "restore-secret",
              AWS_DEFAULT_REGION: "us-east-1",
            },
          },
        );
        const forms = ["base64", "base64url", "hex"].map((e) => Buffer.from(master.toString(e as BufferEncoding)));
        const holding = filesUnder(peek).filter((f) => {
          const bytes = readFileSync(f);
          return [master, ...forms].some((form) => bytes.includes(form));
        });
        expect(filesUnder(peek).length).toBeGreaterThan(50);
        expect(holding).toEqual([]);
      } finally {
        rmSync(peek, { recursive: true, force: true });
      }

      const before = {
        users: (await h.ok("GET", "/users")).map((u: Json) => [u.id, u.username, u.role]),
        orgs: (await h.ok("GET", "/organizations")).items.map((o: Json) => [o.id, o.mspId, o.signKeyId, o.tlsKeyId]),
        keys: (await h.ok("GET", "/keys?pageSize=1000")).items.map((k: Json) => [k.id, k.name, k.publicKey]),
        networks: (await h.ok("GET", "/networks/fabric")).networks.map((n: Json) => [n.id, n.name]),
        nodes: (await h.ok("GET", "/nodes")).items.map((n: Json) => [n.id, n.name, n.endpoint]),
      };
      const keysBefore = privateKeys(
        join(h.t.config.dataDir, "chainlaunch.db"),
        join(h.t.config.dataDir, "master.key"),
      );
      expect(keysBefore.size).toBeGreaterThan(5);

      // The machine is lost: nodes stopped, console closed, its data directory deleted.
      await h.stopNodes([peer, orderer]);
      await h.close();
      harness = undefined;

      // Restore with the CLI into a fresh data directory.
      const root = mkdtempSync(join(tmpdir(), "chainlaunch-restored-"));
      restored = { dir: root };
      const dataDir = join(root, "data");
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        RESTIC_PASSWORD: "restore-password",
        AWS_ACCESS_KEY_ID: "AKIDRESTORE",
        AWS_SECRET_ACCESS_KEY: "restore-secret",
        AWS_DEFAULT_REGION: "us-east-1",
      };
      // The recovery key comes from a file (--recovery-key-file), as an operator keeps it.
      const recoveryFile = join(root, "recovery.key");
      writeFileSync(recoveryFile, `${recoveryKey}\n`, { mode: 0o600 });
      // The restored console runs on the snapshot's SQLite file and the master key file the recovery key unwrapped.
      for (const name of ["DATABASE_URL", "CHAINLAUNCH_MASTER_KEY", "CHAINLAUNCH_ADMIN_PASSWORD"]) delete env[name];
      const cli = (args: string[]) =>
        run(process.execPath, ["--import", "tsx", "src/main.ts", "backup", ...args], { cwd: serverDir, env });
      const repo = `s3:${moto.endpoint}/drill/console`;
      const listed = await cli(["snapshots", "--target", repo, "--path-style"]);
      expect(listed.stdout).toContain(backup.snapshotId);
      const out = await cli([
        "restore",
        "--target",
        repo,
        "--snapshot",
        backup.snapshotId,
        "--data-dir",
        dataDir,
        "--path-style",
        "--recovery-key-file",
        recoveryFile,
      ]);
      expect(out.stdout).toContain("checked");
      expect(out.stdout).toContain("unwrapped with the recovery key");
      expect(out.stdout).toMatch(/restored backup \d+ .*2 node\(s\)/);
      // Not into a directory that has something in it.
      await expect(
        cli(["restore", "--target", repo, "--snapshot", backup.snapshotId, "--data-dir", dataDir, "--path-style"]),
      ).rejects.toThrow(/not empty/);

      const keysAfter = privateKeys(join(dataDir, "chainlaunch.db"), join(dataDir, "master.key"));
      expect([...keysAfter.entries()]).toEqual([...keysBefore.entries()]);

      // `chainlaunch serve` on the restored data, on another port.
      const port = await freePort();
      const server = spawn(process.execPath, ["--import", "tsx", "src/main.ts", "serve"], {
        cwd: serverDir,
        env: {
          ...env,
          CHAINLAUNCH_DATA: dataDir,
          PORT: String(port),
          HOST: "127.0.0.1",
          LOG_LEVEL: "warn",
          CHAINLAUNCH_FABRIC_DOWNLOAD: "0",
        },
        stdio: ["ignore", "ignore", "pipe"],
      });
      restored.server = server;
      let stderr = "";
      server.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
      const auth = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString("base64")}`;
      const get = async (path: string): Promise<Json> => {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, { headers: { authorization: auth } });
        if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
        return res.json();
      };
      await waitFor(
        "the restored console",
        async () => {
          if (server.exitCode !== null) throw new Fatal(`serve exited ${server.exitCode}: ${stderr}`);
          return (await get("/users")) as unknown;
        },
        60_000,
      );
      const after = {
        users: (await get("/users")).map((u: Json) => [u.id, u.username, u.role]),
        orgs: (await get("/organizations")).items.map((o: Json) => [o.id, o.mspId, o.signKeyId, o.tlsKeyId]),
        keys: (await get("/keys?pageSize=1000")).items.map((k: Json) => [k.id, k.name, k.publicKey]),
        networks: (await get("/networks/fabric")).networks.map((n: Json) => [n.id, n.name]),
        nodes: (await get("/nodes")).items.map((n: Json) => [n.id, n.name, n.endpoint]),
      };
      expect(after).toEqual(before);
      // The backup that made this snapshot shows as completed on the restored console.
      expect((await get(`/backups/${backup.id}`)).status).toBe("completed");

      // The restored nodes start (their processes run from the new data directory) and the peer
      // reaches the channel's height.
      await waitFor(
        "restored nodes RUNNING",
        async () => {
          const nodes = (await get("/nodes")).items as Json[];
          const bad = nodes.find((n) => n.status === "ERROR");
          if (bad) throw new Fatal(`${bad.name}: ${bad.errorMessage}`);
          return nodes.every((n) => n.status === "RUNNING") ? true : undefined;
        },
        120_000,
      );
      expect(processesUnder(join(dataDir, "nodes")).length).toBeGreaterThanOrEqual(2);
      const map = await waitFor(
        "the restored peer at the channel's height",
        async () => {
          const m = await get(`/networks/fabric/${net.id}/map`);
          return (m.nodes as Json[]).every((n) => n.healthy && n.height >= height) ? m : undefined;
        },
        120_000,
      );
      expect((map.nodes as Json[]).map((n) => n.height)).toEqual([height, height]);
    },
  );
});
