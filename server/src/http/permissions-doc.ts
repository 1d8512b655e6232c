import type { RouteEntry } from "../app.js";
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
    "Viewers never mutate infrastructure. Managers operate infrastructure. Only admins manage users.",
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
