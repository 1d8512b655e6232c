#!/usr/bin/env node
import { writeFileSync } from "node:fs";
import { buildApp } from "./app.js";
import { ConfigError, loadConfig } from "./config/config.js";
import { errorMessage } from "./http/errors.js";
import { renderPermissionsDoc } from "./http/permissions-doc.js";

const USAGE = `usage: chainlaunch <command>

commands:
  serve                 run the console (API, websocket and web app)
  openapi [--out FILE]  print the OpenAPI document (or write it to FILE)
  permissions-doc [--out FILE]
                        print the role/route permission matrix as Markdown
`;

async function serve(): Promise<void> {
  const config = loadConfig();
  const built = await buildApp(config);
  if (built.generatedAdminPassword) {
    // Printed once, on the boot that created the first admin; it is not stored anywhere in clear.
    process.stdout.write(
      `\n  First admin created.\n    username: admin\n    password: ${built.generatedAdminPassword}\n  Change it after signing in (Account > Change password).\n\n`,
    );
  }
  const address = await built.app.listen({ port: config.port, host: config.host });
  built.app.log.info({ address, dataDir: config.dataDir, database: built.database.dialect }, "chainlaunch listening");
  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    built.app.log.info({ signal }, "shutting down");
    built
      .close()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        built.app.log.error({ err }, "shutdown failed");
        process.exit(1);
      });
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

/** Boots a throwaway app (temp SQLite, no listener) to read what the routes declare. */
async function withThrowawayApp(
  fn: (built: Awaited<ReturnType<typeof buildApp>>) => string,
  args: string[],
): Promise<void> {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const dir = mkdtempSync(join(tmpdir(), "chainlaunch-openapi-"));
  try {
    const config = {
      ...loadConfig({ ...process.env, DATABASE_URL: undefined }),
      dataDir: dir,
      logLevel: "silent" as const,
    };
    const built = await buildApp(config);
    const doc = fn(built);
    await built.close();
    const i = args.indexOf("--out");
    if (i >= 0 && args[i + 1]) writeFileSync(args[i + 1]!, doc);
    else process.stdout.write(doc);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case "serve":
      return serve();
    case "openapi":
      return withThrowawayApp((b) => JSON.stringify(b.app.swagger(), null, 2) + "\n", rest);
    case "permissions-doc":
      return withThrowawayApp((b) => renderPermissionsDoc(b.routes), rest);
    default:
      process.stderr.write(USAGE);
      process.exit(command ? 2 : 0);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`chainlaunch: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`chainlaunch: ${errorMessage(err)}\n`);
  process.exit(1);
});
