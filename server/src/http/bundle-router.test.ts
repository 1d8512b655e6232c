import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

// The server's bundle patches find-my-way so that it compiles its small per-node and per-route functions
// on first use instead of as each route is added (scripts/bundle-plugins.mjs, for start-up time). This
// compares the patched router with the installed one on the same routes and requests.

type Handler = (...args: unknown[]) => void;
interface Found {
  handler: Handler;
  params: Record<string, string | undefined>;
  store: unknown;
}
interface Router {
  on(method: string | string[], path: string, opts: object, handler: Handler, store?: unknown): void;
  find(method: string, path: string, constraints?: Record<string, string>): Found | null;
  prettyPrint(opts: object): string;
}
type RouterFactory = (opts?: object) => Router;
interface Plugins {
  routerCompilingOnUse(path: string, source: string): string;
}

const require = createRequire(import.meta.url);
const installed = dirname(require.resolve("find-my-way/package.json"));
const scripts = join(dirname(fileURLToPath(import.meta.url)), "../../scripts/bundle-plugins.mjs");
// Beside the installed copy, so the patched one resolves the same dependencies.
const copyDir = mkdtempSync(join(dirname(installed), ".find-my-way-patched-"));
afterAll(() => rmSync(copyDir, { recursive: true, force: true }));

async function patchedRouter(): Promise<RouterFactory> {
  const plugins = (await import(pathToFileURL(scripts).href)) as Plugins;
  cpSync(installed, copyDir, { recursive: true });
  for (const file of ["lib/node.js", "lib/handler-storage.js"]) {
    const path = join(copyDir, file);
    const patched = plugins.routerCompilingOnUse(path, readFileSync(path, "utf8"));
    expect(patched).not.toBe(readFileSync(path, "utf8"));
    writeFileSync(path, patched);
  }
  return require(copyDir) as RouterFactory;
}

// Shapes the console's routes have: shared prefixes that split nodes, parameters (more than four, which
// take the extra-params path), regular-expression parameters, wildcards, several methods on one path, and
// version and host constraints.
const ROUTES: [string[], string, object?][] = [
  [["GET", "HEAD"], "/healthz"],
  [["GET", "HEAD"], "/api/v1/organizations"],
  [["POST"], "/api/v1/organizations"],
  [["GET", "HEAD", "PUT", "DELETE"], "/api/v1/organizations/:id"],
  [["GET", "HEAD"], "/api/v1/organizations/by-mspid/:mspid"],
  [["GET", "HEAD"], "/api/v1/organizations/:id/keys"],
  [["POST"], "/api/v1/organizations/:id/keys/:keyId/renew"],
  [["GET", "HEAD"], "/api/v1/org"],
  [["GET", "HEAD"], "/api/v1/orgs-archive"],
  [["GET", "HEAD"], "/api/v1/nodes"],
  [["GET", "HEAD"], "/api/v1/nodes/defaults/fabric-peer"],
  [["GET", "HEAD"], "/api/v1/nodes/defaults/fabric-orderer"],
  [["GET", "HEAD"], "/api/v1/nodes/:id"],
  [["GET", "HEAD"], "/api/v1/nodes/:id/logs"],
  [["POST"], "/api/v1/nodes/:id/start"],
  [["POST"], "/api/v1/nodes/:id/stop"],
  [["GET", "HEAD"], "/api/v1/networks/fabric/:id/channels/:channel/blocks/:number"],
  [["GET", "HEAD"], "/api/v1/a/:p1/b/:p2/c/:p3/d/:p4/e/:p5/f/:p6"],
  [["GET", "HEAD"], "/api/v1/keys/:id(^\\d+)"],
  [["GET", "HEAD"], "/api/v1/keys/by-name/:name"],
  [["GET", "HEAD"], "/api/v1/files/:name.:ext"],
  [["GET", "HEAD"], "/api/v1/projects/:id/files/*"],
  [["GET", "HEAD"], "/*"],
  [["GET"], "/api/v1/versioned", { constraints: { version: "1.2.0" } }],
  [["GET"], "/api/v1/versioned", { constraints: { version: "2.0.0" } }],
  [["GET"], "/api/v1/hosted", { constraints: { host: "console.example" } }],
  [["GET"], "/api/v1/hosted"],
];

const PATHS = [
  "/healthz",
  "/healthz/",
  "/healthzz",
  "/api/v1/organizations",
  "/api/v1/organizations/",
  "/api/v1/organizations/42",
  "/api/v1/organizations/by-mspid/Org1MSP",
  "/api/v1/organizations/by-mspid",
  "/api/v1/organizations/7/keys",
  "/api/v1/organizations/7/keys/9/renew",
  "/api/v1/organizations/7/keys/9/renewal",
  "/api/v1/org",
  "/api/v1/orgs-archive",
  "/api/v1/orgs",
  "/api/v1/Organizations",
  "/api/v1/nodes",
  "/api/v1/nodes/defaults/fabric-peer",
  "/api/v1/nodes/defaults/fabric-orderer",
  "/api/v1/nodes/defaults/besu",
  "/api/v1/nodes/12",
  "/api/v1/nodes/12/logs",
  "/api/v1/nodes/12/start",
  "/api/v1/nodes/12/stop",
  "/api/v1/networks/fabric/3/channels/mychannel/blocks/17",
  "/api/v1/networks/fabric/3/channels/mychannel/blocks",
  "/api/v1/a/1/b/2/c/3/d/4/e/5/f/6",
  "/api/v1/a/1/b/2/c/3/d/4/e/5/f",
  "/api/v1/keys/123",
  "/api/v1/keys/abc",
  "/api/v1/keys/by-name/tls",
  "/api/v1/files/report.json",
  "/api/v1/projects/5/files/src/index.js",
  "/api/v1/projects/5/files/",
  "/api/v1/versioned",
  "/api/v1/hosted",
  "/assets/index-abc.js",
  "/",
  "",
  "/api/v1/organizations%2F42",
  "/api/v1/nodes/%E2%9C%93",
  "/api/v1/organizations/42?limit=10",
];

// Each path again with one character changed, and cut short at each position: near misses that a prefix
// test must refuse.
const NEAR_MISSES = PATHS.flatMap((path) =>
  [...path].flatMap((c, i) => [path.slice(0, i) + (c === "x" ? "y" : "x") + path.slice(i + 1), path.slice(0, i)]),
);

describe("the bundle's find-my-way, compiling on first use", () => {
  it("finds the same handler and params as the installed one for every request", async () => {
    const Patched = await patchedRouter();
    const Installed = require("find-my-way") as RouterFactory;
    const handlers = new Map<string, Handler>();
    const build = (factory: RouterFactory) => {
      const router = factory({ ignoreTrailingSlash: false, caseSensitive: true });
      ROUTES.forEach(([methods, path, opts], i) => {
        const handler = handlers.get(String(i)) ?? (() => undefined);
        handlers.set(String(i), handler);
        router.on(methods, path, opts ?? {}, handler, { route: i });
      });
      return router;
    };
    const before = build(Installed);
    const after = build(Patched);
    // The same trees: route insertion is where the patched prefix test runs.
    for (const method of ["GET", "HEAD", "POST", "PUT", "DELETE"]) {
      expect(after.prettyPrint({ method, commonPrefix: false, includeMeta: ["route"] })).toBe(
        before.prettyPrint({ method, commonPrefix: false, includeMeta: ["route"] }),
      );
    }
    const constraintSets: (Record<string, string> | undefined)[] = [
      undefined,
      { version: "1.x" },
      { version: "2.0.0" },
      { host: "console.example" },
      { host: "other.example" },
    ];
    let compared = 0;
    // Several rounds: the patched router compiles a route's params and constraints functions on its first
    // lookup; before and after, it must agree with the installed router.
    for (let round = 0; round < 8; round++) {
      for (const method of ["GET", "HEAD", "POST", "PUT", "DELETE"]) {
        for (const path of [...PATHS, ...NEAR_MISSES]) {
          for (const constraints of constraintSets) {
            const a = before.find(method, path, constraints);
            const b = after.find(method, path, constraints);
            expect({ method, path, constraints, found: b && { store: b.store, params: { ...b.params } } }).toEqual({
              method,
              path,
              constraints,
              found: a && { store: a.store, params: { ...a.params } },
            });
            if (a) expect(b?.handler).toBe(a.handler);
            compared++;
          }
        }
      }
    }
    expect(compared).toBe(8 * 5 * (PATHS.length + NEAR_MISSES.length) * constraintSets.length);
  });
});
