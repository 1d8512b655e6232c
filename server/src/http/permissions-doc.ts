import type { RouteEntry } from "./deferred-routes.js";
import { PERMISSIONS, ROLES, type Permission } from "./permissions.js";

const mark = (yes: boolean): string => (yes ? "✓" : "—");

/** Renders docs/permissions.md from the permission table and the registered routes. */
export function renderPermissionsDoc(routes: RouteEntry[]): string {
  const lines: string[] = [
    "# Permissions",
    "",
    "Generated from `server/src/http/permissions.ts` and the registered routes by",
    "`npm run docs:permissions -w server`. A test fails when this file is stale.",
    "",
    "Roles are `admin`, `manager` and `viewer`, compared case-insensitively. Every API route declares one rule:",
    "",
    "- a permission code: the caller's role must hold it (an API key's role and its owner's role must both hold it);",
    "- `public`: no user credentials needed (the `/federation/*` routes are instead signed by a connected console, docs/federation.md);",
    "- `self`: any signed-in caller acting on their own account or inbox. The read-only demo visitor may read but not change.",
    "",
    "Viewers never mutate infrastructure. Managers operate infrastructure. Only admins manage users, choose where backups",
    "go and restore them (`BACKUP_TARGETS`, `BACKUP_RESTORE`), and define what the host runs (`HOST_COMMAND`, below).",
    "",
    "## Host commands",
    "",
    "A manager runs networks, not the machine under the console. Everything the console starts from a definition runs as",
    "the console's OS user, which can read the master key and the database, so defining a new command is admin-only",
    "(`HOST_COMMAND`), checked inside the routes below on top of their own permission:",
    "",
    "- a plugin whose processes or compose file are not a built-in catalogue entry's as published (`POST /plugins`,",
    "  `PUT /plugins/:name`); managers install, deploy, stop, resume and delete catalogue plugins, and deploy what an",
    "  admin defined;",
    "- adding a plugin registry (`config.pluginRegistries` in `POST /settings`);",
    "- a prebuilt chaincode executable (`source_type: executable`, `?type=executable`, or an upload that is a single",
    "  executable) and any `source_path` copied from the host (chaincode definitions and their source upload);",
    "- a node environment variable that can make a peer, orderer or Besu node load code (`LD_*`, `JAVA_TOOL_OPTIONS`,",
    "  `JAVA_OPTS`, `CORE_CHAINCODE_*` external builders, `PATH`, ...) or whose value names a host path (`/...`, `~`,",
    "  `..`): nodes run unsandboxed because they read their own keys (`POST /nodes`, `PUT /nodes/:id`; a value an",
    "  admin set may be sent back unchanged); the same variables in a node template (`POST /templates`,",
    "  `PUT /templates/:id`, `POST /templates/import`) and in what applying one gives (`POST /templates/:id/apply`).",
    "",
    "A refusal is a 403 naming the field, audited as a FAILURE of the route's event with `details.refused: HOST_COMMAND`.",
    "For everyone, admins included: a `source_path` inside or above the data directory, a package.json with an npm",
    "install script (`preinstall`, `install`, `postinstall`, `prepublish`, `preprepare`, `prepare`, `postprepare`,",
    "`dependencies`) or `gypfile`, and a `binding.gyp` are refused with a 400 naming them (chaincode uploads, workbench",
    "saves and restores), a node template configuration key that names a program (`binary`, `source_path`,",
    "`command`, `entrypoint`, `script`, ...; docs/templates.md), and a compose plugin refuses values with line breaks.",
    "What managers still run (chaincode code, `npm run build`, `go build`, catalogue plugins) is contained by the",
    "sandbox (ARCHITECTURE.md).",
    "",
    "## Permissions by role",
    "",
    `| permission | category | ${ROLES.join(" | ")} | what it allows |`,
    `|---|---|${ROLES.map(() => ":-:").join("|")}|---|`,
  ];
  for (const [code, def] of Object.entries(PERMISSIONS)) {
    const cells = ROLES.map((r) => mark((def.roles as readonly string[]).includes(r)));
    lines.push(`| \`${code}\` | ${def.category} | ${cells.join(" | ")} | ${def.description} |`);
  }
  lines.push(
    "",
    "## Routes",
    "",
    `| method | path | rule | ${ROLES.join(" | ")} | anonymous |`,
    `|---|---|---|${ROLES.map(() => ":-:").join("|")}|:-:|`,
  );
  const sorted = [...routes].sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
  for (const r of sorted) {
    const cells = ROLES.map((role) =>
      mark(
        r.access === "public" ||
          r.access === "self" ||
          (PERMISSIONS[r.access as Permission].roles as readonly string[]).includes(role),
      ),
    );
    lines.push(
      `| ${r.websocket ? "WS" : r.method} | \`${r.url}\` | \`${r.access}\` | ${cells.join(" | ")} | ${mark(r.access === "public")} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}
