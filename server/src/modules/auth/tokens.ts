import { createHash, randomBytes } from "node:crypto";

/** A random secret token, URL-safe. */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** Tokens (sessions, API keys) are stored only as their SHA-256. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
