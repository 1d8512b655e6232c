import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import {
  createUserBody,
  idParams,
  resetPasswordBody,
  updateRoleBody,
  updateUserBody,
  userResponse,
} from "./users.schema.js";
import type { UsersService } from "./users.service.js";

const tags = ["Users"];

/** User management. Only admins change users; admins and viewers may read them. */
export function registerUsersRoutes(app: FastifyInstance, users: UsersService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/users",
    {
      config: { access: "USER_READ" },
      schema: {
        operationId: "listUsers",
        tags,
        summary: "List users",
        response: { 200: lazySchema(() => z.array(userResponse)) },
      },
    },
    async () => users.list(),
  );

  r.post(
    "/users",
    {
      config: { access: "USER_CREATE", audit: "user.create" },
      schema: {
        operationId: "createUser",
        tags,
        summary: "Create a user",
        body: createUserBody,
        response: { 201: userResponse },
      },
    },
    async (req, reply) => {
      req.auditInfo.details = { username: req.body.username, role: req.body.role };
      const user = await users.create(req.body);
      req.auditInfo.resource = `user:${user.id}`;
      return reply.status(201).send(user);
    },
  );

  r.get(
    "/users/:id",
    {
      config: { access: "USER_READ" },
      schema: {
        operationId: "getUser",
        tags,
        summary: "Get a user",
        params: idParams,
        response: { 200: userResponse },
      },
    },
    async (req) => users.get(req.params.id),
  );

  r.put(
    "/users/:id",
    {
      config: { access: "USER_UPDATE", audit: "user.update" },
      schema: {
        operationId: "updateUser",
        tags,
        summary: "Change a user's name or role",
        params: idParams,
        body: updateUserBody,
        response: { 200: userResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `user:${req.params.id}`;
      req.auditInfo.details = { ...req.body };
      return users.update(req.params.id, req.body);
    },
  );

  r.put(
    "/users/:id/role",
    {
      // The same event as a role change through PUT /users/{id}: one place to look for who changed roles.
      config: { access: "USER_UPDATE", audit: "user.update" },
      schema: {
        operationId: "updateUserRole",
        tags,
        summary: "Change a user's role; their sessions end. The last admin can't be demoted (409)",
        params: idParams,
        body: updateRoleBody,
        response: { 200: userResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `user:${req.params.id}`;
      req.auditInfo.details = { role: req.body.role };
      return users.update(req.params.id, { role: req.body.role });
    },
  );

  r.put(
    "/users/:id/password",
    {
      config: { access: "USER_UPDATE", audit: "user.password_reset" },
      schema: {
        operationId: "updateUserPassword",
        tags,
        summary: "Set a user's password (admin reset); their sessions are revoked",
        params: idParams,
        body: resetPasswordBody,
        response: { 200: lazySchema(() => z.object({ message: z.string().describe("Result") })) },
      },
    },
    async (req) => {
      req.auditInfo.resource = `user:${req.params.id}`;
      await users.setPassword(req.params.id, req.body.new_password);
      return { message: "Password updated" };
    },
  );

  r.delete(
    "/users/:id",
    {
      config: { access: "USER_DELETE", audit: "user.delete" },
      schema: {
        operationId: "deleteUser",
        tags,
        summary: "Delete a user",
        params: idParams,
        response: { 204: lazySchema(() => z.null().describe("Deleted")) },
      },
    },
    async (req, reply) => {
      req.auditInfo.resource = `user:${req.params.id}`;
      const removed = await users.remove(req.params.id, req.principal!.userId);
      req.auditInfo.details = { username: removed.username };
      return reply.status(204).send(null);
    },
  );
}
