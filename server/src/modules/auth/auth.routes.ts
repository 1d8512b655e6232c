import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { UnauthorizedError } from "../../http/errors.js";
import { SESSION_COOKIE } from "../../http/auth-hooks.js";
import { passwordInput, userResponse } from "../users/users.schema.js";
import { toUserResponse } from "../users/users.service.js";
import type { AppContext } from "../context.js";

const message = lazySchema(() =>
  z.object({ message: z.string().describe("Human-readable result") }).describe("Result"),
);

export function registerAuthRoutes(app: FastifyInstance, ctx: Pick<AppContext, "auth" | "usersRepo" | "config">): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, usersRepo, config } = ctx;

  r.post(
    "/auth/login",
    {
      config: { access: "public", audit: "auth.login" },
      schema: {
        operationId: "loginUser",
        tags: ["Authentication"],
        summary: "Sign in and receive the session_id cookie",
        body: lazySchema(() =>
          z
            .object({
              username: z.string().min(1).max(64).describe("Login name"),
              password: z.string().min(1).max(256).describe("Password"),
            })
            .strict(),
        ),
        response: { 200: message },
      },
    },
    async (req, reply) => {
      req.auditInfo.username = req.body.username;
      req.auditInfo.resource = `user:${req.body.username}`;
      const { token, user } = await auth.login(req.body.username, req.body.password, {
        ip: req.ip,
        userAgent: req.headers["user-agent"],
      });
      req.auditInfo.userId = user.id;
      reply.setCookie(SESSION_COOKIE, token, {
        path: "/",
        httpOnly: true,
        sameSite: "lax",
        secure: req.protocol === "https",
        maxAge: Math.floor(config.sessionTtlMs / 1000),
      });
      return { message: "Login successful" };
    },
  );

  r.post(
    "/auth/logout",
    {
      config: { access: "public", audit: "auth.logout" },
      schema: {
        operationId: "logoutUser",
        tags: ["Authentication"],
        summary: "End the session",
        response: { 200: message },
      },
    },
    async (req, reply) => {
      await auth.logout(req.principal);
      reply.clearCookie(SESSION_COOKIE, { path: "/" });
      return { message: "Logout successful" };
    },
  );

  r.get(
    "/auth/me",
    {
      config: { access: "self" },
      schema: {
        operationId: "getCurrentUser",
        tags: ["Authentication"],
        summary: "The signed-in user",
        response: { 200: userResponse },
      },
    },
    async (req) => {
      const p = req.principal!;
      if (p.demo) {
        return {
          id: 0,
          username: p.username,
          role: p.role,
          created_at: new Date(0).toISOString(),
          last_login_at: null,
          demo_mode: true,
        };
      }
      const row = await usersRepo.byId(p.userId);
      if (!row) throw new UnauthorizedError();
      return { ...toUserResponse(row), role: p.role };
    },
  );

  r.post(
    "/auth/change-password",
    {
      config: { access: "self", audit: "auth.password_change" },
      schema: {
        operationId: "changePassword",
        tags: ["Authentication"],
        summary: "Change your own password; your other sessions are revoked",
        body: lazySchema(() =>
          z
            .object({
              current_password: z.string().min(1).max(256).describe("Current password"),
              new_password: passwordInput,
            })
            .strict(),
        ),
        response: { 200: message },
      },
    },
    async (req) => {
      await auth.changePassword(req.principal!, req.body.current_password, req.body.new_password);
      return { message: "Password changed successfully" };
    },
  );
}
