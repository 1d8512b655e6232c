import { z } from "zod";
import { idPathParams, lazySchema } from "../../http/schema-helpers.js";
import { ROLES, parseRole } from "../../http/permissions.js";

/** A role in any letter case, normalised to lowercase. */
export const roleInput = lazySchema(() =>
  z
    .string()
    .max(16)
    .refine((v) => parseRole(v) !== undefined, { message: `must be one of ${ROLES.join(", ")}` })
    .transform((v) => parseRole(v)!)
    .describe("Role: admin, manager or viewer (any letter case)"),
);

export const usernameInput = lazySchema(() =>
  z
    .string()
    .min(3)
    .max(64)
    .regex(/^[A-Za-z0-9_.@-]+$/, "may contain only letters, digits and _ . @ -")
    .describe("Login name, 3-64 characters"),
);

export const passwordInput = lazySchema(() => z.string().min(8).max(256).describe("Password, at least 8 characters"));

/** The wire form of a role. */
export const roleEnum = lazySchema(() => z.enum(ROLES).describe("Role: admin, manager or viewer").meta({ id: "Role" }));

export const userResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("User id (0 for the demo visitor)"),
      username: z.string().describe("Login name"),
      role: roleEnum,
      created_at: z.string().describe("Creation time, RFC 3339"),
      last_login_at: z.string().nullable().describe("Last successful login, RFC 3339"),
      demo_mode: z.boolean().describe("True for the read-only demo visitor"),
    })
    .describe("A user")
    .meta({ id: "User" }),
);
export type UserResponse = z.infer<typeof userResponse>;

export const createUserBody = lazySchema(() =>
  z.object({ username: usernameInput, password: passwordInput, role: roleInput }).strict().describe("New user"),
);

export const updateUserBody = lazySchema(() =>
  z.object({ username: usernameInput.optional(), role: roleInput.optional() }).strict().describe("Fields to change"),
);

/**
 * PUT /users/{id}/role. Upstream documents its UpdateUserRequest here but reads only `role`; a
 * `username` sent along is an unknown field (dropped with a Warning header, refused in Strict mode).
 */
export const updateRoleBody = lazySchema(() => z.object({ role: roleInput }).strict().describe("The user's new role"));

export const resetPasswordBody = lazySchema(() =>
  z
    .object({
      new_password: passwordInput,
      current_password: z.string().max(256).optional().describe("Ignored for admins"),
    })
    .strict()
    .describe("New password for the user"),
);

export const idParams = idPathParams("Id");
