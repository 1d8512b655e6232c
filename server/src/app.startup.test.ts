import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

/**
 * Start-up cost (issue 10, item 23): the server loads what every request needs, and nothing that
 * only some routes use. viem's client/account code (the Besu JSON-RPC and contract clients) and the
 * PostgreSQL driver load on first use. A module-resolve hook lists what importing the app loads.
 */
const HOOKS = `export async function resolve(s, c, next) {
  const r = await next(s, c);
  if (r.url.includes("/node_modules/")) process.stdout.write("LOADED " + r.url + "\\n");
  return r;
}`;
const REGISTER = `import { register } from "node:module";
register("data:text/javascript,${encodeURIComponent(HOOKS)}");`;

function modulesLoadedByApp(): Promise<string[]> {
  const app = fileURLToPath(new URL("./app.ts", import.meta.url));
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        "--import",
        "tsx",
        "--import",
        `data:text/javascript,${encodeURIComponent(REGISTER)}`,
        "-e",
        `await import(${JSON.stringify(app)})`,
      ],
      { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`${err.message}\n${stderr}`));
        resolve(
          stdout
            .split("\n")
            .filter((l) => l.startsWith("LOADED "))
            .map((l) => l.slice(7)),
        );
      },
    );
  });
}

it(
  "importing the app loads neither viem, the pg driver, an X.509 object model, nodemailer nor the PromQL grammar",
  { timeout: 90_000 },
  async () => {
    const loaded = await modulesLoadedByApp();
    expect(loaded.some((u) => u.includes("/node_modules/kysely/"))).toBe(true); // the hook sees dependencies
    // viem (~0.2 s to import) loads with the first Besu JSON-RPC or contract call; the hex, EIP-55 and
    // RLP helpers the Besu node and network code needs are our own (besu/hex.ts).
    expect(loaded.filter((u) => /\/node_modules\/viem\//.test(u))).toEqual([]);
    expect(loaded.filter((u) => /\/node_modules\/pg\//.test(u))).toEqual([]);
    // Certificates are written and read with a small DER codec (crypto/der.ts), not @peculiar/x509.
    expect(loaded.filter((u) => /\/node_modules\/(@peculiar|reflect-metadata|asn1js)\//.test(u))).toEqual([]);
    // Email and metrics queries are occasional: nodemailer loads with the first email, the PromQL
    // grammar with the first scoped query.
    expect(loaded.filter((u) => /\/node_modules\/(nodemailer|@prometheus-io|@lezer)\//.test(u))).toEqual([]);
  },
);
