import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import {
  PERMISSIONS,
  ROLE_DESCRIPTIONS,
  ROLES,
  permissionsOf,
  type Permission,
  type Role,
} from "../../http/permissions.js";

const tags = ["Permissions"];

const permissionInfo = lazySchema(() =>
  z
    .object({
      code: z.string().describe("Permission code"),
      name: z.string().describe("Short name"),
      category: z.string().describe("Area"),
      description: z.string().describe("What it allows"),
    })
    .describe("A permission")
    .meta({ id: "PermissionInfo" }),
);

const roleInfo = lazySchema(() =>
  z
    .object({
      role: z.enum(ROLES).describe("Role"),
      name: z.string().describe("Display name"),
      description: z.string().describe("What the role is for"),
      permissions: z.array(permissionInfo).describe("Permissions the role holds"),
    })
    .describe("A role and its permissions")
    .meta({ id: "RoleInfo" }),
);

function info(code: Permission) {
  const p = PERMISSIONS[code];
  return { code, name: p.name, category: p.category, description: p.description };
}

function roles() {
  return ROLES.map((role: Role) => ({
    role,
    name: role.charAt(0).toUpperCase() + role.slice(1),
    description: ROLE_DESCRIPTIONS[role],
    permissions: permissionsOf(role).map(info),
  }));
}

/** The permission table, served without credentials so clients can render role-aware screens. */
export function registerSystemRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/roles",
    {
      config: { access: "public" },
      schema: {
        operationId: "listRoles",
        tags,
        summary: "Roles and their permissions",
        response: { 200: lazySchema(() => z.array(roleInfo)) },
      },
    },
    async () => roles(),
  );
  r.get(
    "/permissions",
    {
      config: { access: "public" },
      schema: {
        operationId: "listPermissions",
        tags,
        summary: "Every permission, and the roles that hold them",
        response: {
          200: lazySchema(() =>
            z.object({
              permissions: z.array(permissionInfo).describe("All permissions"),
              roles: z.array(roleInfo).describe("All roles"),
            }),
          ),
        },
      },
    },
    async () => ({ permissions: (Object.keys(PERMISSIONS) as Permission[]).map(info), roles: roles() }),
  );
}
