#!/usr/bin/env node
import { writeFileSync } from "node:fs";
import { buildApp } from "./app.js";
import { startupMark, startupTraceLine, startupTraceOn } from "./startup-trace.js";
import { ConfigError, loadConfig } from "./config/config.js";
import { errorMessage } from "./http/errors.js";
import { renderPermissionsDoc } from "./http/permissions-doc.js";

const USAGE = `usage: chainlaunch <command>

commands:
  serve                 run the console (API, websocket and web app)
  openapi [--out FILE]  print the OpenAPI document (or write it to FILE)
  permissions-doc [--out FILE]
                        print the role/route permission matrix as Markdown
  backup restore --target REPO --snapshot ID|latest --data-dir DIR [--password-file F]
                 [--recovery-key-file F] [--path-style]
                        restore a backup into an empty data directory (then: CHAINLAUNCH_DATA=DIR chainlaunch serve)
  backup snapshots --target REPO [--password-file F] [--path-style]
                        list the ChainLaunch snapshots in a repository

  REPO is s3:<endpoint>/<bucket>/<path> or a directory. The repository password comes from
  RESTIC_PASSWORD or --password-file; S3 credentials from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and
  AWS_DEFAULT_REGION. Snapshots hold the master key wrapped under the backup recovery key: give it in
  CHAINLAUNCH_RECOVERY_KEY or --recovery-key-file (or set CHAINLAUNCH_MASTER_KEY to the master key
  itself). A PostgreSQL backup needs DATABASE_URL pointing at an empty database.
`;

/** `--name value` and `--flag` options of a CLI command. */
function parseOptions(args: string[], flags: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (!a.startsWith("--")) throw new CliError(`unexpected argument '${a}'`);
    const eq = a.indexOf("=");
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    if (flags.includes(name)) {
      out[name] = "true";
      continue;
    }
    const value = eq > 0 ? a.slice(eq + 1) : args[++i];
    if (value === undefined) throw new CliError(`--${name} needs a value`);
    out[name] = value;
  }
  return out;
}

class CliError extends Error {}

async function backupCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  const { restoreBackup, listSnapshots, RestoreError, restoreSummary, startCommand } =
    await import("./modules/backups/restore.js");
  const { readFileSync } = await import("node:fs");
  const o = parseOptions(rest, ["path-style"]);
  const need = (name: string): string => {
    if (!o[name]) throw new CliError(`--${name} is required`);
    return o[name];
  };
  const password = o["password-file"]
    ? readFileSync(o["password-file"], "utf8").trim()
    : (process.env.RESTIC_PASSWORD ?? "");
  const common = {
    target: need("target"),
    password,
    accessKeyId: process.env.AWS_ACCESS_KEY_ID,
    secretKey: process.env.AWS_SECRET_ACCESS_KEY,
    region: process.env.AWS_DEFAULT_REGION ?? process.env.AWS_REGION,
    pathStyle: o["path-style"] === "true",
  };
  try {
    if (sub === "snapshots") {
      for (const s of await listSnapshots({ ...common, snapshot: "", dataDir: "" })) {
        process.stdout.write(`${s.id}  ${s.time}  ${s.tags.join(",")}\n`);
      }
      return;
    }
    if (sub !== "restore") throw new CliError(`unknown backup command '${sub ?? ""}' (restore or snapshots)`);
    const dataDir = need("data-dir");
    const result = await restoreBackup({
      ...common,
      snapshot: need("snapshot"),
      dataDir,
      masterKey: process.env.CHAINLAUNCH_MASTER_KEY,
      recoveryKey: o["recovery-key-file"]
        ? readFileSync(o["recovery-key-file"], "utf8").trim()
        : process.env.CHAINLAUNCH_RECOVERY_KEY,
      databaseUrl: process.env.DATABASE_URL,
      log: (line) => process.stdout.write(`${line}\n`),
    });
    process.stdout.write(`${restoreSummary(result)}\nstart it with: ${startCommand(dataDir, result)}\n`);
  } catch (err) {
    if (err instanceof RestoreError) throw new CliError(err.message);
    throw err;
  }
}

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
  startupMark("listening");
  if (startupTraceOn) process.stderr.write(startupTraceLine());
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
  fn: (built: Awaited<ReturnType<typeof buildApp>>) => string | Promise<string>,
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
    const doc = await fn(built);
    await built.close();
    const i = args.indexOf("--out");
    if (i >= 0 && args[i + 1]) writeFileSync(args[i + 1]!, doc);
    else process.stdout.write(doc);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(argv: string[]): Promise<void> {
  startupMark("modules");
  const [command, ...rest] = argv;
  switch (command) {
    case "serve":
      return serve();
    case "openapi":
      return withThrowawayApp(async (b) => JSON.stringify(await b.openapi(), null, 2) + "\n", rest);
    case "permissions-doc":
      return withThrowawayApp((b) => renderPermissionsDoc(b.routes), rest);
    case "backup":
      return backupCommand(rest);
    default:
      process.stderr.write(USAGE);
      process.exit(command ? 2 : 0);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof CliError) {
    process.stderr.write(`chainlaunch: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`chainlaunch: ${errorMessage(err)}\n`);
  process.exit(1);
});
