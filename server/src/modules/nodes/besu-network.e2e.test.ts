import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp, type BuiltApp } from "../../app.js";
import { loadConfig } from "../../config/config.js";
import { createBesuBinaryResolver } from "./besu-binary.js";

/**
 * A real QBFT network: 4 validators created in one flow, blocks produced, a validator added by
 * vote. Runs only where a `besu` launcher and a Java 21+ runtime exist (not on our CI machines:
 * Besu is not obtainable from the registries we reach, see shared/notes/besu.md); otherwise it is
 * skipped with the resolver's reason.
 */
const why = await createBesuBinaryResolver({ configured: process.env.CHAINLAUNCH_BESU_BIN })
  .resolve()
  .then(() => "")
  .catch((err: unknown) => (err instanceof Error ? err.message : String(err)));
if (why) console.warn(`Besu network e2e skipped: ${why}`);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe("a QBFT network on real Besu nodes", () => {
  let built: BuiltApp | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), "cl-besu-e2e-"));
  afterAll(async () => {
    await built?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.skipIf(!!why)(
    "creates 4 validators, produces blocks and adds a validator by vote",
    { timeout: 600_000 },
    async () => {
      built = await buildApp({
        ...loadConfig({
          CHAINLAUNCH_ADMIN_PASSWORD: "admin-password-1",
          LOG_LEVEL: "silent",
          ...(process.env.CHAINLAUNCH_BESU_BIN ? { CHAINLAUNCH_BESU_BIN: process.env.CHAINLAUNCH_BESU_BIN } : {}),
        }),
        dataDir,
        databaseUrl: undefined,
      });
      const headers = { authorization: `Basic ${Buffer.from("admin:admin-password-1").toString("base64")}` };
      const call = async (method: "GET" | "POST" | "DELETE", url: string, payload?: object): Promise<Json> => {
        const res = await built!.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
        if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
        return res.body ? res.json() : undefined;
      };
      const until = async <T>(what: string, fn: () => Promise<T | undefined>, ms = 180_000): Promise<T> => {
        const end = Date.now() + ms;
        for (;;) {
          const v = await fn().catch(() => undefined);
          if (v !== undefined) return v;
          if (Date.now() > end) throw new Error(`timed out: ${what}`);
          await new Promise((r) => setTimeout(r, 1000));
        }
      };
      const { nodes } = await call("POST", "/networks/besu/bulk-create", {
        networkName: "qbft-e2e",
        nodeCount: 4,
        config: { chainId: 24_680, blockPeriod: 1, requestTimeout: 4 },
        start: true,
      });
      try {
        for (const n of nodes)
          await until(`${n.name} RUNNING`, async () =>
            (await call("GET", `/nodes/${n.id}`)).status === "RUNNING" ? true : undefined,
          );
        await until("block 2", async () =>
          BigInt(await call("GET", `/nodes/${nodes[0].id}/rpc/block-number`)) >= 2n ? true : undefined,
        );
        const validators: string[] = await call(
          "GET",
          `/nodes/${nodes[0].id}/rpc/qbft-validators-by-block-number?blockNumber=latest`,
        );
        expect(validators).toHaveLength(4);

        const newcomer = (await call("POST", "/keys", { name: "newcomer", algorithm: "EC", curve: "secp256k1" }))
          .ethereumAddress;
        for (const n of nodes.slice(0, 3)) {
          expect(
            await call("POST", `/nodes/${n.id}/rpc/qbft-propose-validator-vote`, {
              validatorAddress: newcomer,
              vote: true,
            }),
          ).toBe(true);
        }
        const pending = await call("GET", `/nodes/${nodes[0].id}/rpc/qbft-pending-votes`);
        expect(Object.keys(pending).map((a) => a.toLowerCase())).toContain(newcomer.toLowerCase());
        await until("the newcomer becomes a validator", async () => {
          const v: string[] = await call(
            "GET",
            `/nodes/${nodes[0].id}/rpc/qbft-validators-by-block-number?blockNumber=latest`,
          );
          return v.map((a) => a.toLowerCase()).includes(newcomer.toLowerCase()) ? true : undefined;
        });
        for (const n of nodes)
          await call("POST", `/nodes/${n.id}/rpc/qbft-discard-validator-vote`, { validatorAddress: newcomer });
      } finally {
        for (const n of nodes) await call("POST", `/nodes/${n.id}/stop`).catch(() => undefined);
      }
    },
  );
});
