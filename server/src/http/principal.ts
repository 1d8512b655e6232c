import type { Role } from "./permissions.js";

/** Who is calling. Resolved once per request by the auth hook. */
export interface Principal {
  userId: number;
  username: string;
  /** The role the request acts with (an API key may carry a narrower one than its owner). */
  role: Role;
  /** The owner's own role; permissions are the intersection of `role` and `ownerRole`. */
  ownerRole: Role;
  via: "session" | "basic" | "api_key" | "demo";
  sessionId?: number;
  apiKeyId?: number;
  demo: boolean;
}

/** The read-only visitor of demo mode. It has no row in the users table. */
export const DEMO_PRINCIPAL: Principal = {
  userId: 0,
  username: "demo",
  role: "viewer",
  ownerRole: "viewer",
  via: "demo",
  demo: true,
};
